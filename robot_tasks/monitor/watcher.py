"""One publisher, watched: a thread that polls it and reports what changed.

Groot2's monitor works by polling, and so does this one. Per publisher, one thread
owns the ZeroMQ sockets (they are not thread-safe) and loops:

- no tree yet (or the tree UUID changed: the executor started a new run) -> FULLTREE;
- every `status_period` (100 ms) -> STATUS, reported only when the bytes changed;
- every `blackboard_period` (0.5 s) -> BLACKBOARD for the main tree and each subtree,
  reported only when the values changed. A big tree's dump is slow (the stacking tree has
  a 30 kB robot_description in a dozen subtree boards; the pyramid's twice as many), and
  the publisher answers one request at a time, so the next dump waits at least four times
  as long as the last one took: STATUS keeps its pace, and the dump gets a longer timeout;
- recording: on each new tree it asks the publisher to record transitions (the "r"
  request) and collects them every poll ("t"), so the page can scrub back through every
  change, also those that came and went between two STATUS polls. The publisher hands
  each transition out once: a Groot2 recording at the same time gets only what is left;
- commands from the page (breakpoint, resume, step, inject, clear) run between polls;
  a *step* lets the paused node tick and pauses at whichever node ticks next: it puts a
  one-shot breakpoint on every node that has no hook of its own, releases the paused
  node, and when the next "breakpoint reached" arrives it removes the one-shots that did
  not fire (the tree is paused then, so none of them can fire meanwhile);
- "breakpoint reached" notices from the PUB socket are reported as they arrive, and
  before every poll (so a pause is reported even while requests fail).

Polling is also the publisher's heartbeat: a publisher that hears nothing for 5 s
disables every hook, so that a breakpoint nobody watches does not block the tree
forever. To keep that promise the watch polls only while a page is open (`viewers`):
close the last tab and, 5 s later, the tree runs through its breakpoints again. With
no page open it only tries to reach a publisher it has not reached yet (so the
terminal says early whether the address is right), one request, then it is quiet.

A publisher that does not answer is reported once as an error, with the address and
what to check, and retried every second; nothing here raises into the server.
`report(message)` is called from this thread with plain JSON-able dicts.
"""
from __future__ import annotations

import json
import queue
import threading
import time
from collections import deque
from typing import Callable

from .client import Groot2Client, PublisherRefused, PublisherUnreachable
from .tree_model import TreeXmlError, all_uids, parse_fulltree
from .values import jsonable

BREAKPOINT, REPLACE = 0, 1
MAX_RECORDED = 20_000   # transitions kept for a page that opens later (the newest)
BLACKBOARD_TIMEOUT_MS = 8000   # a big dump on a loaded machine: seconds, not a dead publisher
RESULTS = ("SUCCESS", "FAILURE")


class PublisherWatch:
    def __init__(self, index: int, host: str, port: int, report: Callable[[dict], None],
                 status_period: float = 0.1, blackboard_period: float = 0.5, timeout_ms: int = 1500):
        self.index, self.host, self.port = index, host, int(port)
        self.report = report
        self.status_period, self.blackboard_period = status_period, blackboard_period
        self.timeout_ms = timeout_ms
        self.commands: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"monitor-watch-{index}", daemon=True)
        self.latest: dict[str, dict] = {}   # the last message of each kind, for a page that connects later
        self.viewers = 0                    # pages open now (set by the server)
        self._recording_lock = threading.Lock()
        self._recording: dict | None = None   # {"start_us", "base", "transitions": deque}
        self._uids: list[int] = []             # the current tree's nodes
        self._stepping: set[int] = set()       # one-shot breakpoints a step put in

    @property
    def label(self) -> str:
        return f"{self.host}:{self.port}"

    def start(self) -> "PublisherWatch":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5.0)

    def command(self, op: str, uid: int, status: str | None = None) -> None:
        """Queue a page command; it runs in the watch thread between polls."""
        self.commands.put((op, int(uid), status))

    def recording_message(self) -> dict | None:
        """Everything recorded for the current tree, as one message (for a page that opens now)."""
        with self._recording_lock:
            if self._recording is None:
                return None
            return {"type": "recording", "pub": self.index, "start_us": self._recording["start_us"],
                    "base": self._recording["base"], "transitions": list(self._recording["transitions"])}

    def _start_recording(self, client: Groot2Client) -> None:
        try:
            start_us = client.start_recording()
        except PublisherRefused:   # a publisher without recording: no live timeline
            with self._recording_lock:
                self._recording = None
            return
        _, base = client.status()   # after the start: a change in between is seen twice, not lost
        with self._recording_lock:
            self._recording = {"start_us": start_us, "base": [[uid, status] for uid, status in base],
                               "transitions": deque(maxlen=MAX_RECORDED)}
        self.report(self.recording_message())

    def _collect_transitions(self, client: Groot2Client) -> None:
        if self._recording is None:
            return
        records = [[usec, uid, status] for usec, uid, status in client.transitions()]
        if records:
            with self._recording_lock:
                self._recording["transitions"].extend(records)
            self._emit("transitions", transitions=records)

    # ---- the loop --------------------------------------------------------------------------
    def _emit(self, kind: str, **fields) -> None:
        message = {"type": kind, "pub": self.index, **fields}
        if kind in ("tree", "status", "blackboard", "connection", "hooks"):
            self.latest[kind] = message
        self.report(message)

    def _run(self) -> None:
        client = Groot2Client(self.host, self.port, timeout_ms=self.timeout_ms)
        state = {"uuid": None, "status": None, "boards": None, "board_names": [], "next_bb": 0.0,
                 "connected": None}
        try:
            while not self._stop.is_set():
                started = time.monotonic()
                if self.viewers == 0 and state["connected"] is True and self.commands.empty():
                    self._stop.wait(0.1)   # nobody watches: no heartbeat (see the docstring)
                    continue
                try:
                    self._poll_once(client, state)
                    if state["connected"] is not True:
                        state["connected"] = True
                        self._emit("connection", ok=True, message=f"connected to {self.label}")
                except (PublisherUnreachable, PublisherRefused, TreeXmlError) as exc:
                    self._drain_notices(client)
                    if state["connected"] is not False or str(exc) != state.get("error"):
                        state["connected"], state["error"] = False, str(exc)
                        self._emit("connection", ok=False, message=self._explain(exc))
                    state["uuid"] = None   # fetch the tree again when it comes back
                    self._stop.wait(1.0)
                    continue
                left = self.status_period - (time.monotonic() - started)
                self._wait(client, max(left, 0.0))
        finally:
            if self._recording is not None and state["connected"]:
                try:
                    client.stop_recording()   # leave the publisher as we found it
                except (PublisherUnreachable, PublisherRefused):
                    pass
            client.close()

    def _explain(self, exc: Exception) -> str:
        if isinstance(exc, PublisherUnreachable):
            return (f"{self.label}: no Groot2 publisher answers (is the tree running, with its Groot2 "
                    f"port {self.port}? retrying every second)")
        return f"{self.label}: {exc}"

    def _wait(self, client, seconds: float) -> None:
        """Sleep until the next poll, waking for breakpoint notices and page commands."""
        deadline = time.monotonic() + seconds
        while not self._stop.is_set():
            if self._drain_notices(client):
                continue
            if not self.commands.empty():
                return
            left = deadline - time.monotonic()
            if left <= 0:
                return
            client.sub.poll(int(min(left, 0.05) * 1000) + 1)

    def _drain_notices(self, client: Groot2Client) -> bool:
        """Report every "breakpoint reached" notice waiting on the SUB socket; True if any."""
        any_notice = False
        while (uid := client.next_notice(0)) is not None:
            any_notice = True
            if self._stepping:
                try:
                    self._end_step(client, uid)
                except (PublisherUnreachable, PublisherRefused):
                    pass   # the hooks message comes with the next successful poll
            self._emit("breakpoint", uid=uid)
        return any_notice

    def _poll_once(self, client: Groot2Client, state: dict) -> None:
        self._drain_notices(client)
        while not self.commands.empty():
            self._run_command(client, *self.commands.get_nowait())
        uuid, statuses = client.status()
        if uuid != state["uuid"]:
            uuid, xml = client.fulltree()
            tree = parse_fulltree(xml)
            state.update(uuid=uuid, status=None, boards=None, board_names=tree["boards"], next_bb=0.0)
            self._uids, self._stepping = all_uids(tree), set()
            self._emit("tree", tree=tree)
            self._emit("hooks", hooks=client.hooks())
            self._start_recording(client)
        else:
            self._collect_transitions(client)
        if statuses != state["status"]:
            state["status"] = statuses
            self._emit("status", statuses=[[uid, status] for uid, status in statuses])
        now = time.monotonic()
        if now >= state["next_bb"] and state["board_names"]:
            boards = jsonable(client.blackboards(state["board_names"], timeout_ms=BLACKBOARD_TIMEOUT_MS))
            took = time.monotonic() - now
            state["next_bb"] = time.monotonic() + max(self.blackboard_period, 4 * took)
            if boards != state["boards"]:
                state["boards"] = boards
                self._emit("blackboard", boards=boards)

    def _step(self, client: Groot2Client, uid: int) -> None:
        hooked = {hook.get("uid") for hook in client.hooks()}
        one_shots = [u for u in self._uids if u not in hooked and u != uid]
        if one_shots:   # one HOOK_INSERT with a JSON array (both publishers take a list)
            client.ask("I", json.dumps([{"enabled": True, "uid": u, "mode": BREAKPOINT, "once": True,
                                         "desired_status": "IDLE", "position": 0} for u in one_shots]))
        self._stepping = set(one_shots)
        if uid in hooked:
            client.unlock(uid, "IDLE")

    def _end_step(self, client: Groot2Client, reached: int) -> None:
        """The step arrived at `reached`: its one-shot stays (it goes when released), the rest go."""
        left, self._stepping = self._stepping - {reached}, set()
        try:
            for uid in left:
                client.remove_hook(uid)
        except (PublisherUnreachable, PublisherRefused) as exc:
            self._emit("command", ok=False, op="step", uid=reached, message=f"step: {exc}")
        self._emit("hooks", hooks=client.hooks())

    def _run_command(self, client: Groot2Client, op: str, uid: int, status: str | None) -> None:
        try:
            if op == "breakpoint":
                client.insert_hook(uid, BREAKPOINT, "IDLE")
            elif op == "inject" and status in RESULTS:
                client.insert_hook(uid, REPLACE, status)
            elif op == "step":
                self._step(client, uid)
            elif op == "resume":
                # IDLE: "tick the node as usual" (BT.CPP and ours map any non-result to SKIPPED)
                client.unlock(uid, "IDLE")
            elif op == "clear":
                client.remove_hook(uid)
            else:
                raise PublisherRefused(f"unknown command {op!r}")
            self._emit("command", ok=True, op=op, uid=uid, message=f"{op} {uid}: done")
        except PublisherRefused as exc:
            self._emit("command", ok=False, op=op, uid=uid, message=str(exc))
        self._emit("hooks", hooks=client.hooks())
