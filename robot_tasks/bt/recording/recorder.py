"""TreeRecorder: what every node of a running tree did, tick by tick, as a stream of events.

Attach it to a tree before the first tick; it hands each event (a small dict) to a
`sink` in the order things happened. The same recorder watches the replayed tree in
`robot-tasks replay`, so a run and its replay produce streams that can be compared
event by event.

The events (what `RecordingWriter` writes one per line):

    {"tick": 12, "t": 41.25}                      tick 12 starts (t: the caller's clock, s)
    {"node": "Main/seq/move", "was": "IDLE", "status": "RUNNING"}     any node's status change
    {"leaf": "Main/seq/detect", "call": 3, "returned": "SUCCESS",
     "writes": [{"entry": "objects", "port": "objects", "value": [...]}]}
    {"leaf": "Main/seq/move", "call": 9, "halted": "IDLE"}           a halt that changed something
    {"leaf": "Main/seq/move", "call": 2, "raised": "RuntimeError: ..."}
    {"write": "attempts", "value": 2}             a write made outside any leaf (a `_post`
                                                  script, a LoopInt's output ...)
    {"unset": "tmp"}                              an entry removed (UnsetBlackboard)
    {"timer": "Main/seq/timeout", "calls": 812}   a Timeout/Delay timer fired here, after the
                                                  812th leaf call of the run (the replay fires
                                                  it at the same point)
    {"halt_tree": true}                           the executor halted the whole tree
    {"end": true, "ticks": 1220}                  the recording is complete

A **leaf call** is one call of a leaf's `tick()` or `halt()`; `call` counts them per
leaf (ticks and halts together). To keep the stream small, a tick is written only when
the leaf returned something else than at its previous tick, wrote something, or
raised; a leaf RUNNING for 300 ticks is two events, not 300. A halt is written when it
changed the leaf's status or wrote. A leaf's own status changes *during* its call
(SimpleActionNode shows itself RUNNING inside its tick) belong to the call: they are
not status events, the call's `"set": "RUNNING"` says where the call left the status
before the tick stored the result.

A write names the entry (`paths.py`), the output port it went through when it was
one of the leaf's, and the value (`values.encode`); `"same": true` instead of a value
means the same value as that entry's previous write in the stream, and `"times": 2`
that the entry was written twice in the call (only the last value is kept).

Recording must never stop a run: if the sink fails, the recorder reports it once
through `on_problem` and stops recording.
"""
from __future__ import annotations

import threading
from typing import Any, Callable

from ..status import NodeStatus
from ..tree import Tree
from .paths import board_prefixes, is_leaf, node_paths
from .timers import RecordingTimers
from .values import encode
from .writes import EntryWatch

_IMMUTABLE = (str, bytes, int, float, bool, type(None))
# status -> name, looked up by id(): Enum's .name and its __hash__ are Python functions (hot path)
_NAMES = {id(status): status.name for status in NodeStatus}
Sink = Callable[[dict], None]


class SinkStop(Exception):
    """Raised by a sink that wants the tree to stop (a replay's divergence or breakpoint):
    the recorder lets it through instead of swallowing it as a broken sink."""


class _Leaf:
    __slots__ = ("node", "path", "calls", "last", "ports")

    def __init__(self, node, path: str, ports: dict[int, str]):
        self.node = node
        self.path = path
        self.calls = 0
        self.last: Any = None
        self.ports = ports  # id(entry) -> output port name


class TreeRecorder:
    """Records one tree; see the module docstring. `close()` ends it (and detaches)."""

    def __init__(self, tree: Tree, sink: Sink, on_problem: Callable[[str], None] = print):
        self.tree = tree
        self.sink = sink
        self.on_problem = on_problem
        self.paths = node_paths(tree)
        self.watch = EntryWatch(board_prefixes(tree, self.paths))
        self.tick = 0
        self.calls = 0               # leaf calls so far, all leaves: where a timer fired between them
        self.before_call: Callable[[], None] | None = None   # a replay fires due timers here
        self.closed = False
        self._broken = False
        self._inside = None          # the leaf whose call is running (its own status changes are the call's)
        self._lock = threading.RLock()
        self._last_value: dict[str, Any] = {}
        self._last_encoded: dict[str, Any] = {}
        self._leaves: list[_Leaf] = []
        self._restore: list[Callable[[], None]] = []
        for node in tree.nodes:
            if node.uid not in self.paths:
                continue
            if is_leaf(node):
                self._wrap_leaf(node, self.paths[node.uid])
            else:
                self._wrap_timers(node)
        self._wrap_halt_tree()
        # can anything but a leaf's call write? (a _post script, a LoopInt's output ...) If not,
        # a status change needs no look at the blackboard (the common case, and the hot path)
        self._tree_writes = any(node.config.pre_conditions or node.config.post_conditions
                                or (node.config.output_ports and not is_leaf(node))
                                for node in tree.nodes if node.uid in self.paths)
        self._subscription = tree.subscribe_status_changes(self._on_status)
        self.watch.sync()

    # ---- what the caller drives ------------------------------------------------------
    def begin_tick(self, tick: int, t: float | None = None) -> None:
        """Tick `tick` starts now (`t`: the caller's clock in seconds, e.g. ROS time)."""
        self.tick = tick
        event: dict = {"tick": tick}
        if t is not None:
            event["t"] = round(t, 4)
        self._emit(event)

    def close(self, **end: Any) -> None:
        """Write the end event (with `end`'s extra fields) and detach from the tree."""
        if self.closed:
            return
        self._emit({"end": True, "ticks": self.tick, **end})
        self.detach()

    def detach(self) -> None:
        """Stop recording and give the tree its own hooks back (no end event)."""
        self.closed = True
        self._subscription.unsubscribe()
        for undo in reversed(self._restore):
            undo()
        self._restore = []

    # ---- hooks -------------------------------------------------------------------------
    def _wrap_leaf(self, node, path: str) -> None:
        leaf = _Leaf(node, path, self._output_ports(node))
        self._leaves.append(leaf)
        own = node.__dict__
        previous_tick, previous_halt = own.get("tick"), own.get("halt")
        original_tick, original_halt = node.tick, node.halt
        state = own   # the status is an instance attribute, observed or not: read it without the property

        def enter():
            """What every call into the leaf starts with: the caller's hook, the pending
            writes flushed, the call counted, the leaf marked as the one inside; returns
            the leaf's status before the call."""
            if self.before_call is not None:
                self.before_call()
            self._flush()
            self.calls += 1
            leaf.calls += 1
            self._inside = node
            return state["status"]

        def tick():
            before = enter()
            try:
                status = original_tick()
            except SinkStop:
                self._inside = None
                raise
            except BaseException as exc:
                self._inside = None
                # a ReplayLeaf raises again what the run's leaf raised: its text is the recorded one
                text = getattr(exc, "recorded_text", None) or f"{type(exc).__name__}: {exc}"
                inside = state["status"]
                self._leaf_event(leaf, "raised", text,
                                 status_set=None if inside is before else _NAMES.get(id(inside)))
                raise
            self._inside = None
            inside = state["status"]   # a leaf that shows itself RUNNING inside its tick (SimpleActionNode)
            repeated = status is leaf.last and inside is before
            leaf.last = status
            self._leaf_event(leaf, "returned", _NAMES.get(id(status)) or repr(status), only_if_written=repeated,
                             status_set=None if inside is before else _NAMES.get(id(inside)))
            return status

        def halt():
            before = enter()
            try:
                original_halt()
            finally:
                self._inside = None
            after = state["status"]
            self._leaf_event(leaf, "halted", _NAMES.get(id(after)) or repr(after), only_if_written=after is before)

        node.tick, node.halt = tick, halt
        node._choose_tick_path()

        def undo():
            for attribute, previous in (("tick", previous_tick), ("halt", previous_halt)):
                if previous is None:
                    node.__dict__.pop(attribute, None)
                else:
                    setattr(node, attribute, previous)
            node._choose_tick_path()
        self._restore.append(undo)

    def _output_ports(self, node) -> dict[int, str]:
        from ..ports import blackboard_key

        ports = {}
        for name, text in node.config.output_ports.items():
            key = blackboard_key(text, name) if isinstance(text, str) else None
            entry = node.config.blackboard.get_entry(key) if key else None
            if entry is not None:
                ports[id(entry)] = name
        return ports

    def _wrap_timers(self, node) -> None:
        had_own = "timer_queue" in node.__dict__
        original = node.timer_queue
        path = self.paths[node.uid]
        node.timer_queue = lambda: RecordingTimers(original(), lambda: self._emit({"timer": path,
                                                                                   "calls": self.calls}))
        self._restore.append(lambda: setattr(node, "timer_queue", original) if had_own
                             else node.__dict__.pop("timer_queue", None))

    def _wrap_halt_tree(self) -> None:
        tree = self.tree
        original = tree.halt_tree

        def halt_tree():
            self._emit({"halt_tree": True})
            original()
        tree.halt_tree = halt_tree
        self._restore.append(lambda: tree.__dict__.pop("halt_tree", None))

    def _on_status(self, node, previous: NodeStatus, new: NodeStatus) -> None:
        if node is self._inside:
            return
        path = self.paths.get(node.uid)
        if path is None:
            return  # not reachable from the root (under a node a substitution made a leaf)
        self._emit({"node": path, "was": _NAMES.get(id(previous), previous), "status": _NAMES.get(id(new), new)},
                   look=self._tree_writes)

    # ---- events ------------------------------------------------------------------------
    def _leaf_event(self, leaf: _Leaf, field: str, value: str, only_if_written: bool = False,
                    status_set: str | None = None) -> None:
        with self._lock:
            if self._broken:
                return
            written, removed = self.watch.changes()
            if only_if_written and not written and not removed:
                return
            event = {"leaf": leaf.path, "call": leaf.calls, field: value}
            if status_set is not None:
                event["set"] = status_set
            if written or removed:
                event["writes"] = [self._write_item(name, entry, times, leaf.ports.get(id(entry)))
                                   for name, entry, times in written] + [{"entry": n, "unset": True}
                                                                          for n in removed]
            self._send(event)

    def _flush(self) -> None:
        """Writes made since the last event, outside any leaf call, become events."""
        with self._lock:
            if self._broken:
                return
            written, removed = self.watch.changes()
            for name, entry, times in written:
                item = self._write_item(name, entry, times, None)
                item.pop("entry")
                self._send({"write": name, **item})
            for name in removed:
                self._send({"unset": name})

    def _emit(self, event: dict, look: bool = True) -> None:
        """Send `event`, after the writes made since the last event (`look`: check for them)."""
        with self._lock:
            if self._broken or self.closed:
                return
            if look and self.watch.dirty():
                self._flush()
            self._send(event)

    def _send(self, event: dict) -> None:
        try:
            self.sink(event)
        except SinkStop:
            raise
        except Exception as exc:  # noqa: BLE001 - a broken recording must not break the run
            self._broken = True
            self.on_problem(f"recording stopped at tick {self.tick}: {type(exc).__name__}: {exc}")

    def _write_item(self, name: str, entry, times: int, port: str | None) -> dict:
        value = entry.value
        item: dict = {"entry": name}
        if port is not None:
            item["port"] = port
        last = self._last_value.get(name, _NOTHING)
        if value is last and type(value) in _IMMUTABLE:
            item["same"] = True
        else:
            encoded = _encode_safe(value)
            if name in self._last_encoded and self._last_encoded[name] == encoded:
                item["same"] = True
            else:
                item["value"] = encoded
                self._last_encoded[name] = encoded
            self._last_value[name] = value
        if times > 1:
            item["times"] = times
        return item


_NOTHING = object()


def _encode_safe(value: Any) -> Any:
    try:
        return encode(value)
    except Exception as exc:  # noqa: BLE001 - say what could not be kept, keep recording
        return {"__type": "unencodable", "class": f"{type(value).__module__}:{type(value).__qualname__}",
                "reason": f"{type(exc).__name__}: {exc}"}
