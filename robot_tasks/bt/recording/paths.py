"""Names that stay the same when a tree file is edited: node paths and blackboard entry names.

A recording names every node and every blackboard entry, and a replay of an *edited*
copy of the tree must find them again. BT.CPP's full paths (`pick/MoveToPose::7`) carry
the node's UID, which shifts as soon as a node is added above it, so a recording uses
the paths of the tree executor's `tree_status` topic instead (and of the demos'
tree_status.log): the tree ID, then every name from the root down,

    FrankaStacking/franka_stacking/survey_retry/survey/InitStacking

(a SubTree node is a step of the path, its tree's root the next). Two siblings with the
same name are told apart by their order: the second is `name#2`.

An entry is named after the blackboard that owns it: the main tree's entries by their
key (`cube`), an entry private to a SubTree instance by that SubTree node's path and the
key (`FrankaStacking/.../PickCube:_attempt`). An entry a SubTree shares with its parent
(remapped, or `_autoremap`) is one entry and has the parent's name.
"""
from __future__ import annotations

from ..blackboard import Blackboard, Entry
from ..node import NodeType, TreeNode
from ..tree import Tree


def children_of(node: TreeNode) -> list[TreeNode]:
    """A control node's children, a decorator's (or SubTree's) child, a leaf's nothing."""
    children = getattr(node, "children", None)
    if children:
        return list(children)
    child = getattr(node, "child", None)
    return [child] if child is not None else []


def is_leaf(node: TreeNode) -> bool:
    return node.node_type in (NodeType.ACTION, NodeType.CONDITION) and not children_of(node)


def node_paths(tree: Tree, tree_id: str | None = None) -> dict[int, str]:
    """uid -> stable path of every node reachable from the root (see the module docstring),
    starting with `tree_id` (default: the main tree's ID)."""
    paths: dict[int, str] = {}
    root = tree.root_node
    if root is None:
        return paths
    stack = [(root, f"{tree_id or tree.subtrees[0].tree_id}/{root.name}")]
    while stack:
        node, path = stack.pop()
        paths[node.uid] = path
        seen: dict[str, int] = {}
        named = []
        for child in children_of(node):
            count = seen[child.name] = seen.get(child.name, 0) + 1
            named.append((child, f"{path}/{child.name}" + (f"#{count}" if count > 1 else "")))
        stack.extend(reversed(named))
    return paths


def board_prefixes(tree: Tree, paths: dict[int, str]) -> list[tuple[Blackboard, str]]:
    """(blackboard, name prefix) for the main tree's board ("") and each SubTree instance's
    board ("<SubTree node path>:"), in the order entries are named (parents first)."""
    boards: list[tuple[Blackboard, str]] = []
    root_board = tree.root_blackboard
    if root_board is not None:
        boards.append((root_board, ""))
    known = {id(root_board)}
    for node in tree.nodes:
        if node.node_type is not NodeType.SUBTREE or node.uid not in paths:
            continue
        child = getattr(node, "child", None)
        board = child.config.blackboard if child is not None else None
        if board is not None and id(board) not in known:
            known.add(id(board))
            boards.append((board, f"{paths[node.uid]}:"))
    return boards


def entry_names(boards: list[tuple[Blackboard, str]]) -> list[tuple[Entry, str]]:
    """(entry, name) of every entry on the boards, each entry once, named by its owner."""
    named: dict[int, tuple[Entry, str]] = {}
    for board, prefix in boards:
        for key, entry in list(board._storage.items()):
            if id(entry) not in named:
                named[id(entry)] = (entry, prefix + key)
    return list(named.values())
