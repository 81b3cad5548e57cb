"""Declaring node parameters: type, range and description in one call, one error style.

A ROS 2 parameter is declared once, with its default, and read back at start-up. This
project's nodes declare every parameter through :func:`declare`, so that

- the default is written in exactly one place, the declaration, and a user sees it and
  its meaning with `ros2 param describe` (the descriptor carries the description and
  the allowed range);
- a number may be given as an int or a float (`-p rate:=240` works for a float);
- every bad value raises the same :class:`ParameterError`, which names the node and the
  parameter and says what was expected:
  `arm_server: parameter 'velocity_scaling' must be a finite number in (0, 1], got 1.5`.
  The node's main turns it into exit code 2 with that message (robot_tasks.ros.node_main).

The type follows the default: bool, int, float, str, a list of str or a list of numbers.
A default of None is an optional parameter: give its `kind` (float, or list for a list of
numbers); unset, it reads back as None.

    rate = declare(node, "rate", 240.0, "physics steps per sim second", minimum=0, open_minimum=True)
    mode = declare(node, "ik_method", "dls", "differential IK variant", choices=("pinv", "dls"))
    height = declare(node, "support_height", None, "table-top z [m]", kind=float)
"""
from __future__ import annotations

import math
from typing import Any, Sequence

from rcl_interfaces.msg import ParameterDescriptor

from robot_tasks.ros.errors import ParameterError


def declare(node, name: str, default: Any, description: str = "", *,
            minimum: float | None = None, maximum: float | None = None,
            open_minimum: bool = False, open_maximum: bool = False,
            choices: Sequence[str] | None = None, allow_empty: bool = True,
            length: int | None = None, kind: type | None = None) -> Any:
    """Declare parameter `name` on `node` with `default`, read it, check it, return it.

    Args:
        minimum, maximum: bounds of a number (or of every number of a list);
            `open_minimum` / `open_maximum` exclude the bound itself.
        choices: the allowed values of a string.
        allow_empty: False refuses "" for a string.
        length: the exact length of a list.
        kind: the type of a parameter whose default is None (float or list).
    Raises ParameterError naming the node and the parameter.
    """
    rule = _Rule(node.get_name(), name, minimum, maximum, open_minimum, open_maximum,
                 choices, allow_empty, length)
    descriptor = ParameterDescriptor(description=rule.describe(description), dynamic_typing=True)
    if default is None or (isinstance(default, list) and not default):
        # rclpy cannot infer a type from None or []: declare it unset, typed by `kind`.
        value = node.declare_parameter(name, None, descriptor).value
        if value is None or (isinstance(value, (list, tuple)) and not value):
            return None if default is None else []
        template = _template(kind, default)
    else:
        value = node.declare_parameter(name, default, descriptor).value
        template = default
    return rule.check(value, template)


def _template(kind: type | None, default):
    """A stand-in default of the declared kind, so that `_Rule.check` knows the type.
    A list default ([]) with kind=str is a list of strings, not a string."""
    if isinstance(default, list):
        return [""] if kind is str else [0.0]
    if kind is float:
        return 0.0
    if kind is int:
        return 0
    if kind is str:
        return ""
    if kind is list or isinstance(default, list):
        return [0.0] if kind is not str else [""]
    raise TypeError("declare(): a default of None needs kind=float, int, str or list")


class _Rule:
    """The checks of one parameter, and the words of its error messages."""

    def __init__(self, node_name, name, minimum, maximum, open_minimum, open_maximum,
                 choices, allow_empty, length):
        self.node_name, self.name = node_name, name
        self.minimum, self.maximum = minimum, maximum
        self.open_minimum, self.open_maximum = open_minimum, open_maximum
        self.choices, self.allow_empty, self.length = choices, allow_empty, length

    def fail(self, reason: str):
        raise ParameterError(self.name, reason, node=self.node_name)

    def bounds(self) -> str:
        lo, hi = self.minimum, self.maximum
        if lo is not None and hi is not None:
            return f"in {'(' if self.open_minimum else '['}{lo:g}, {hi:g}{')' if self.open_maximum else ']'}"
        if lo is not None:
            return f"{'>' if self.open_minimum else '>='} {lo:g}"
        if hi is not None:
            return f"{'<' if self.open_maximum else '<='} {hi:g}"
        return ""

    def describe(self, description: str) -> str:
        extra = [f"range {self.bounds()}"] if self.bounds() else []
        if self.choices:
            extra.append("one of " + ", ".join(self.choices))
        return description + (f" ({'; '.join(extra)})" if extra else "")

    def check(self, value, template):
        if isinstance(template, bool):
            if not isinstance(value, bool):
                self.fail(f"must be true or false, got {value!r}")
            return value
        if isinstance(template, int):
            return self.integer(value)
        if isinstance(template, float):
            return self.number(value, "a finite number")
        if isinstance(template, str):
            return self.string(value)
        if not isinstance(value, (list, tuple)):
            self.fail(f"must be a list, got {value!r}")
        if self.length is not None and len(value) != self.length:
            self.fail(f"must have {self.length} values, got {len(value)}: {list(value)}")
        if template and isinstance(template[0], str):
            if not all(isinstance(v, str) for v in value):
                self.fail(f"must be a list of strings, got {value!r}")
            return list(value)
        if any(isinstance(v, (bool, str)) or not isinstance(v, (int, float)) for v in value):
            self.fail(f"must be a list of numbers, got {value!r}")
        return [self.number(v, "a list of finite numbers", whole=value) for v in value]

    def integer(self, value) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not self.inside(value):
            self.fail(f"must be an integer {self.bounds()}".rstrip() + f", got {value!r}")
        return value

    def number(self, value, what: str, whole=None) -> float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        if not ok or not self.inside(float(value)):
            self.fail(f"must be {what} {self.bounds()}".rstrip() + f", got {whole if whole is not None else value!r}")
        return float(value)

    def string(self, value) -> str:
        if not isinstance(value, str):
            self.fail(f"must be a string, got {value!r}")
        if not value and not self.allow_empty:
            self.fail("must be a non-empty string")
        if self.choices is not None and value not in self.choices:
            self.fail(f"must be one of {', '.join(self.choices)}, got {value!r}")
        return value

    def inside(self, value: float) -> bool:
        lo, hi = self.minimum, self.maximum
        if lo is not None and (value <= lo if self.open_minimum else value < lo):
            return False
        if hi is not None and (value >= hi if self.open_maximum else value > hi):
            return False
        return True


__all__ = ["declare", "ParameterError"]
