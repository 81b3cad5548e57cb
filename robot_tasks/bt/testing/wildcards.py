"""Wildcard patterns for substitution rules (BT.CPP `utils/wildcards.hpp`).

A pattern is compared with a node's full path, character by character:

- `*` matches any run of characters, the empty one included, and `/` too, so
  `"*/approach"` matches `"pick/approach"` and `"a/b/approach"`;
- `?` matches exactly one character;
- every other character matches only itself (case-sensitive); there is no escape,
  no `[...]` class and no `**`.

The whole path must match: `"approach"` does not match `"pick/approach"`, and
`"pick/*"` does not match `"pick"`. BT.CPP compares bytes, so we compare the UTF-8
bytes too (a `?` is one byte, as there).
"""
from __future__ import annotations

from functools import lru_cache


def wildcards_match(text: str, pattern: str) -> bool:
    """True if `pattern` (with `*` and `?`) matches the whole of `text`."""
    return _match_bytes(text.encode("utf-8"), pattern.encode("utf-8"))


@lru_cache(maxsize=4096)
def _match_bytes(text: bytes, pattern: bytes) -> bool:
    star, question = ord("*"), ord("?")
    # reachable[i]: the pattern read so far can have consumed exactly text[:i]
    reachable = [True] + [False] * len(text)
    for symbol in pattern:
        if symbol == star:
            seen = False
            for i in range(len(text) + 1):
                seen = seen or reachable[i]
                reachable[i] = seen
        else:
            for i in range(len(text), 0, -1):
                reachable[i] = reachable[i - 1] and (symbol == question or text[i - 1] == symbol)
            reachable[0] = False
    return reachable[len(text)]
