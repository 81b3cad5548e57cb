"""A compiled script: parse once, evaluate many times."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ScriptError
from .compiler import compile_statement
from .parser import parse_statements
from .values import ConversionError, to_bool

_NO_ENUMS: Mapping[str, int] = {}


class ScriptProgram:
    """The statements of one script, compiled to closures.

    `evaluate(blackboard, enums)` runs every statement in order and returns the value of
    the last one (None when that value is empty, e.g. a script that just reads an
    uninitialised entry). Runtime errors raise ScriptError naming the operator or the
    variable and the column where it appears.
    """

    __slots__ = ("source", "statements", "_single", "_run")

    def __init__(self, source: str):
        self.source = source
        self.statements = tuple(parse_statements(source))
        compiled = tuple(compile_statement(node, source) for node in self.statements)
        self._single = compiled[0] if len(compiled) == 1 else None
        self._run = compiled

    def evaluate(self, blackboard: Any, enums: Mapping[str, int] | None = None) -> Any:
        if enums is None:
            enums = _NO_ENUMS
        try:
            single = self._single
            if single is not None:
                return single(blackboard, enums)
            value = None
            for statement in self._run:
                value = statement(blackboard, enums)
            return value
        except RecursionError:
            raise ScriptError("script too deeply nested to evaluate", self.source) from None

    def evaluate_truthy(self, blackboard: Any, enums: Mapping[str, int] | None = None) -> bool:
        """Evaluate and cast the result to bool the way ScriptCondition and the
        pre-conditions (_skipIf, _while, ...) do."""
        value = self.evaluate(blackboard, enums)
        if value.__class__ is float and value >= 0.0:
            return value != 0.0
        return script_truthy(value, self.source)

    def __repr__(self) -> str:
        return f"ScriptProgram({self.source!r})"


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
