"""Glue between nodes and the script language in `robot_tasks.bt.scripting`.

Nodes never parse scripts at tick time when they can avoid it: a literal script is
compiled when the node is created (so a syntax error is a tree-creation error), and
a script read from the blackboard is recompiled only when its text changes.
"""
from __future__ import annotations

from typing import Any

from .ports import blackboard_key


def compile_script(source: str) -> Any:
    """Compile script text into an object with `evaluate(blackboard, enums)`.

    Raises ScriptError on a syntax error.
    """
    from .scripting import parse_script  # imported late: the script package is optional at import time

    return parse_script(source)


class ScriptCache:
    """The compiled script held in one port of a node (`code`, `if`, ...)."""

    __slots__ = ("_node", "_port", "_source", "_program")

    def __init__(self, node, port: str):
        self._node = node
        self._port = port
        self._source: str | None = None
        self._program: Any = None
        raw = node.config.input_ports.get(port)
        if raw is not None and blackboard_key(raw, port) is None:
            self.program()  # literal: compile now so errors surface at creation

    def program(self) -> Any:
        source = self._node.get_input(self._port)
        if source != self._source:
            self._program = compile_script(source)
            self._source = source
        return self._program


def truthy(value: Any, source: str | None = None) -> bool:
    """A script result as a condition, with BT.CPP's `cast<bool>` rules."""
    from .scripting import script_truthy

    return script_truthy(value, source)
