"""The BLACKBOARD reply: chosen blackboards as MessagePack (BT.CPP 4.10 `generateBlackboardsDump`).

Groot2 names the blackboards it wants in one frame, separated by `;`. A name is a
subtree instance name (the main tree by its ID). The reply is MessagePack of
`{name: {key: value}}`, each blackboard exported as `ExportBlackboardToJSON` does
(`robot_tasks.bt.blackboard_json`: the keys that blackboard owns; a bool is sent as
1/0; a value JSON cannot hold is nil; an empty blackboard is nil).

**ROOT** (new in 4.10): when a named blackboard has a parent -- every SubTree's
does, and so does the main tree's when the tree was created on a child of a global
blackboard -- the top of its chain is exported too, once, as `"ROOT"`, so Groot2
shows the `@` entries. A request that would make that ambiguous is refused with
BT.CPP's error text: a subtree literally named ROOT alongside a root export, or
blackboards with different roots. No blackboard found at all gives nil.
"""
from __future__ import annotations

from ..blackboard_json import export_blackboard_to_json, value_to_json
from ..errors import BehaviorTreeError

ROOT_NAME = "ROOT"


class DumpRefused(BehaviorTreeError):
    """The request cannot be answered unambiguously; the message is BT.CPP's error reply."""


def json_value(value):
    """One value as the dump sends it (kept for callers of the old helper)."""
    return value_to_json(value)


def blackboard_json(board) -> dict | None:
    dump = export_blackboard_to_json(board)
    return dump or None


def blackboards_dict(boards_by_name: dict, names: list[str]) -> dict | None:
    """{name: export} for the named blackboards, plus ROOT as BT.CPP 4.10 adds it."""
    dump: dict = {}
    exported_root = None
    for name in names:
        board = boards_by_name.get(name)
        if board is None:
            continue
        root = board.root()
        needs_root = root is not board
        if name == ROOT_NAME and (needs_root or exported_root is not None):
            raise DumpRefused("blackboard dump request uses reserved name [ROOT] together with an "
                              "external root blackboard export")
        dump[name] = blackboard_json(board)
        if not needs_root or root is exported_root:
            continue
        if exported_root is not None:
            raise DumpRefused("blackboard dump request spans multiple external root blackboards")
        if ROOT_NAME in dump:
            raise DumpRefused("blackboard dump request would overwrite subtree [ROOT] with an external "
                              "root blackboard export")
        dump[ROOT_NAME] = blackboard_json(root)
        exported_root = root
    return dump or None


def blackboards_dump(boards_by_name: dict, names_frame: bytes) -> bytes:
    """The MessagePack payload; raises DumpRefused (sent as an error reply)."""
    import msgpack

    names = [name for name in names_frame.decode("utf-8", "replace").split(";") if name]
    return msgpack.packb(blackboards_dict(boards_by_name, names), use_bin_type=True)
