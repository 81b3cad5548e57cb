"""The BLACKBOARD reply: chosen blackboards as MessagePack (BT.CPP `generateBlackboardsDump`).

Groot2 names the blackboards it wants in one frame, separated by `;`. A name is a
subtree instance name (the main tree by its ID). The reply is MessagePack of
`{name: {key: value}}` over the keys that blackboard owns (a key remapped to the
parent shows up in the parent's dump only). Values that JSON can
hold (numbers, strings, booleans, lists and dicts of those) are sent as they are;
an empty entry, or a value of another type, is sent as nil, as BT.CPP does for
types it has no JSON converter for. No blackboard found at all gives nil.
"""
from __future__ import annotations

from ..blackboard import EMPTY


def json_value(value):
    if value is EMPTY or value is None:
        return None
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        items = [json_value(item) for item in value]
        return None if any(item is None and original is not None
                           for item, original in zip(items, value)) else items
    if isinstance(value, dict) and all(isinstance(key, str) for key in value):
        return {key: json_value(item) for key, item in value.items()}
    return None


def owned_entries(board):
    """(key, entry) for the entries that belong to `board`: a key remapped or
    autoremapped to the parent is the parent's entry and is listed there, as in BT.CPP."""
    parent = board.parent
    remappings = board.remappings
    for key in board.keys():
        entry = board.get_entry(key)
        if entry is None:
            continue
        if parent is not None and parent.get_entry(remappings.get(key, key)) is entry:
            continue
        yield key, entry


def blackboard_json(board) -> dict | None:
    dump = {key: json_value(entry.value) for key, entry in owned_entries(board)}
    return dump or None


def blackboards_dump(boards_by_name: dict, names_frame: bytes) -> bytes:
    import msgpack

    names = [name for name in names_frame.decode("utf-8", "replace").split(";") if name]
    dump = {name: blackboard_json(boards_by_name[name]) for name in names if name in boards_by_name}
    return msgpack.packb(dump or None, use_bin_type=True)
