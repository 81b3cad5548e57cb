"""A compiled script: parse once, evaluate many times."""
from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from ..errors import ScriptError
from .compiler import check_depth, compile_run, compile_test
from .parser import parse_statements
from .values import ConversionError, to_bool

_NO_ENUMS: Mapping[str, int] = {}


class ScriptProgram:
    """The statements of one script, parsed once and compiled to closures on first use.

    `evaluate(blackboard, enums)` runs every statement in order and returns the value of
    the last one (None when that value is empty, e.g. a script that just reads an
    uninitialised entry). Runtime errors raise ScriptError naming the operator or the
    variable and the column where it appears. `bind(board)` compiles the same syntax
    trees for one engine Blackboard (`bound.py`): what nodes tick.
    """

    __slots__ = ("source", "statements", "_run", "_test")

    def __init__(self, source: str):
        self.source = source
        self.statements = _parsed(source)
        self._run = self._test = None

    def evaluate(self, blackboard: Any, enums: Mapping[str, int] | None = None) -> Any:
        if enums is None:
            enums = _NO_ENUMS
        run = self._run
        if run is None:
            run = self._run = compile_run(self.statements, self.source)
        try:
            return run(blackboard, enums)
        except RecursionError:
            raise ScriptError("script too deeply nested to evaluate", self.source) from None

    def evaluate_truthy(self, blackboard: Any, enums: Mapping[str, int] | None = None) -> bool:
        """Evaluate and cast the result to bool the way ScriptCondition and the
        pre-conditions (_skipIf, _while, ...) do."""
        if enums is None:
            enums = _NO_ENUMS
        test = self._test
        if test is None:
            test = self._test = compile_test(self.statements, self.source)
        try:
            return test(blackboard, enums)
        except RecursionError:
            raise ScriptError("script too deeply nested to evaluate", self.source) from None

    def bind(self, board: Any) -> BoundScript:
        """This script ready for `board`: `run(board, enums)` / `test(board, enums)`,
        each compiled when first asked for. An engine Blackboard gets closures that reach
        its entries directly; any other board (a subclass, a test double) the protocol."""
        return BoundScript(self, board)

    def __repr__(self) -> str:
        return f"ScriptProgram({self.source!r})"


class BoundScript:
    """A script ready for one node: `run(board, enums)` returns the last value,
    `test(board, enums)` the result cast to bool. Call both with the board it was bound
    to (bound closures ignore the argument; the protocol ones use it)."""

    __slots__ = ("program", "board", "_run", "_test")

    def __init__(self, program: ScriptProgram, board: Any):
        self.program = program
        self.board = board
        self._run = self._test = None

    @property
    def source(self) -> str:
        return self.program.source

    @property
    def run(self):
        if self._run is None:
            from .bound import bound_run, is_bindable  # imports the engine's Blackboard

            program = self.program
            self._run = (bound_run(program.statements, program.source, self.board) if is_bindable(self.board)
                         else program.evaluate)
        return self._run

    @property
    def test(self):
        if self._test is None:
            from .bound import bound_test, is_bindable

            program = self.program
            self._test = (bound_test(program.statements, program.source, self.board) if is_bindable(self.board)
                          else program.evaluate_truthy)
        return self._test


@functools.lru_cache(maxsize=4096)
def _parsed(source: str) -> tuple:
    """The syntax trees of `source` (frozen, so shared by every node with the same
    script: a tree repeats its `_skipIf`s), checked for depth; ScriptError if invalid."""
    statements = tuple(parse_statements(source))
    check_depth(statements, source)
    return statements


def script_truthy(value: Any, source: str | None = None) -> bool:
    """BT.CPP's `result.cast<bool>()` on a script result: a double is true when non-zero;
    an integer must be exactly 0 or 1; bool is itself; a negative number, a string or an
    empty result is an error (BT.CPP has no string-to-bool cast here, and its number
    conversion treats bool as unsigned: `-1.0` or `'true'` as a condition throws)."""
    try:
        return to_bool(value)
    except ConversionError as exc:
        where = f" in script [{source}]" if source else ""
        raise ScriptError(f"can't use the script result {value!r} as a boolean{where}: "
                          f"{exc}") from None


def parse_script(source: str) -> ScriptProgram:
    """Compile `source`; raise ScriptError (with the column) on a syntax error."""
    return ScriptProgram(source)


def is_valid_script(source: str) -> tuple[bool, str]:
    """(True, '') when `source` parses, else (False, the error message). For checking
    scripts at tree-creation time without running them."""
    try:
        parse_script(source)
    except ScriptError as exc:
        return False, str(exc)
    return True, ""
