"""How script values convert, mirroring BT.CPP's `BT::Any` (`utils/safe_any.hpp`,
`utils/convert_impl.hpp`) with Python types standing in for C++ ones:

    int (and bool)  ~ int64_t   float ~ double   str ~ std::string   None ~ empty Any

Anything else (lists, objects) is an "other" type: it can be stored and copied, but no
operator accepts it. The rules worth knowing:

- int -> double refuses integers beyond 2**53-1 ("loss of precision");
- double -> int64 requires an integral value in range;
- -> bool: a double is true when non-zero (NaN too); an int must be exactly 0 or 1
  ("implicit casting to bool is not allowed"); negative numbers are refused (bool
  counts as unsigned there); a string never converts;
- string -> double is `std::from_chars`: it parses the longest numeric *prefix*
  (`'3abc'` reads as 3), no leading '+' or spaces, and accepts inf/nan;
- number -> string is `std::to_string`: ints in decimal, doubles with `%f` (`1.500000`).
"""
from __future__ import annotations

import math
import numbers
import re
from collections.abc import Mapping
from typing import Any

from robot_tasks.bt.errors import BehaviorTreeError

MAX_EXACT_INT = 2 ** 53 - 1
INT64_MIN = -(2 ** 63)
INT64_MAX = 2 ** 63 - 1
FLOAT_EPSILON = 1.1920928955078125e-07  # std::numeric_limits<float>::epsilon()


class ConversionError(BehaviorTreeError):
    """A value cannot be converted; the evaluator wraps it into a ScriptError that names
    the operator and the script."""


def normalize(value: Any) -> Any:
    """Map numeric look-alikes (numpy scalars, bool) onto int/float; leave the rest."""
    cls = value.__class__
    if cls is int or cls is float or cls is str or value is None:
        return value
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return value


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float, numbers.Real)) and not isinstance(value, str)


def type_name(value: Any) -> str:
    """C++-flavoured name of a value's type, for error messages."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, numbers.Integral):
        return "int64_t"
    if isinstance(value, numbers.Real):
        return "double"
    if isinstance(value, str):
        return "std::string"
    return type(value).__name__


def int_to_double(value: int) -> float:
    if -MAX_EXACT_INT <= value <= MAX_EXACT_INT:
        return float(value)
    raise ConversionError(
        f"loss of precision when converting the large integer {value} to floating point")


def to_double(value: Any) -> float:
    """A number as double (BT.CPP `cast<double>()` of a numeric Any)."""
    if type(value) is float:
        return value
    value = normalize(value)
    if type(value) is int:
        return int_to_double(value)
    if type(value) is float:
        return value
    raise ConversionError(f"no safe conversion from [{type_name(value)}] to [double]")


def to_int64(value: Any) -> int:
    """A number as int64 (BT.CPP `cast<int64_t>()`): doubles must be integral."""
    value = normalize(value)
    if type(value) is int:
        if INT64_MIN <= value <= INT64_MAX:
            return value
        raise ConversionError(f"value {value} outside the int64 range")
    if type(value) is float:
        # BT.CPP's range check lets exactly 2**63 through; x86 then yields INT64_MIN.
        if math.isfinite(value) and value == math.floor(value) and \
                -(2.0 ** 63) <= value <= 2.0 ** 63:
            return INT64_MIN if value == 2.0 ** 63 else int(value)
        raise ConversionError(f"invalid floating point to integer conversion of {value!r}")
    raise ConversionError(f"no safe conversion from [{type_name(value)}] to [int64_t]")


def to_bool(value: Any) -> bool:
    """BT.CPP `cast<bool>()`: what ScriptCondition and the _skipIf family use.

    BT.CPP's `convertNumber` treats bool as unsigned, so a negative number is refused
    ("Value is negative and can't be converted to unsigned") before anything else."""
    if type(value) is float and value >= 0.0:
        return value != 0.0
    if value is None:
        raise ConversionError("the script result is empty (uninitialized blackboard entry)")
    if isinstance(value, bool):
        return value
    value = normalize(value)
    if type(value) is int or type(value) is float:
        if value < 0:
            raise ConversionError(f"the value {value!r} is negative and can't be converted "
                                  "to bool")
        if type(value) is float:
            return value != 0.0  # NaN is true, as static_cast<bool> gives
        if value in (0, 1):
            return value == 1
        raise ConversionError(
            f"implicit casting of the integer {value} to bool is not allowed (only 0 or 1)")
    raise ConversionError(f"no safe conversion between [{type_name(value)}] and [bool]")


# std::from_chars(double) accepts: optional '-', then decimal digits with an optional
# fraction and exponent, or inf/infinity/nan(...) in any case. It parses a prefix.
_FROM_CHARS_DOUBLE = re.compile(
    r"-?(?:(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"
    r"|(?P<inf>[iI][nN][fF](?:[iI][nN][iI][tT][yY])?)"
    r"|(?P<nan>[nN][aA][nN](?:\([0-9A-Za-z_]*\))?))")


def parse_double_prefix(text: str) -> float:
    """BT.CPP `Any::cast<double>()` of a string: `std::from_chars` on the longest numeric
    prefix. Raises ConversionError when no prefix parses or the number is out of range."""
    match = _FROM_CHARS_DOUBLE.match(text)
    if match is None:
        raise ConversionError(f"failed string to number conversion of '{text}'")
    negative = text.startswith("-")
    if match.group("inf") is not None:
        return -math.inf if negative else math.inf
    if match.group("nan") is not None:
        return math.nan
    number = match.group(0)
    value = float(number)
    if math.isinf(value) or (value == 0.0 and any(c in "123456789" for c in
                                                  number.split("e")[0].split("E")[0])):
        raise ConversionError(f"number '{number}' is out of the range of a double")
    return value


def string_to_double(text: str, enums: Mapping[str, int] | None) -> float:
    """BT.CPP `StringToDouble`: 'true'/'false', then enum names, then a number."""
    if text == "true":
        return 1.0
    if text == "false":
        return 0.0
    if enums and text in enums:
        return float(enums[text])
    return parse_double_prefix(text)


def to_string(value: Any) -> str:
    """BT.CPP `cast<std::string>()`: strings as is, numbers via `std::to_string`."""
    if type(value) is str:
        return value
    value = normalize(value)
    if type(value) is int:
        return str(value)
    if type(value) is float:
        if value != value:  # NaN: C's printf shows its sign bit, Python's does not
            return "-nan" if math.copysign(1.0, value) < 0 else "nan"
        return "%f" % value  # std::to_string(double) formats with "%f"
    if isinstance(value, str):
        return str(value)
    raise ConversionError(f"no safe conversion from [{type_name(value)}] to [std::string]")
