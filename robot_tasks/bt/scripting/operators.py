"""The meaning of each operator on already-evaluated values, mirroring BT.CPP 4.10's
`include/behaviortree_cpp/scripting/operators.hpp`.

These functions are the complete (slow) path: the compiled closures in `compiler.py`
handle the common number cases inline and call here for everything else. They raise
`OperatorError` with a message naming the operator; the closure adds the script and the
column. `None` stands for an empty (uninitialised) value.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from robot_tasks.bt.errors import BehaviorTreeError

from .values import (
    FLOAT_EPSILON,
    INT64_MIN,
    ConversionError,
    int_to_double,
    is_number,
    normalize,
    parse_double_prefix,
    string_to_double,
    to_bool,
    to_double,
    to_int64,
    to_string,
    type_name,
)


class OperatorError(BehaviorTreeError):
    """An operator was applied to values it does not accept."""


def _not_initialized(side: str, op: str) -> OperatorError:
    return OperatorError(f"the {side} operand of the operator [{op}] is not initialized")


# The NaN x86 produces for 0/0 has its sign bit set; std::to_string prints it "-nan".
_DEFAULT_NAN = -math.nan


def ieee_divide(numerator: float, denominator: float) -> float:
    """Division as C++ doubles do it on x86: x/0 is ±inf, 0/0 is -nan, nan/0 is nan."""
    try:
        return numerator / denominator
    except ZeroDivisionError:
        if math.isnan(numerator):
            return numerator
        if numerator == 0.0:
            return _DEFAULT_NAN
        negative = (numerator < 0) != (math.copysign(1.0, denominator) < 0)
        return -math.inf if negative else math.inf


# ---- unary -----------------------------------------------------------------------------
def unary(op: str, value: Any) -> Any:
    """`-x`, `!x`, `~x`: numbers only, result is a double."""
    value = normalize(value)
    if value is None:
        raise _not_initialized("right", op)
    if isinstance(value, str):
        raise OperatorError(f"the operator [{op}] is not valid for a string")
    if not is_number(value):
        raise OperatorError(f"the operator [{op}] is not valid for a value of type "
                            f"[{type_name(value)}]")
    number = _double(value, op)
    if op == "-":
        return -number
    if op == "!":
        return 0.0 if number != 0.0 else 1.0  # NaN counts as true, as in C++
    # '~': BT.CPP truncates the double to int64 (no integrality check), after a range
    # check that NaN and exactly 2**63 slip through; x86 then converts them to INT64_MIN.
    if number > 2.0 ** 63 or number < -(2.0 ** 63):
        raise OperatorError(f"number {number!r} out of range for the bitwise operator [~]")
    if math.isnan(number) or number == 2.0 ** 63:
        return float(~INT64_MIN)
    return float(~int(number))


def _double(value: Any, op: str) -> float:
    try:
        return to_double(value)
    except ConversionError as exc:
        raise OperatorError(f"operator [{op}]: {exc}") from None


# ---- binary ----------------------------------------------------------------------------
def binary(op: str, left: Any, right: Any) -> Any:
    """Every binary operator except comparisons. Numbers: + - * / give a double;
    & | ^ need integral values; && || need values castable to bool and do not
    short-circuit (both sides were already evaluated). Strings: '+' joins two strings,
    '..' joins strings and numbers (numbers via std::to_string). `1 .. 2` (two numbers)
    gives an empty value, as in BT.CPP."""
    left = normalize(left)
    right = normalize(right)
    if left is None:
        raise _not_initialized("left", op)
    if right is None:
        raise _not_initialized("right", op)
    left_is_number = is_number(left)
    right_is_number = is_number(right)
    if left_is_number and right_is_number:
        if op in ("+", "-", "*", "/"):
            lv = _double(left, op)
            rv = _double(right, op)
            if op == "+":
                return lv + rv
            if op == "-":
                return lv - rv
            if op == "*":
                return lv * rv
            return ieee_divide(lv, rv)
        if op in ("&", "|", "^"):
            try:
                li = to_int64(left)
                ri = to_int64(right)
            except ConversionError:
                raise OperatorError(
                    f"the bitwise operator [{op}] needs integer operands, got {left!r} and "
                    f"{right!r}") from None
            if op == "&":
                return float(li & ri)
            if op == "|":
                return float(li | ri)
            return float(li ^ ri)
        if op in ("&&", "||"):
            try:
                lb = to_bool(left)
                rb = to_bool(right)
            except ConversionError:
                raise OperatorError(
                    f"the logic operator [{op}] needs operands castable to bool (doubles, or "
                    f"the integers 0/1), got {left!r} and {right!r}") from None
            return float(lb and rb) if op == "&&" else float(lb or rb)
        return None  # '..' on two numbers: BT.CPP falls through and returns an empty Any
    left_is_string = isinstance(left, str)
    right_is_string = isinstance(right, str)
    if op == "+" and left_is_string and right_is_string:
        return left + right
    if op == ".." and ((left_is_string and (right_is_string or right_is_number))
                       or (right_is_string and left_is_number)):
        return to_string(left) + to_string(right)
    raise OperatorError(f"operation [{op}] not permitted between [{type_name(left)}] and "
                        f"[{type_name(right)}]")


# ---- comparison ------------------------------------------------------------------------
def compare(op: str, left: Any, right: Any, enums: Mapping[str, int] | None) -> bool:
    """One link of a comparison chain. Numbers compare as doubles and `==`/`!=` use
    float epsilon; two strings compare bytewise; a string against a number is read as a
    number first ('true'/'false', enum names, then a numeric prefix)."""
    left = normalize(left)
    right = normalize(right)
    if left is None:
        raise _not_initialized("left", op)
    if right is None:
        raise _not_initialized("right", op)
    left_is_number = is_number(left)
    right_is_number = is_number(right)
    if left_is_number and right_is_number:
        return compare_doubles(op, _double(left, op), _double(right, op))
    left_is_string = isinstance(left, str)
    right_is_string = isinstance(right, str)
    if left_is_string and right_is_string:
        return _compare_ordered(op, left, right)
    try:
        if left_is_string and right_is_number:
            return compare_doubles(op, string_to_double(left, enums), _double(right, op))
        if left_is_number and right_is_string:
            return compare_doubles(op, _double(left, op), string_to_double(right, enums))
    except ConversionError as exc:
        raise OperatorError(f"comparison [{op}]: {exc}") from None
    raise OperatorError(f"can't mix different types in comparison [{op}]: left operand "
                        f"[{type_name(left)}], right operand [{type_name(right)}]")


def compare_doubles(op: str, lv: float, rv: float) -> bool:
    if op == "==":
        return abs(lv - rv) <= FLOAT_EPSILON
    if op == "!=":
        return not abs(lv - rv) <= FLOAT_EPSILON
    return _compare_ordered(op, lv, rv)


def _compare_ordered(op: str, lv: Any, rv: Any) -> bool:
    # Written as BT.CPP writes them (e.g. '<' fails when lv >= rv) so NaN behaves the same.
    if op == "==":
        return lv == rv
    if op == "!=":
        return not lv == rv
    if op == "<":
        return not lv >= rv
    if op == ">":
        return not lv <= rv
    if op == "<=":
        return not lv > rv
    return not lv < rv  # '>='


# ---- ternary ---------------------------------------------------------------------------
def condition_is_true(value: Any) -> bool:
    """The ternary's test: BT.CPP casts the condition to double, so a string must hold a
    number ('1' is true, 'abc' is an error) and an int is compared with 0."""
    value = normalize(value)
    if value is None:
        raise OperatorError("the condition of the operator [?:] is not initialized")
    try:
        if isinstance(value, str):
            return parse_double_prefix(value) != 0.0
        return to_double(value) != 0.0
    except ConversionError as exc:
        raise OperatorError(f"the condition of the operator [?:] is not a number: {exc}") \
            from None


# ---- assignment ------------------------------------------------------------------------
def assigned_value(key: str, old: Any, value: Any, enums: Mapping[str, int] | None) -> Any:
    """What `key := value` / `key = value` stores when the entry holds `old` (None when
    missing or empty). A filled entry keeps its type: an int entry takes 3.0 as 3 and
    rejects 3.5; a number entry takes a string by parsing it (as a double, like BT.CPP
    for untyped entries); a string entry rejects numbers."""
    if value is None:
        raise OperatorError(f"the right operand of the assignment to [{key}] is not "
                            "initialized")
    if old is None:
        return value
    old_type = type(old)
    if old_type is type(value) and old_type in (int, float, str):
        return value
    if isinstance(value, str) and not isinstance(old, str):
        if is_number(old):
            try:
                return string_to_double(value, enums)
            except ConversionError as exc:
                raise OperatorError(_assign_prefix(key, old) + str(exc)) from None
        raise OperatorError(_assign_prefix(key, old) +
                            f"the right operand is a string, can't convert to "
                            f"[{type_name(old)}]")
    return keep_entry_type(key, old, value)


def keep_entry_type(key: str, old: Any, value: Any) -> Any:
    """BT.CPP `Any::copyInto`: convert `value` to the type already held by the entry."""
    if isinstance(old, bool):
        # BT.CPP keeps an int64 in a bool entry; we keep a Python bool, so only 0/1 fit.
        try:
            number = to_int64(value) if is_number(value) else None
        except ConversionError:
            number = None
        if number in (0, 1):
            return number == 1
    elif is_number(old) and is_number(value):
        try:
            if isinstance(normalize(old), int):
                return to_int64(value)
            return to_double(value)
        except ConversionError as exc:
            raise OperatorError(_assign_prefix(key, old) + str(exc)) from None
    elif isinstance(old, str) and isinstance(value, str):
        return value
    elif type(old) is type(value):
        return value
    raise OperatorError(_assign_prefix(key, old) + f"the right operand has type "
                        f"[{type_name(value)}] and can't be converted to [{type_name(old)}]")


def _assign_prefix(key: str, old: Any) -> str:
    return f"error assigning a value to entry [{key}] with type [{type_name(old)}]: "


def compound_value(op: str, key: str, old: Any, value: Any) -> Any:
    """What `key += value` (and -= *= /=) stores. Numbers compute in double and the
    result goes back into the entry's type (an int entry rejects 7/2); `+=` with a string
    appends to a string entry."""
    if value is None:
        raise OperatorError(f"the right operand of the operator [{op}] is not initialized")
    if old is None:
        raise OperatorError(f"the left operand of the operator [{op}] is not initialized "
                            f"(entry [{key}] is empty)")
    if is_number(value):
        if not is_number(old):
            raise OperatorError(f"the operator [{op}] can't be used with the non-numeric "
                                f"entry [{key}] of type [{type_name(old)}]")
        lv = _double(old, op)
        rv = _double(value, op)
        if op == "+=":
            result = lv + rv
        elif op == "-=":
            result = lv - rv
        elif op == "*=":
            result = lv * rv
        else:
            result = ieee_divide(lv, rv)
        return keep_entry_type(key, old, result)
    if isinstance(value, str):
        if op != "+=":
            raise OperatorError(f"the operator [{op}] is not supported for strings")
        try:
            joined = to_string(old) + value
        except ConversionError as exc:
            raise OperatorError(_assign_prefix(key, old) + str(exc)) from None
        return keep_entry_type(key, old, joined)
    return old  # BT.CPP leaves the entry unchanged for other right-hand types


__all__ = ["OperatorError", "unary", "binary", "compare", "compare_doubles",
           "condition_is_true", "assigned_value", "keep_entry_type", "compound_value",
           "ieee_divide", "int_to_double"]
