"""Every error the engine raises derives from BehaviorTreeError, so callers catch one class."""
from __future__ import annotations

from robot_tasks.errors import RobotTasksError


class BehaviorTreeError(RobotTasksError):
    """Base class of all robot_tasks behavior-tree errors."""


class XmlError(BehaviorTreeError):
    """A tree file or text is malformed or breaks BT.CPP's structural rules.

    The message always starts with `file:line:` (file is `<text>` for in-memory XML)
    and names the offending node when there is one. For malformed XML, `column`
    (1-based) is set too and the reason says "at column N".
    """

    def __init__(self, message: str, file: str | None = None, line: int | None = None,
                 node: str | None = None, column: int | None = None):
        self.file = file or "<text>"
        self.line = line
        self.column = column
        self.node = node
        self.reason = message
        where = f"{self.file}:{line}" if line is not None else self.file
        subject = f" [{node}]" if node else ""
        super().__init__(f"{where}:{subject} {message}")


class LogicError(BehaviorTreeError):
    """A tree was used in a way BT.CPP forbids at tick time (e.g. a child returned IDLE)."""


class RuntimeTreeError(BehaviorTreeError):
    """A node failed at run time for a reason outside the tree's structure."""


class PortError(BehaviorTreeError):
    """A port is missing, undeclared, or its value cannot be converted to the declared type."""


class ScriptError(BehaviorTreeError):
    """A script failed to parse or to evaluate.

    `position` is the 0-based character offset in the script source, when known.
    """

    def __init__(self, message: str, source: str | None = None, position: int | None = None):
        self.source = source
        self.position = position
        self.reason = message
        detail = message
        if source is not None and position is not None:
            detail = f"{message} at column {position + 1} of '{source}'"
        super().__init__(detail)


class SubstitutionError(BehaviorTreeError):
    """A substitution rule, or a rules JSON text, is wrong (see `robot_tasks.bt.testing`)."""
