"""Replayer: tick the recorded tree again, offline, and check it does exactly what the run did.

    recording = read_recording("runs/.../FrankaStacking_20261204T234406Z.replay.jsonl")
    replay = Replayer(recording)                    # or Replayer(recording, tree_file="edited.xml")
    result = replay.run(stop_at_node="grasp")       # or stop_at_tick=400, or nothing
    print(result.outcome, result.divergence, replay.blackboard())

How it works: the recorded tree file is loaded with its leaves replaced by ReplayLeaves
(`replay_tree.py`), which write and return what the run's leaves did; the blackboard
starts as the run's did (the header's `blackboard`); controls, decorators and the
script leaves run their real code. A TreeRecorder watches the replayed tree, and every
event it produces is compared, as it happens, with the recording's next event
(`_StreamCheck`): status changes of every node, leaf calls with what they returned and
wrote, writes by the tree itself, timers, halts. The replay is driven by the recording:
a `tick` event starts a tick (with the recorded tick number and time), a `halt_tree`
halts the tree where the executor did, a `timer` fires the node's virtual timer.

The first event that differs stops the replay: `Divergence` says at which tick, about
which node, what the run did and what the replay did. With the unchanged tree file a
recording replays with no divergence; with an edited copy it replays up to the first
place where the edit changes what happens.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..blackboard import EMPTY, Entry
from ..ports import blackboard_key
from .describe import describe, subject, why
from .file import Recording, RecordingError
from .paths import board_prefixes, entry_names, is_leaf, node_paths
from .recorder import SinkStop, TreeRecorder
from .replay_leaf import Call, LeafCalls, ReplayLeafMixin, ReplayMismatch, Write
from .replay_tree import ReplayFactory, create_replay_tree
from .timers import VirtualTimers
from .values import decode, encode


class ReplayDivergence(SinkStop):
    """The replayed tree did something else than the recorded run (see `Divergence`)."""


class ReplayStop(SinkStop):
    """The replay reached the node it was asked to stop at."""


@dataclass
class Divergence:
    """Where and why a replay left the recorded run."""

    tick: int
    t: float | None
    node: str
    expected: dict | None
    got: dict | str | None     # the replay's event, or what the replay did instead (a text)
    reason: str

    def __str__(self) -> str:
        when = f"tick {self.tick}" + (f" (t = {self.t:.3f} s)" if isinstance(self.t, (int, float)) else "")
        return (f"diverged at {when}\n"
                f"  node:   {self.node or '-'}\n"
                f"  why:    {self.reason}\n"
                f"  run:    {describe(self.expected)}\n"
                f"  replay: {describe(self.got) if isinstance(self.got, dict) else self.got or 'nothing'}")


@dataclass
class ReplayResult:
    outcome: str                   # "exact" | "stopped" | "diverged"
    ticks: int                     # the last tick replayed (started)
    events: int                    # recorded events matched
    divergence: Divergence | None = None
    stopped_at: str = ""           # what the replay stopped at (outcome "stopped")
    complete: bool = True          # the recording has its end line
    root_status: str = "IDLE"      # the root's last status in the replay


def leaf_calls(events: list[dict]) -> dict[str, LeafCalls]:
    """path -> that leaf's recorded calls, values decoded ("same" resolved to the value)."""
    last: dict[str, Any] = {}
    calls: dict[str, list[Call]] = {}
    for number, event in enumerate(events, 2):
        try:
            if "write" in event:
                last[event["write"]] = last[event["write"]] if event.get("same") else decode(event.get("value"))
            elif "leaf" in event:
                kind = next(k for k in ("returned", "raised", "halted") if k in event)
                writes = []
                for item in event.get("writes") or []:
                    name = item["entry"]
                    if item.get("unset"):
                        writes.append(Write(name, unset=True))
                        continue
                    value = last[name] if item.get("same") else decode(item.get("value"))
                    last[name] = value
                    writes.append(Write(name, value, item.get("port"), int(item.get("times", 1))))
                calls.setdefault(event["leaf"], []).append(Call(int(event["call"]), kind, event[kind], writes,
                                                                event.get("set")))
        except (KeyError, StopIteration, TypeError, ValueError) as exc:
            raise RecordingError(f"line {number}: a malformed event ({type(exc).__name__}: {exc}): "
                                 f"{describe(event)}") from None
    return {path: LeafCalls(path, items) for path, items in calls.items()}


class _StreamCheck:
    """The replayed tree's recorder sink: each event must be the recording's next one."""

    def __init__(self, expected: list[dict], fire_timer: Callable[[str], bool], complete: bool = True):
        self.expected = expected
        self.fire_timer = fire_timer
        self.complete = complete     # False: the recording has no end line
        self.exhausted = False
        self.i = 0
        self.tick = 0
        self.t: float | None = None
        self.divergence: Divergence | None = None
        self.stop_node: str | None = None
        self.stop_from_tick = 0
        self.stopped_at: dict | None = None
        self.last_matched: dict | None = None
        self.root_path = ""
        self.root_status = "IDLE"   # what the root last returned (it is reset to IDLE after)

    def next_expected(self) -> dict | None:
        return self.expected[self.i] if self.i < len(self.expected) else None

    def diverge(self, expected: dict | None, got: Any, reason: str, node: str = "") -> ReplayDivergence:
        node = node or subject(expected) or (subject(got) if isinstance(got, dict) else "")
        self.divergence = Divergence(self.tick, self.t, node, expected, got, reason)
        return ReplayDivergence(reason)

    def __call__(self, event: dict) -> None:
        if self.divergence is not None or self.stopped_at is not None:
            raise ReplayStop("the replay has stopped")
        want = self.next_expected()
        if want is None and not self.complete:
            self.exhausted = True   # a recording cut short (the run crashed): all it holds was replayed
            raise ReplayStop("the recording ends here")
        if event != want:
            raise self.diverge(want, event, why(want, event))
        self.i += 1
        self.last_matched = event
        if "tick" in event:
            self.tick, self.t = event["tick"], event.get("t")
        elif event.get("node") == self.root_path and event.get("status") != "IDLE":
            self.root_status = event["status"]
        if (self.stop_node is not None and self.tick >= self.stop_from_tick
                and (event.get("node") == self.stop_node or event.get("leaf") == self.stop_node)):
            self.stopped_at = event
            raise ReplayStop(describe(event))

    def fire_due_timers(self, calls: int, between_ticks: bool = False) -> None:
        """Fire the timers the run fired after `calls` leaf calls (between ticks: whatever
        their count, a difference is a divergence)."""
        while (want := self.next_expected()) is not None and "timer" in want:
            if want.get("calls") != calls:
                if not between_ticks:
                    return
                raise self.diverge(want, None, f"the run's timer of {want['timer']} fired after leaf call "
                                               f"{want.get('calls')}; the replay is at leaf call {calls}")
            if not self.fire_timer(want["timer"]):
                raise self.diverge(want, None, f"the run's timer of {want['timer']} fired here; the replayed "
                                               f"node has no timer pending")


class Replayer:
    """Replays one recording (see the module docstring)."""

    def __init__(self, recording: Recording, tree_file: str | Path | None = None,
                 setup: Callable | None = None):
        self.recording = recording
        header = recording.header
        self.factory = ReplayFactory(header, setup)
        self.tree = create_replay_tree(self.factory, header, tree_file)
        self.paths = node_paths(self.tree)
        self.boards = board_prefixes(self.tree, self.paths)
        self.scripts = leaf_calls(recording.events)
        self.replayed_leaves: list[str] = []
        self.real_leaves: list[str] = []
        self._timers: dict[str, VirtualTimers] = {}
        for node in self.tree.nodes:
            path = self.paths.get(node.uid)
            if path is None:
                continue
            if isinstance(node, ReplayLeafMixin):
                script = self.scripts.get(path) or LeafCalls(path)
                script.given = (header.get("leaves") or {}).get(path)
                node.bind(script, self._write)
                self.replayed_leaves.append(path)
            elif is_leaf(node):
                self.real_leaves.append(path)
            else:
                timers = self._timers[path] = VirtualTimers()
                node.timer_queue = lambda timers=timers: timers
        self._load_blackboard(header.get("blackboard") or {})
        self.check = _StreamCheck(recording.events, self._fire_timer, recording.complete)
        root = self.tree.root_node
        self.check.root_path = self.paths.get(root.uid, "") if root is not None else ""
        self.recorder = TreeRecorder(self.tree, self.check, on_problem=self._recorder_problem)
        if self._timers:
            self.recorder.before_call = self._timers_before_call

    # ---- the blackboard ------------------------------------------------------------------
    def _entry(self, name: str, create: bool = True) -> Entry | None:
        for entry, entry_name in entry_names(self.boards):
            if entry_name == name:
                return entry
        if not create:
            return None
        board, key = self._board_of(name)
        return board.create_entry(key)

    def _board_of(self, name: str):
        for board, prefix in reversed(self.boards):
            if prefix and name.startswith(prefix):
                return board, name[len(prefix):]
        return self.tree.root_blackboard, name

    def _load_blackboard(self, values: dict) -> None:
        for name, encoded in values.items():
            entry = self._entry(name)
            entry.value = decode(encoded)
            entry.sequence_id += 1

    def _write(self, leaf, writes: list[Write]) -> None:
        """Apply a recorded leaf call's writes, through the leaf's own port when it still has it."""
        for write in writes:
            if write.unset:
                board, key = self._board_of(write.entry)
                board.unset(key)
                continue
            entry = None
            text = leaf.config.output_ports.get(write.port) if write.port else None
            key = blackboard_key(text, write.port) if isinstance(text, str) else None
            if key is not None:
                entry = leaf.config.blackboard.get_entry(key) or leaf.config.blackboard.create_entry(key)
            if entry is None:
                entry = self._entry(write.entry)
            entry.value = write.value
            entry.sequence_id += write.times

    def blackboard(self) -> dict[str, Any]:
        """{entry name: encoded value} of every entry with a value, now."""
        return {name: encode(entry.value) for entry, name in sorted(entry_names(self.boards), key=lambda p: p[1])
                if entry.value is not EMPTY}

    # ---- nodes ---------------------------------------------------------------------------
    def find_node(self, text: str) -> list[str]:
        """The paths `text` names: a path, its end ('pick/grasp'), a BT.CPP full path or a name."""
        paths = list(self.paths.values())
        if text in paths:
            return [text]
        by_full_path = [self.paths[n.uid] for n in self.tree.nodes if n.uid in self.paths and n.full_path == text]
        if by_full_path:
            return by_full_path
        return [p for p in paths if p.endswith("/" + text.strip("/"))]

    def _timers_before_call(self) -> None:
        want = self.check.next_expected()
        if want is not None and "timer" in want:
            self.check.fire_due_timers(self.recorder.calls)

    def _fire_timer(self, path: str) -> bool:
        timers = self._timers.get(path)
        return timers is not None and timers.fire()

    def _recorder_problem(self, message: str) -> None:
        raise RecordingError(message)

    # ---- running ---------------------------------------------------------------------------
    def run(self, stop_at_tick: int | None = None, stop_at_node: str | None = None) -> ReplayResult:
        """Replay until the end, a divergence, or the requested stop (`stop_at_node`: a path
        from `find_node`; with `stop_at_tick` too, its first event from that tick on)."""
        check = self.check
        if stop_at_node is not None:
            check.stop_node, check.stop_from_tick = stop_at_node, stop_at_tick or 0
        try:
            while (want := check.next_expected()) is not None:
                if "tick" in want:
                    if stop_at_tick is not None and stop_at_node is None and want["tick"] > stop_at_tick:
                        return self._result("stopped", f"after tick {check.tick}")
                    self.recorder.begin_tick(want["tick"], want.get("t"))
                    self._tick()
                elif "halt_tree" in want:
                    self.tree.halt_tree()
                elif "timer" in want:
                    check.fire_due_timers(self.recorder.calls, between_ticks=True)
                elif "end" in want:
                    check.i += 1
                    return self._result("exact")
                else:
                    raise check.diverge(want, None, why(want, None))
        except ReplayStop:
            if check.divergence is not None:
                return self._result("diverged")
            if check.exhausted:
                return self._result("exact", complete=False)
            return self._result("stopped", describe(check.stopped_at))
        except ReplayDivergence:
            return self._result("diverged")
        except ReplayMismatch as exc:
            check.diverge(check.next_expected(), f"{exc.reason}", exc.reason, exc.path)
            return self._result("diverged")
        return self._result("exact", complete=False)

    def _tick(self) -> None:
        check = self.check
        try:
            self.tree.tick_exactly_once()
        except SinkStop:
            raise
        except Exception as exc:  # the run's tick raised too (its executor halted the tree next)?
            last, want = check.last_matched or {}, check.next_expected() or {}
            if "raised" in last or "halt_tree" in want:
                return
            raise check.diverge(want, f"the replayed tick raised {type(exc).__name__}: {exc}",
                                f"the replayed tick raised {type(exc).__name__}: {exc}") from None

    def _result(self, outcome: str, stopped_at: str = "", complete: bool = True) -> ReplayResult:
        return ReplayResult(outcome, self.check.tick, self.check.i, self.check.divergence, stopped_at,
                            complete and self.recording.complete, self.check.root_status)
