"""ReplayLeaf: a leaf that does again what the recorded leaf did, call by call.

In a replay every leaf that touched the world (a ROS action, a topic, a camera, the
task's Python code, a Sleep) is replaced by a ReplayLeaf, the way a substitution rule
replaces a node by a TestNode (`robot_tasks.bt.testing`): same name, path, ports and
blackboard, registration ID kept, `substituted_by = "replay"`. Its script is the
leaf's recorded calls (`LeafCalls`): at its n-th call (ticks and halts counted
together, as the recorder counts them) it

- finds the recorded call n, if there is one: writes what the leaf wrote (same
  values, same entries: through the same output port when the tree still maps it),
  then returns the recorded status, or raises the recorded error, or -- for a halt --
  takes the status the halt left;
- otherwise repeats what it returned at its previous tick (the recorder left out
  repeated ticks) or, for a halt, changes nothing.

A call that was a tick in the run but is a halt in the replay (or the reverse), and a
leaf that never ran in the run, raise `ReplayMismatch`: the replay stops there and
says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..action_nodes import ActionNodeBase, ConditionNode
from ..errors import RuntimeTreeError
from ..node import NodeConfig
from ..status import NodeStatus
from .recorder import SinkStop


class ReplayMismatch(SinkStop):
    """A leaf was called in a way the recording does not have; `reason` says how."""

    def __init__(self, reason: str, path: str):
        super().__init__(reason)
        self.reason = reason
        self.path = path


class ReplayedLeafError(RuntimeTreeError):
    """The error a leaf raised in the recorded run ("Type: message"), raised again by its ReplayLeaf."""

    def __init__(self, recorded_text: str):
        super().__init__(f"(replayed) {recorded_text}")
        self.recorded_text = recorded_text


@dataclass
class Write:
    """One recorded write of a leaf call, its value decoded."""

    entry: str
    value: Any = None
    port: str | None = None
    times: int = 1
    unset: bool = False


@dataclass
class Call:
    """One recorded leaf call: a tick (`returned` or `raised`) or a halt (`halted`)."""

    number: int
    kind: str            # "returned" | "raised" | "halted"
    result: str          # the status name, or the error text
    writes: list[Write] = field(default_factory=list)
    set_status: str | None = None   # the status the leaf set itself to inside the tick


class LeafCalls:
    """The recorded calls of one leaf, by call number, and what it was (`given`: its type
    and port texts in the run, from the header's `leaves`; None when not recorded)."""

    def __init__(self, path: str, calls: list[Call] | None = None, given: dict | None = None):
        self.path = path
        self.calls = {call.number: call for call in calls or []}
        self.given = given

    def __len__(self) -> int:
        return len(self.calls)


WriteFn = Callable[["ReplayLeafMixin", list[Write]], None]


class ReplayLeafMixin:
    """The behaviour shared by ReplayAction and ReplayCondition (see the module docstring)."""

    def _init_replay(self) -> None:
        self.script: LeafCalls | None = None
        self.write_fn: WriteFn | None = None
        self.calls = 0
        self.last: NodeStatus | None = None
        self.substituted_by = "replay"

    def bind(self, script: LeafCalls, write_fn: WriteFn) -> None:
        self.script, self.write_fn = script, write_fn

    def _next(self, kind: str) -> Call | None:
        self.calls += 1
        script = self.script
        if script is None or not script.calls:
            if kind == "halt":
                return None  # halting a leaf that never ran changes nothing
            raise ReplayMismatch(f"leaf {self._path()} never ran in the recorded run: there is no recorded "
                                 f"behaviour to replay", self._path())
        if self.calls == 1 and kind == "tick":
            self._check_given()
        call = script.calls.get(self.calls)
        if call is None:
            return None
        if (call.kind == "halted") != (kind == "halt"):
            was = "a halt" if call.kind == "halted" else "a tick"
            raise ReplayMismatch(f"leaf {self._path()}: its call {self.calls} was {was} in the recorded run, "
                                 f"{'a halt' if kind == 'halt' else 'a tick'} in the replay", self._path())
        if call.writes:
            self.write_fn(self, call.writes)
        return call

    def _check_given(self) -> None:
        """The recorded behaviour holds only for the same leaf with the same ports."""
        from .header import port_texts

        given = self.script.given
        if given is None:
            return
        if given.get("type") != self.registration_id:
            raise ReplayMismatch(f"leaf {self._path()} is a {self.registration_id} here, a {given.get('type')} in "
                                 f"the recorded run", self._path())
        now, then = port_texts(self), given.get("ports") or {}
        changed = [f"{name}: {then.get(name, '(unset)')!r} in the run, {now.get(name, '(unset)')!r} here"
                   for name in sorted(set(now) | set(then)) if now.get(name) != then.get(name)]
        if changed:
            raise ReplayMismatch(f"leaf {self._path()} is given other ports than in the recorded run "
                                 f"({'; '.join(changed)}): its recorded behaviour does not apply", self._path())

    def _path(self) -> str:
        return self.script.path if self.script is not None else self.full_path

    def tick(self) -> NodeStatus:
        call = self._next("tick")
        if call is None:
            if self.last is None:
                raise ReplayMismatch(f"leaf {self._path()}: tick {self.calls} comes before any recorded tick",
                                     self._path())
            return self.last
        if call.set_status is not None:
            self.status = NodeStatus[call.set_status]
        if call.kind == "raised":
            raise ReplayedLeafError(call.result)
        self.last = NodeStatus[call.result]
        return self.last

    def halt(self) -> None:
        call = self._next("halt")
        if call is not None:
            self.status = NodeStatus[call.result]


class ReplayAction(ReplayLeafMixin, ActionNodeBase):
    def __init__(self, name: str, config: NodeConfig | None = None):
        ActionNodeBase.__init__(self, name, config)
        self._init_replay()


class ReplayCondition(ReplayLeafMixin, ConditionNode):
    def __init__(self, name: str, config: NodeConfig | None = None):
        ConditionNode.__init__(self, name, config)
        self._init_replay()
