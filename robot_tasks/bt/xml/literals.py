"""The value a SubTree literal port becomes, as BT.CPP 4.10 stores it (`xml_parsing.cpp`).

`<SubTree ID="Sub" count="3" speed="0.5" name_of="box"/>` puts each literal into the
SubTree's blackboard, typed since 4.9.1 so that scripts can do arithmetic on it:

- no '.', 'e' or 'E' and the whole text is a `std::from_chars` int64 -> int
  (C++ `int` when it fits 32 bits, else `int64_t`: the type key tells them apart);
- else the whole text is a `std::from_chars` double -> float;
- else the text, as a string.

`std::from_chars` is strict: no leading space or '+', no hex, no '_' digit separators,
and a value out of range (`1e400`, or `1e-400`, which underflows to zero) is a failure,
so such texts stay strings. It does accept `inf`, `infinity`, `nan` and `nan(chars)` in
any case. Python's `int()`/`float()` accept more, so they only run once the text has
been matched against that grammar.

The type matters beyond scripts: the entry is typed (`int`, `long`, `double`), so a
`double` port reading `{count}` inside the SubTree is a load error in 4.10
(see `port_types.py`), while a string literal leaves the entry generic.
"""
from __future__ import annotations

import math
import re

_INT = re.compile(r"-?[0-9]+")
_DECIMAL = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_SPECIAL = re.compile(r"-?(?:inf|infinity|nan(?:\([0-9A-Za-z_]*\))?)", re.IGNORECASE)
_INT64 = (-2 ** 63, 2 ** 63 - 1)


def from_chars_int64(text: str) -> int | None:
    """`std::from_chars(int64_t)` consuming the whole text, else None."""
    if not _INT.fullmatch(text):
        return None
    value = int(text)
    return value if _INT64[0] <= value <= _INT64[1] else None


def from_chars_double(text: str) -> float | None:
    """`std::from_chars(double)` consuming the whole text, else None (out of range
    included: libstdc++ reports overflow and underflow to zero as errors)."""
    if _SPECIAL.fullmatch(text):
        lowered = text.lower()
        if "nan" in lowered:
            return -math.nan if lowered.startswith("-") else math.nan
        return -math.inf if lowered.startswith("-") else math.inf
    if not _DECIMAL.fullmatch(text):
        return None
    value = float(text)
    if math.isinf(value):
        return None
    if value == 0.0 and any(digit in "123456789" for digit in text.split("e")[0].split("E")[0]):
        return None  # underflow: non-zero digits that became 0
    return value


def subtree_literal(text: str):
    """int, float or the text itself, as 4.10 stores `<SubTree port="text"/>`."""
    if not text:
        return text
    if "." not in text and "e" not in text and "E" not in text:
        value = from_chars_int64(text)
        if value is not None:
            return value
    value = from_chars_double(text)
    return text if value is None else value
