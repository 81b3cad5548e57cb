"""Leaf node base classes: actions and conditions (BT.CPP `action_node.h`, `condition_node.h`)."""
from __future__ import annotations

from typing import Callable

from .errors import LogicError
from .node import NodeConfig, NodeType, TreeNode
from .status import FAILURE, IDLE, RUNNING, SKIPPED, SUCCESS, NodeStatus


class ActionNodeBase(TreeNode):
    """Base of every action leaf."""

    node_type = NodeType.ACTION


class SyncActionNode(ActionNodeBase):
    """An action that finishes within its tick: returning RUNNING is a LogicError."""

    def execute_tick(self) -> NodeStatus:
        status = self.tick()
        if status is SUCCESS or status is FAILURE:
            self.status = status
            return status
        if status is RUNNING:
            raise LogicError(f"SyncActionNode [{self.name}] MUST never return RUNNING")
        return self._unusual_status(status)

    def _tick_checked(self) -> NodeStatus:
        status = self.tick()
        if status is RUNNING:
            raise LogicError(f"SyncActionNode [{self.name}] MUST never return RUNNING")
        return status


class ConditionNode(TreeNode):
    """A leaf that checks something and returns SUCCESS or FAILURE."""

    node_type = NodeType.CONDITION


class SimpleActionNode(SyncActionNode):
    """Wraps a function `fn(node) -> NodeStatus` (factory.register_simple_action)."""

    def __init__(self, name: str, config: NodeConfig | None, tick_functor: Callable[[TreeNode], NodeStatus]):
        super().__init__(name, config)
        self._tick_functor = tick_functor

    def tick(self) -> NodeStatus:
        # As BT.CPP's SimpleActionNode: the function sees the node RUNNING, and a returned
        # SKIPPED is stored (observers and Groot2 see IDLE -> RUNNING -> result).
        if self.status is IDLE:
            self.status = RUNNING
        status = self._tick_functor(self)
        if status is SKIPPED:
            self.status = SKIPPED
        return status

    def execute_tick(self) -> NodeStatus:
        # Inlined tick(): this is the leaf of the 1,111-node benchmark.
        if self.status is IDLE:
            self.status = RUNNING
        status = self._tick_functor(self)
        if status is SUCCESS or status is FAILURE:
            self.status = status
            return status
        if status is RUNNING:
            raise LogicError(f"SyncActionNode [{self.name}] MUST never return RUNNING")
        if status is SKIPPED:
            self.status = SKIPPED
        return self._unusual_status(status)


class SimpleConditionNode(ConditionNode):
    """Wraps a function `fn(node) -> NodeStatus` (factory.register_simple_condition)."""

    def __init__(self, name: str, config: NodeConfig | None, tick_functor: Callable[[TreeNode], NodeStatus]):
        super().__init__(name, config)
        self._tick_functor = tick_functor

    def tick(self) -> NodeStatus:
        return self._tick_functor(self)

    def execute_tick(self) -> NodeStatus:
        status = self._tick_functor(self)
        if status is SUCCESS or status is FAILURE or status is RUNNING:
            self.status = status
            return status
        return self._unusual_status(status)


class StatefulActionNode(ActionNodeBase):
    """An asynchronous action split into on_start / on_running / on_halted.

    on_start() runs on the first tick (status IDLE), on_running() on later ticks while
    RUNNING; halt() calls on_halted() only if the node is RUNNING.
    """

    def on_start(self) -> NodeStatus:
        raise NotImplementedError

    def on_running(self) -> NodeStatus:
        raise NotImplementedError

    def on_halted(self) -> None:
        raise NotImplementedError

    def is_halt_requested(self) -> bool:
        return self._halt_requested

    _halt_requested = False

    def tick(self) -> NodeStatus:
        prev_status = self.status
        if prev_status is IDLE:
            self._halt_requested = False
            status = self.on_start()
            if status is IDLE:
                raise LogicError(f"StatefulActionNode [{self.name}]: on_start() must not return IDLE")
            return status
        if prev_status is RUNNING:
            status = self.on_running()
            if status is IDLE:
                raise LogicError(f"StatefulActionNode [{self.name}]: on_running() must not return IDLE")
            return status
        return prev_status

    def halt(self) -> None:
        self._halt_requested = True
        if self.status is RUNNING:
            self.on_halted()
        self.status = IDLE


class SimpleStatefulActionNode(StatefulActionNode):
    """StatefulActionNode built from three functions (factory.register_simple_stateful_action)."""

    def __init__(self, name: str, config: NodeConfig | None, on_start: Callable, on_running: Callable,
                 on_halted: Callable | None):
        super().__init__(name, config)
        self._on_start, self._on_running, self._on_halted = on_start, on_running, on_halted

    def on_start(self) -> NodeStatus:
        return self._on_start(self)

    def on_running(self) -> NodeStatus:
        return self._on_running(self)

    def on_halted(self) -> None:
        if self._on_halted is not None:
            self._on_halted(self)
