"""Breakpoints and replacements that Groot2 injects into a running tree.

A hook sits in front of one node's tick (BT.CPP's pre-tick callback). When the tree
reaches the node:
- a disabled hook does nothing: the node ticks normally;
- otherwise the hook announces "breakpoint reached" (uid) on the PUB socket, then
  - a BREAKPOINT (mode 0) blocks that tick, in the ticking thread, until Groot2
    unlocks it (or the hook is disabled or removed, which lets the node tick);
  - a REPLACE (mode 1) does not wait;
  and the node returns the hook's `desired_status` instead of ticking when that is
  SUCCESS or FAILURE (SKIPPED means: tick the node as usual).
- a hook marked `once` removes itself after it fired.
Groot2 disables every hook when it stops sending requests (the heartbeat, see
publisher.py), so a tree never stays blocked on a breakpoint nobody watches.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable

from ..status import NodeStatus, status_from_string

BREAKPOINT, REPLACE = 0, 1
PRE, POST = 0, 1


@dataclass
class Hook:
    node_uid: int
    enabled: bool = True
    position: int = PRE
    mode: int = BREAKPOINT
    remove_when_done: bool = False
    desired_status: NodeStatus = NodeStatus.SKIPPED
    ready: bool = False
    condition: threading.Condition = field(default_factory=threading.Condition, repr=False)

    def update_from_json(self, data: dict) -> None:
        """BT.CPP `from_json`: every key is required (KeyError/ValueError otherwise)."""
        enabled, uid, once = bool(data["enabled"]), int(data["uid"]), bool(data["once"])
        mode, position = int(data["mode"]), int(data["position"])
        desired = status_from_string(str(data["desired_status"]))
        self.enabled, self.node_uid, self.remove_when_done = enabled, uid, once
        self.mode, self.position, self.desired_status = mode, position, desired

    def to_json(self) -> dict:
        return {"enabled": self.enabled, "uid": self.node_uid, "mode": self.mode, "once": self.remove_when_done,
                "desired_status": self.desired_status.name, "position": self.position}


class HookTable:
    """The hooks of one tree, keyed by node uid (only PRE hooks exist, as in BT.CPP)."""

    def __init__(self, nodes_by_uid: dict, announce: Callable[[int], None]):
        self._nodes = nodes_by_uid
        self._announce = announce
        self._lock = threading.Lock()
        self._hooks: dict[int, Hook] = {}

    def get(self, position: int, uid: int) -> Hook | None:
        if position != PRE:
            return None
        with self._lock:
            return self._hooks.get(uid)

    def insert_json(self, data: dict) -> None:
        """HOOK_INSERT for one JSON object: update an existing hook or add a new one."""
        uid, position = int(data["uid"]), int(data["position"])
        hook = self.get(position, uid)
        if hook is None:
            hook = Hook(uid)
            hook.update_from_json(data)
            self._insert(hook)
            return
        with hook.condition:
            was_breakpoint = hook.mode == BREAKPOINT
            hook.update_from_json(data)
            if was_breakpoint and hook.mode == REPLACE:
                hook.ready = True
                hook.condition.notify_all()

    def _insert(self, hook: Hook) -> bool:
        node = self._nodes.get(hook.node_uid)
        if node is None:
            return False
        with self._lock:
            self._hooks[hook.node_uid] = hook
        node.set_pre_tick_callback(self._callback_for(hook))
        return True

    def _callback_for(self, hook: Hook):
        def pre_tick(node):
            with hook.condition:
                if not hook.enabled:
                    return NodeStatus.SKIPPED
                self._announce(hook.node_uid)
                if hook.mode == BREAKPOINT:
                    hook.condition.wait_for(lambda: hook.ready or not hook.enabled)
                    hook.ready = False
                    if not hook.enabled:
                        return NodeStatus.SKIPPED
                if hook.remove_when_done:
                    with self._lock:
                        self._hooks.pop(hook.node_uid, None)
                    node.set_pre_tick_callback(None)
                return hook.desired_status
        return pre_tick

    def unlock(self, position: int, uid: int, status: NodeStatus, remove: bool) -> bool:
        if uid not in self._nodes:
            return False
        hook = self.get(position, uid)
        if hook is None:
            return False
        with hook.condition:
            hook.desired_status = status
            hook.remove_when_done |= remove
            if hook.mode == BREAKPOINT:
                hook.ready = True
                hook.condition.notify_all()
        return True

    def remove(self, position: int, uid: int) -> bool:
        node = self._nodes.get(uid)
        hook = self.get(position, uid) if node is not None else None
        if hook is None:
            return False
        with self._lock:
            self._hooks.pop(uid, None)
        node.set_pre_tick_callback(None)
        with hook.condition:
            if hook.mode == BREAKPOINT:
                hook.enabled = False
                hook.condition.notify_all()
        return True

    def remove_all(self) -> None:
        with self._lock:
            uids = list(self._hooks)
        for uid in uids:
            self.remove(PRE, uid)

    def enable_all(self, enable: bool) -> None:
        """Enable or disable every hook; disabling releases blocked breakpoints."""
        with self._lock:
            hooks = list(self._hooks.values())
        for hook in hooks:
            with hook.condition:
                hook.enabled = enable
                if not enable and hook.mode == BREAKPOINT:
                    hook.condition.notify_all()

    def dump(self) -> list[dict]:
        with self._lock:
            return [hook.to_json() for hook in self._hooks.values()]
