"""Declaring node parameters: type, range and description in one call, one error style.

A ROS 2 parameter is declared once, with its default, and read back at start-up. This
project's nodes declare every parameter through :func:`declare`, so that

- the default is written in exactly one place, the declaration, and a user sees it and
  its meaning with `ros2 param describe`: the descriptor carries the description, the
  allowed range as a `floating_point_range` / `integer_range`, and `read_only`;
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

Read-only unless the node says what a new value does. A node reads its parameters once,
at start; a value set later would change nothing, so the parameter is declared
`read_only` and rclpy itself refuses a run-time set ("Trying to set a read-only parameter:
rate."). A parameter the node does apply at run time is declared with `on_set`, a function
that receives each new value after it passed the same checks as at start. A set that fails
them is refused and the value is not changed: outside the descriptor's range rclpy refuses
it first, in its own words ("Parameter speed out of range Min: 0.0, Max: 1.0, value: 1.5");
anything else the checks refuse (an open bound, a wrong type) with the ParameterError text.

    declare(node, "speed", 0.5, "fraction", minimum=0.0, maximum=1.0, on_set=worker.set_speed)

Why dynamic typing, although the type is fixed: rclpy types a static parameter by its
default, and then refuses an int given for a float default (`-p rate:=240` would stop the
node with "Wrong parameter type"). The descriptor stays dynamically typed and the type is
checked here instead, with the range.

The descriptor's range is what rclpy can express: an inclusive [from_value, to_value]
(step 0), with ±inf, or the int64 limits, for a side without bound. An integer's open bound
is exact (> 0 is [1, ...]); a float's is not: (0, 1] is described as [0, 1], the exact rule
stays in the description text ("range in (0, 1]") and is enforced by this module's check.
Ranges of lists and choices of strings live in the description only.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from rcl_interfaces.msg import FloatingPointRange, IntegerRange, ParameterDescriptor, SetParametersResult

from robot_tasks.ros.errors import ParameterError

INT64_MIN, INT64_MAX = -2**63, 2**63 - 1   # IntegerRange's int64: a side without bound


def declare(node, name: str, default: Any, description: str = "", *,
            minimum: float | None = None, maximum: float | None = None,
            open_minimum: bool = False, open_maximum: bool = False,
            choices: Sequence[str] | None = None, allow_empty: bool = True,
            length: int | None = None, kind: type | None = None,
            on_set: Callable[[Any], None] | None = None) -> Any:
    """Declare parameter `name` on `node` with `default`, read it, check it, return it.

    Args:
        minimum, maximum: bounds of a number (or of every number of a list);
            `open_minimum` / `open_maximum` exclude the bound itself.
        choices: the allowed values of a string.
        allow_empty: False refuses "" for a string.
        length: the exact length of a list.
        kind: the type of a parameter whose default is None (float or list).
        on_set: called with each value set at run time, after the checks; without it the
            parameter is read-only.
    Raises ParameterError naming the node and the parameter.
    """
    rule = _Rule(node.get_name(), name, minimum, maximum, open_minimum, open_maximum,
                 choices, allow_empty, length)
    template = _template(kind, default)
    text = rule.describe(description)
    # Declared writable and without range first: rclpy would refuse an out-of-range start
    # value in its own words; the checks below give this module's. The full descriptor
    # replaces it once the value passed them.
    value = node.declare_parameter(name, None if _optional(default) else default,
                                   ParameterDescriptor(description=text, dynamic_typing=True)).value
    checked = _read(value, rule, template, default)
    node.set_descriptor(name, _descriptor(text, rule, template, read_only=on_set is None))
    if on_set is not None:
        _apply_at_run_time(node, name, rule, template, default, on_set)
    return checked


def _optional(default) -> bool:
    """rclpy cannot infer a type from None or []: such a parameter is declared unset."""
    return default is None or (isinstance(default, list) and not default)


def _read(value, rule: "_Rule", template, default):
    """The checked value; an unset optional parameter reads as its default (None or [])."""
    if _optional(default) and (value is None or (isinstance(value, (list, tuple)) and not value)):
        return None if default is None else []
    return rule.check(value, template)


def _template(kind: type | None, default):
    """A value of the parameter's type, so that `_Rule.check` knows the type: the default,
    or for an optional parameter a stand-in of its `kind`. A list default ([]) with kind=str
    is a list of strings, not a string."""
    if not _optional(default):
        return default
    if isinstance(default, list):
        return [""] if kind is str else [0.0]
    if kind is float:
        return 0.0
    if kind is int:
        return 0
    if kind is str:
        return ""
    if kind is list:
        return [0.0]
    raise TypeError("declare(): a default of None needs kind=float, int, str or list")


def _descriptor(text: str, rule: "_Rule", template, read_only: bool) -> ParameterDescriptor:
    """The descriptor `ros2 param describe` shows: the range of a scalar number as rclpy's
    inclusive range (see the module docstring for what an open float bound becomes)."""
    descriptor = ParameterDescriptor(description=text, dynamic_typing=True, read_only=read_only)
    if (rule.minimum is None and rule.maximum is None) or isinstance(template, bool):
        return descriptor
    if isinstance(template, int):
        descriptor.integer_range = [IntegerRange(from_value=rule.lowest_integer(),
                                                 to_value=rule.highest_integer(), step=0)]
    elif isinstance(template, float):
        lo = -math.inf if rule.minimum is None else float(rule.minimum)
        hi = math.inf if rule.maximum is None else float(rule.maximum)
        descriptor.floating_point_range = [FloatingPointRange(from_value=lo, to_value=hi, step=0.0)]
    return descriptor


def _apply_at_run_time(node, name: str, rule: "_Rule", template, default, on_set) -> None:
    """A run-time set of `name` passes the start-up checks or is refused with their message
    (rclpy's on-set callback); once stored, `on_set` gets the checked value."""

    def check(parameters) -> SetParametersResult:
        for parameter in parameters:
            if parameter.name == name:
                try:
                    _read(parameter.value, rule, template, default)
                except ParameterError as err:
                    return SetParametersResult(successful=False, reason=str(err))
        return SetParametersResult(successful=True)

    def apply(parameters) -> None:
        for parameter in parameters:
            if parameter.name == name:
                on_set(_read(parameter.value, rule, template, default))

    node.add_on_set_parameters_callback(check)
    node.add_post_set_parameters_callback(apply)


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

    def lowest_integer(self) -> int:
        """The smallest integer the rule allows (int64's for no bound): > 0 is 1."""
        if self.minimum is None:
            return INT64_MIN
        return math.floor(self.minimum) + 1 if self.open_minimum else math.ceil(self.minimum)

    def highest_integer(self) -> int:
        if self.maximum is None:
            return INT64_MAX
        return math.ceil(self.maximum) - 1 if self.open_maximum else math.floor(self.maximum)

    def inside(self, value: float) -> bool:
        lo, hi = self.minimum, self.maximum
        if lo is not None and (value <= lo if self.open_minimum else value < lo):
            return False
        if hi is not None and (value >= hi if self.open_maximum else value > hi):
            return False
        return True


__all__ = ["declare", "ParameterError"]
