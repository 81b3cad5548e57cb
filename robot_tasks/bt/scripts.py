"""Glue between nodes and the script language in `robot_tasks.bt.scripting`.

Nodes never parse scripts at tick time when they can avoid it. As in BT.CPP, Script,
ScriptCondition and Precondition load their script when they are created (a missing
port, an empty entry or a syntax error is a tree-creation error); the script is
compiled for the node's blackboard there and then (`ScriptProgram.bind`). A literal
script is final; a script read from the blackboard (`code="{key}"`) is re-read at every
tick and recompiled only when its text changes.
"""
from __future__ import annotations

from typing import Any

from .errors import PortError, RuntimeTreeError
from .ports import blackboard_key


def compile_script(source: str) -> Any:
    """Compile script text into a ScriptProgram (`evaluate(blackboard, enums)`, `bind`).

    Raises ScriptError on a syntax error.
    """
    from .scripting import parse_script  # imported late: the script package is optional at import time

    return parse_script(source)


def bind_script(program: Any, board: Any):
    """`program` ready for `board`: a BoundScript (`run`/`test`, called with the board and
    the enums). Anything with only `evaluate(board, enums)` is wrapped."""
    bind = getattr(program, "bind", None)
    if bind is not None:
        return bind(board)
    return _EvaluateOnly(program)


class ScriptCache:
    """The script held in one input port of a node (`code`, `if`, ...), bound to the
    node's blackboard. `literal` is True when the XML wrote the script itself; then
    `bound` never changes and the node may keep its closures."""

    __slots__ = ("_node", "_port", "_missing", "_source", "bound", "literal")

    def __init__(self, node, port: str, missing_message: str):
        self._node = node
        self._port = port
        self._missing = missing_message
        self._source: str | None = None
        self.bound = None
        raw = node.config.input_ports.get(port)
        self.literal = raw is not None and blackboard_key(raw, port) is None
        self.load()  # BT.CPP's constructors call loadExecutor(): errors surface at creation

    def load(self):
        """The BoundScript for the port's current text (recompiled if the text changed)."""
        try:
            source = self._node.get_input(self._port)
        except PortError:
            raise RuntimeTreeError(self._missing) from None
        if source != self._source:
            self.bound = bind_script(compile_script(source), self._node.config.blackboard)
            self._source = source
        return self.bound


class _EvaluateOnly:
    """A script object that offers only `evaluate`, shaped like a BoundScript."""

    __slots__ = ("program",)

    def __init__(self, program: Any):
        self.program = program

    def run(self, board: Any, enums: Any) -> Any:
        return self.program.evaluate(board, enums)

    def test(self, board: Any, enums: Any) -> bool:
        return truthy(self.program.evaluate(board, enums), getattr(self.program, "source", None))


def truthy(value: Any, source: str | None = None) -> bool:
    """A script result as a condition, with BT.CPP's `cast<bool>` rules."""
    from .scripting import script_truthy

    return script_truthy(value, source)
