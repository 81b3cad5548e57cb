"""Blackboard values as JSON: what a MessagePack value becomes before it goes to the page.

BLACKBOARD replies are MessagePack, which can hold things JSON cannot: bytes, maps with
non-string keys, very deep nesting. The page only displays values, so each is turned
into the nearest JSON value: bytes into a short hex text, keys into strings, anything
nested deeper than `MAX_DEPTH` into "...".
"""
from __future__ import annotations

MAX_DEPTH = 20


def jsonable(value, depth: int = 0):
    if depth > MAX_DEPTH:
        return "..."
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (bytes, bytearray)):
        return f"<{len(value)} bytes: {bytes(value[:32]).hex()}>"
    if isinstance(value, dict):
        return {str(k): jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v, depth + 1) for v in value]
    return str(value)
