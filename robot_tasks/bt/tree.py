"""Tree: the instantiated nodes, their blackboards, and the tick loop (BT.CPP `Tree`)."""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from . import observers as _observers
from .blackboard import Blackboard
from .errors import RuntimeTreeError
from .node import TreeNode
from .status import FAILURE, IDLE, RUNNING, SUCCESS, NodeStatus
from .wakeup import WakeUpSignal

_EXACTLY_ONCE, _ONCE_UNLESS_WOKEN_UP, _WHILE_RUNNING = 0, 1, 2


@dataclass
class Subtree:
    """One instance of a BehaviorTree inside the tree (the main one is first)."""

    tree_id: str
    instance_name: str
    blackboard: Blackboard
    nodes: list[TreeNode] = field(default_factory=list)


class Tree:
    """An instantiated tree. Create it with `BehaviorTreeFactory.create_tree*`.

    `nodes` lists every node in creation order (node.uid = index + 1), which is a
    pre-order walk through the main tree and its subtrees.
    """

    def __init__(self) -> None:
        self.subtrees: list[Subtree] = []
        self.nodes: list[TreeNode] = []
        self.wake_up = WakeUpSignal()
        self.manifests: dict[str, Any] = {}
        self._status_observers: list[_observers.StatusCallback] = []
        # Serialises root ticks and halts, so halt_tree() may be called from another
        # thread (e.g. a ROS cancel callback); never held while sleeping.
        self._lock = threading.RLock()
        self._observed_classes = _observers.ObservedClasses(self._status_observers)

    # ---- structure -------------------------------------------------------------------
    @property
    def root_node(self) -> TreeNode | None:
        return self.subtrees[0].nodes[0] if self.subtrees and self.subtrees[0].nodes else None

    @property
    def root_blackboard(self) -> Blackboard | None:
        return self.subtrees[0].blackboard if self.subtrees else None

    def get_node_by_uid(self, uid: int) -> TreeNode:
        return self.nodes[uid - 1]

    def find_nodes(self, name: str) -> list[TreeNode]:
        """Nodes whose name (or full path) equals `name`."""
        return [node for node in self.nodes if node.name == name or node.full_path == name]

    def apply_visitor(self, visitor: Callable[[TreeNode], None]) -> None:
        for node in list(self.nodes):
            visitor(node)

    def __iter__(self) -> Iterator[TreeNode]:
        return iter(self.nodes)

    # ---- ticking ---------------------------------------------------------------------
    def tick_exactly_once(self) -> NodeStatus:
        """Tick the root once, even if a node asked to be woken up."""
        return self._tick_root(_EXACTLY_ONCE, 0.0)

    def tick_once(self) -> NodeStatus:
        """Tick the root; while it is RUNNING and some node emitted wake-up, tick again."""
        return self._tick_root(_ONCE_UNLESS_WOKEN_UP, 0.0)

    def tick_while_running(self, sleep_s: float = 0.01) -> NodeStatus:
        """Tick until the root is no longer RUNNING. Between ticks it waits up to
        `sleep_s` seconds, returning early when a node emits wake-up (timers do)."""
        return self._tick_root(_WHILE_RUNNING, sleep_s)

    def _tick_root(self, option: int, sleep_s: float) -> NodeStatus:
        root = self.root_node
        if root is None:
            raise RuntimeTreeError("Empty Tree")
        wake_up = self.wake_up
        lock = self._lock
        status = IDLE
        while status is IDLE or (option == _WHILE_RUNNING and status is RUNNING):
            with lock:
                status = root.execute_tick()
                # a node that yielded RUNNING asked to be ticked again at once
                while option != _EXACTLY_ONCE and status is RUNNING and wake_up.wait_for(0.0):
                    status = root.execute_tick()
                if status is SUCCESS or status is FAILURE:
                    root.status = IDLE
            if status is RUNNING and sleep_s > 0:
                # only this wait consumes a pending wake-up; with tick_once and
                # tick_exactly_once a signal emitted now is seen by the next call
                wake_up.wait_for(sleep_s)
        return status

    def sleep(self, seconds: float) -> bool:
        """Sleep up to `seconds`, waking early on a wake-up signal (returned as True)."""
        return self.wake_up.wait_for(seconds)

    def halt_tree(self) -> None:
        """Halt every node (running ones through their parents, then all of them, as
        BT.CPP does) and reset the root to IDLE."""
        root = self.root_node
        if root is None:
            return
        with self._lock:
            root.halt_node()
            for node in list(self.nodes):
                node.halt_node()
            root.status = IDLE

    # ---- observation -----------------------------------------------------------------
    def subscribe_status_changes(self, callback: _observers.StatusCallback) -> _observers.Subscription:
        """Call `callback(node, previous_status, new_status)` on every status change of
        every node, in the thread that changed it. Free when nobody subscribes."""
        first = not self._status_observers
        self._status_observers.append(callback)
        if first:
            for node in self.nodes:
                self._observed_classes.attach(node)
        return _observers.Subscription(self, callback)

    def _remove_status_observer(self, callback) -> None:
        try:
            self._status_observers.remove(callback)
        except ValueError:
            return
        if not self._status_observers:
            for node in self.nodes:
                self._observed_classes.detach(node)

    def __repr__(self) -> str:
        root = self.root_node
        return f"<Tree root={root.name if root else None!r} nodes={len(self.nodes)}>"
