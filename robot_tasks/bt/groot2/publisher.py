"""Groot2Publisher: let Groot2 watch (and pause) a running tree (BT.CPP 4.10 `groot2_publisher.cpp`).

Groot2's monitor connects to a REP socket on `server_port` and a SUB socket to the
PUB socket on `server_port + 1`, then polls: the tree once (FULLTREE), the node
statuses a few times a second (STATUS), the blackboards shown (BLACKBOARD). It can
also insert breakpoints (see hooks.py) and record transitions. See protocol.py for
the bytes and README.md in this folder for using it with Groot2.

```python
with Groot2Publisher(tree, server_port=1667):      # binds 127.0.0.1 by default
    tree.tick_while_running()
```

- The sockets bind `bind_address` (127.0.0.1 unless you ask for another one: BT.CPP
  binds every interface, which this project never does by default).
- Two threads run next to the tree: the server (answers requests, polls with a
  100 ms timeout) and the heartbeat watch: when no request came for
  `max_heartbeat_delay` seconds (5 s), every hook is disabled, so a tree is never
  left blocked by a Groot2 that went away; hooks come back when requests resume.
- Status changes reach the publisher through `Tree.subscribe_status_changes`;
  `close()` unsubscribes, so a tree without a publisher pays nothing.
- pyzmq and msgpack are imported only when a publisher is created.
"""
from __future__ import annotations

import json
import threading
import time

from ..errors import BehaviorTreeError
from ..xml.writer import write_tree_to_xml
from . import protocol as P
from .blackboard_dump import DumpRefused, blackboards_dump
from .hooks import HookTable
from .status_buffer import StatusBuffer


class Groot2Error(BehaviorTreeError):
    """The publisher could not start (port in use, pyzmq missing ...)."""


DEFAULT_PORT = 1667   # Groot2's own default for the REP port (PUB on the next one)

_used_ports: set[int] = set()
_used_ports_lock = threading.Lock()


class Groot2Publisher:
    """Serve a tree to Groot2 over ZMQ: REP on `server_port`, PUB on `server_port + 1`."""

    def __init__(self, tree, server_port: int = DEFAULT_PORT, bind_address: str = "127.0.0.1",
                 max_heartbeat_delay: float = 5.0):
        try:
            import zmq
        except ImportError as exc:
            raise Groot2Error("Groot2Publisher needs pyzmq and msgpack: pip install pyzmq msgpack") from exc
        self.tree = tree
        self.server_port = int(server_port)
        self.bind_address = bind_address
        self.max_heartbeat_delay = float(max_heartbeat_delay)
        self._reserve_ports()
        self.tree_uuid = P.new_tree_uuid()
        self.tree_xml = write_tree_to_xml(tree, add_metadata=True, add_builtin_models=True).encode()
        self.status = StatusBuffer(tree)
        self._boards = {(subtree.instance_name or subtree.tree_id): subtree.blackboard for subtree in tree.subtrees}
        self._nodes = {node.uid: node for node in tree.nodes}
        self._pub_lock = threading.Lock()
        self.hooks = HookTable(self._nodes, self._announce_breakpoint)
        self._context = zmq.Context()
        self._server = self._context.socket(zmq.REP)
        self._publisher = self._context.socket(zmq.PUB)
        try:
            for sock in (self._server, self._publisher):
                sock.setsockopt(zmq.LINGER, 0)
                sock.setsockopt(zmq.SNDTIMEO, 1000)
            self._server.bind(f"tcp://{bind_address}:{self.server_port}")
            self._publisher.bind(f"tcp://{bind_address}:{self.server_port + 1}")
        except zmq.ZMQError as exc:
            self._close_sockets()
            self._release_ports()
            raise Groot2Error(f"Groot2Publisher can't bind {bind_address}:{self.server_port}/"
                              f"{self.server_port + 1}: {exc}") from None
        self._subscription = tree.subscribe_status_changes(self.status.on_status_change)
        self._active = True
        self._closed = False
        self.last_heartbeat = time.monotonic()
        self._server_thread = threading.Thread(target=self._serve, name="groot2-server", daemon=True)
        self._heartbeat_thread = threading.Thread(target=self._watch_heartbeat, name="groot2-heartbeat",
                                                  daemon=True)
        self._server_thread.start()
        self._heartbeat_thread.start()

    # ---- life cycle ------------------------------------------------------------------
    def _reserve_ports(self) -> None:
        with _used_ports_lock:
            if self.server_port in _used_ports or self.server_port + 1 in _used_ports:
                raise Groot2Error(f"Another instance of Groot2Publisher is using port {self.server_port}")
            _used_ports.update((self.server_port, self.server_port + 1))

    def _release_ports(self) -> None:
        with _used_ports_lock:
            _used_ports.discard(self.server_port)
            _used_ports.discard(self.server_port + 1)

    def close(self) -> None:
        """Release any blocked breakpoint, stop the threads, close the sockets."""
        if self._closed:
            return
        self._closed = True
        self.hooks.remove_all()
        self._active = False
        self._server_thread.join()
        self._heartbeat_thread.join()
        self._subscription.unsubscribe()
        self._close_sockets()
        self._release_ports()

    def _close_sockets(self) -> None:
        self._server.close(0)
        self._publisher.close(0)
        self._context.term()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_closed", True) is False:
            self.close()

    # ---- threads ---------------------------------------------------------------------
    def _announce_breakpoint(self, uid: int) -> None:
        header = P.RequestHeader.new(P.BREAKPOINT_REACHED).pack()
        with self._pub_lock:
            try:
                self._publisher.send_multipart([header, str(uid).encode()])
            except Exception:  # a PUB socket that cannot send must not break the tick
                pass

    def _watch_heartbeat(self) -> None:
        has_heartbeat = True
        while self._active:
            time.sleep(0.01)
            previous = has_heartbeat
            has_heartbeat = time.monotonic() - self.last_heartbeat < self.max_heartbeat_delay
            if has_heartbeat != previous:
                self.hooks.enable_all(has_heartbeat)

    def _serve(self) -> None:
        sock = self._server
        while self._active:
            if not sock.poll(100):
                continue
            frames = sock.recv_multipart()
            self.last_heartbeat = time.monotonic()
            try:
                reply = self.handle(frames)
            except Exception as exc:  # a malformed payload must not kill the server thread
                reply = [b"error", f"invalid request: {type(exc).__name__}: {exc}".encode()]
            sock.send_multipart(reply)

    # ---- requests --------------------------------------------------------------------
    def handle(self, frames: list[bytes]) -> list[bytes]:
        """The reply frames for one request (public so it can be tested without sockets)."""
        if not frames or len(frames[0]) != P.REQUEST_HEADER_SIZE:
            return _error(P.ERROR_WRONG_HEADER)
        request = P.RequestHeader.unpack(frames[0])
        reply = [P.reply_header(request, self.tree_uuid)]
        kind = request.type
        if kind == P.FULLTREE:
            return reply + [self.tree_xml]
        if kind == P.STATUS:
            return reply + [self.status.snapshot()]
        if kind == P.HOOKS_DUMP:
            return reply + [json.dumps(self.hooks.dump()).encode()]
        if kind == P.REMOVE_ALL_HOOKS:
            self.hooks.remove_all()
            return reply
        if kind == P.DISABLE_ALL_HOOKS:
            self.hooks.enable_all(False)
            return reply
        if kind == P.GET_TRANSITIONS:
            return reply + [self.status.take_transitions()]
        handler = self._two_part_handlers.get(kind)
        if handler is None:
            return _error(P.ERROR_UNKNOWN_REQUEST)
        if len(frames) != 2:
            return _error(P.ERROR_MISSING_PART)
        return handler(self, frames[1], reply)

    def _blackboard(self, payload: bytes, reply: list) -> list:
        try:
            return reply + [blackboards_dump(self._boards, payload)]
        except DumpRefused as exc:
            return _error(str(exc))

    def _hook_insert(self, payload: bytes, reply: list) -> list:
        data = json.loads(payload)
        for item in data if isinstance(data, list) else [data]:
            self.hooks.insert_json(item)
        return reply

    def _breakpoint_unlock(self, payload: bytes, reply: list) -> list:
        data = json.loads(payload)
        status = P.status_from_text(str(data["desired_status"]))
        if not self.hooks.unlock(int(data["position"]), int(data["uid"]), status, bool(data["remove_when_done"])):
            return _error(P.ERROR_UNKNOWN_NODE)
        return reply

    def _hook_remove(self, payload: bytes, reply: list) -> list:
        data = json.loads(payload)
        if not self.hooks.remove(int(data["position"]), int(data["uid"])):
            return _error(P.ERROR_UNKNOWN_NODE)
        return reply

    def _toggle_recording(self, payload: bytes, reply: list) -> list:
        if payload == b"start":
            return reply + [str(self.status.start_recording()).encode()]
        if payload == b"stop":
            self.status.stop_recording()
        return reply

    _two_part_handlers = {
        P.BLACKBOARD: _blackboard,
        P.HOOK_INSERT: _hook_insert,
        P.BREAKPOINT_UNLOCK: _breakpoint_unlock,
        P.HOOK_REMOVE: _hook_remove,
        P.TOGGLE_RECORDING: _toggle_recording,
    }


def _error(reason: str) -> list[bytes]:
    return [b"error", reason.encode()]
