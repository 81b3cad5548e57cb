"""Which names BT.CPP 4.10 accepts for tree IDs and model ports.

BT.CPP 4.10 (with Groot2) checks names against a blacklist, so Unicode names work
while names that would break XML, file paths or path-like lookups are refused:
whitespace, control characters, the XML specials `< > & " '`, the separators
`/ \\ :`, the wildcards `* ? |` and the period `.`.
- a tree ID (model name) must be non-empty, free of those characters and not
  `Root`/`root`;
- a port name must be non-empty, not start with a digit, be free of those
  characters and not be a reserved attribute (`name`, `ID`, the pre/post
  conditions, `_autoremap`, `_description`).
"""
from __future__ import annotations

from ..ports import RESERVED_ATTRIBUTES

FORBIDDEN_CHARACTERS = frozenset(" \t\n\r<>&\"'/\\:*?|.")
RESERVED_TREE_IDS = frozenset(("Root", "root"))


def forbidden_character(name: str) -> str | None:
    """The first character of `name` that BT.CPP 4.10 forbids in a model/port name."""
    for char in name:
        if char in FORBIDDEN_CHARACTERS or ord(char) < 32 or ord(char) == 127:
            return char
    return None


def tree_id_problem(tree_id: str) -> str | None:
    """Why `tree_id` is not a valid BehaviorTree ID, or None when it is."""
    if not tree_id:
        return "it is empty"
    if tree_id in RESERVED_TREE_IDS:
        return f"[{tree_id}] is reserved"
    char = forbidden_character(tree_id)
    if char is not None:
        return f"it contains the forbidden character {char!r}"
    return None


def port_name_problem(name: str) -> str | None:
    """Why `name` is not a valid port name for a model, or None when it is."""
    if not name:
        return "it is empty"
    if name[0].isdigit():
        return "it starts with a digit"
    if name in RESERVED_ATTRIBUTES or name == "_description":
        return "it is a reserved attribute"
    char = forbidden_character(name)
    if char is not None:
        return f"it contains the forbidden character {char!r}"
    return None
