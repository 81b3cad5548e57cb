"""Run a tree file with mocked leaves and record what happened (no ROS, no robot).

The steps, each usable alone:

1. `create_tree_with_mocks(factory, path)` -- the factory already holds the
   substitution rules (and any real node types you want to keep). Node types the
   file uses but nobody registered get stand-ins (`stand_ins.py`); after the rules
   are applied, a stand-in still reachable from the root means a leaf was neither
   registered nor mocked: `UnmockedNodesError` lists them all, so you know what to mock.
2. `MockRun(tree).run(max_ticks)` -- ticks like `tick_while_running` (a timer's
   wake-up ends the wait between ticks early), but bounded by a tick count and a
   time limit, and records every status change as a `Transition`.
3. Ask the run what happened: `status`, `visited` (names of the nodes that left IDLE,
   in that order), `statuses("approach")` (what one node went through), `count(...)`.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from ..errors import BehaviorTreeError
from ..node import TreeNode
from ..status import IDLE, RUNNING, NodeStatus
from ..tree import Tree
from ..xml.placeholders import is_placeholder
from .stand_ins import register_stand_ins


class UnmockedNodesError(BehaviorTreeError):
    """Nodes of the tree that are neither registered nor mocked; `nodes` lists them."""

    def __init__(self, nodes: list[TreeNode]):
        self.nodes = nodes
        by_id: dict[str, list[str]] = {}
        for node in nodes:
            by_id.setdefault(node.registration_id, []).append(node.full_path)
        lines = [f"  {type_id}: {', '.join(paths[:6])}{' ...' if len(paths) > 6 else ''}"
                 for type_id, paths in sorted(by_id.items())]
        super().__init__(f"{len(nodes)} node(s) of {len(by_id)} type(s) are neither registered nor mocked; "
                         f"mock them (a rule for a name, a type ID or a path pattern) or register their "
                         f"type (a plugin):\n" + "\n".join(lines))


def reachable_nodes(tree: Tree) -> Iterator[TreeNode]:
    """The nodes a tick can reach: children of replaced nodes and of replaced SubTrees are left out."""
    stack = [tree.root_node] if tree.root_node is not None else []
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(getattr(node, "children", None) or []))  # a decorator's is [child]


def create_tree_with_mocks(factory, path: str | Path, tree_id: str | None = None, blackboard=None) -> Tree:
    """The tree of `path` with the factory's substitution rules applied (see module docstring)."""
    from ..xml.parser import XmlParser

    register_stand_ins(factory, path)
    parser = XmlParser(factory, placeholders=True)
    parser.load_from_file(path)
    tree = parser.instantiate_tree(blackboard, tree_id)
    missing = [node for node in reachable_nodes(tree) if is_placeholder(node) and node.substituted_by is None]
    if missing:
        raise UnmockedNodesError(missing)
    return tree


@dataclass(frozen=True)
class Transition:
    """One status change: seconds since the run started, the node, and the change."""

    time_s: float
    uid: int
    path: str
    name: str
    registration_id: str
    previous: NodeStatus
    status: NodeStatus

    def __str__(self) -> str:
        return f"{self.time_s:8.3f}  {self.path:<40} {self.previous.name} -> {self.status.name}"


class MockRun:
    """Ticks one tree to the end and keeps its status changes."""

    def __init__(self, tree: Tree, on_transition: Callable[[Transition], None] | None = None):
        self.tree = tree
        self.on_transition = on_transition
        self.transitions: list[Transition] = []
        self.status = IDLE
        self.ticks = 0
        self.elapsed_s = 0.0
        self.timed_out = False
        self._start = time.monotonic()

    def _record(self, node, previous, status) -> None:
        change = Transition(time.monotonic() - self._start, node.uid, node.full_path, node.name,
                            node.registration_id, previous, status)
        self.transitions.append(change)
        if self.on_transition is not None:
            self.on_transition(change)

    def run(self, max_ticks: int = 1000, max_seconds: float = 60.0, tick_period_s: float = 0.01) -> NodeStatus:
        """Tick until the root is not RUNNING, `max_ticks` ticks were made or
        `max_seconds` passed (then the tree is halted and the status is RUNNING)."""
        if max_ticks < 1:
            raise BehaviorTreeError(f"max_ticks must be at least 1, not {max_ticks}")
        subscription = self.tree.subscribe_status_changes(self._record)
        self._start = time.monotonic()
        deadline = self._start + max_seconds
        try:
            status = self.tree.tick_once()
            self.ticks = 1
            while status is RUNNING and self.ticks < max_ticks and time.monotonic() < deadline:
                self.tree.sleep(tick_period_s)
                status = self.tree.tick_once()
                self.ticks += 1
            if status is RUNNING:
                self.timed_out = True
                self.tree.halt_tree()
        finally:
            subscription.unsubscribe()
        self.status = status
        self.elapsed_s = time.monotonic() - self._start
        return status

    # ---- what happened -----------------------------------------------------------------
    def _is(self, change: Transition, node: str) -> bool:
        return change.name == node or change.path == node

    @property
    def visited(self) -> list[str]:
        """Names of the nodes that left IDLE, each once, in the order they first did."""
        return list(dict.fromkeys(c.name for c in self.transitions if c.previous is IDLE))

    @property
    def visited_paths(self) -> list[str]:
        return list(dict.fromkeys(c.path for c in self.transitions if c.previous is IDLE))

    def statuses(self, node: str) -> list[NodeStatus]:
        """The statuses a node (name or full path) went into, IDLE resets left out."""
        return [c.status for c in self.transitions if self._is(c, node) and c.status is not IDLE]

    def count(self, node: str, status: NodeStatus | None = None) -> int:
        """How often a node entered `status` (any status but IDLE, when None)."""
        return sum(1 for s in self.statuses(node) if status is None or s is status)

    def halted(self, node: str) -> int:
        """How often a node went from RUNNING straight back to IDLE (was halted)."""
        return sum(1 for c in self.transitions if self._is(c, node) and c.previous is RUNNING and c.status is IDLE)

    @property
    def blackboard(self):
        return self.tree.root_blackboard
