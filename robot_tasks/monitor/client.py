"""A Groot2 protocol client: what a monitor sends to a running tree's publisher.

A Groot2 publisher (ours, `robot_tasks.bt.groot2`, or BT.CPP's C++ one) opens two
ZeroMQ sockets: a REP socket on its port, where a client asks and the tree answers,
and a PUB socket on the next port, where the tree announces "breakpoint reached".
So a client holds a REQ socket connected to `port` and a SUB socket connected to
`port + 1`. The bytes of each message are in `robot_tasks.bt.groot2.protocol`; this
file only moves them.

One ZeroMQ rule shapes the code: a REQ socket must receive a reply before it may send
again. When a publisher dies mid-request the reply never comes, so after a timeout the
socket is thrown away and a fresh one connected ("lazy pirate"); the caller sees
`PublisherUnreachable` and can simply try again later.

A client object is used from one thread (ZeroMQ sockets are not thread-safe).
"""
from __future__ import annotations

import json

from robot_tasks.bt.groot2 import protocol as P


class PublisherUnreachable(ConnectionError):
    """The publisher did not answer in time (not started, dead, or blocked)."""


class PublisherRefused(RuntimeError):
    """The publisher answered with an error reply; the message is its reason."""


class Reply:
    """A reply split into its 22-byte header fields and its payload frames.

    A refused request comes back as two frames, `error` and the reason (`is_error`)."""

    def __init__(self, frames: list[bytes]):
        self.frames = frames
        self.is_error = len(frames) >= 1 and frames[0] == b"error"
        head = frames[0] if frames else b""
        self.header_size = len(head)
        self.protocol = self.type = self.unique_id = None
        self.uuid = b""
        if not self.is_error and len(head) == P.REPLY_HEADER_SIZE:
            header = P.RequestHeader.unpack(head[:P.REQUEST_HEADER_SIZE])
            self.protocol, self.type, self.unique_id = header.protocol, header.type, header.unique_id
            self.uuid = head[P.REQUEST_HEADER_SIZE:]
        self.payload = frames[1:]

    @property
    def error_text(self) -> str:
        return self.payload[0].decode("utf-8", "replace") if self.is_error and self.payload else ""


class Groot2Client:
    """REQ to `host:port`, SUB to `host:port+1`. `raw`/`request` give replies as they
    come (tests look at error replies too); the named methods decode the payloads."""

    def __init__(self, host: str, port: int, timeout_ms: int = 3000):
        import zmq  # only when a client is made: importing the monitor needs no pyzmq

        self._zmq = zmq
        self.host, self.port, self.timeout_ms = host, int(port), int(timeout_ms)
        self.context = zmq.Context()
        self.req = self._new_req()
        self.sub = self.context.socket(zmq.SUB)
        self.sub.setsockopt(zmq.LINGER, 0)
        self.sub.setsockopt(zmq.SUBSCRIBE, b"")
        self.sub.connect(f"tcp://{self.host}:{self.port + 1}")

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def _new_req(self):
        zmq = self._zmq
        sock = self.context.socket(zmq.REQ)
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.RCVTIMEO, self.timeout_ms)
        sock.setsockopt(zmq.SNDTIMEO, self.timeout_ms)
        sock.connect(f"tcp://{self.host}:{self.port}")
        return sock

    def reset(self) -> None:
        """Replace the REQ socket (after a timeout it can neither send nor receive)."""
        self.req.close(0)
        self.req = self._new_req()

    # ---- raw requests: zmq.Again on a timeout --------------------------------------------
    def raw(self, frames: list[bytes]) -> Reply:
        self.req.send_multipart(frames)
        return Reply(self.req.recv_multipart())

    def request(self, kind: str, *payload, unique_id: int | None = None) -> Reply:
        header = P.RequestHeader.new(ord(kind))
        if unique_id is not None:
            header = P.RequestHeader(P.PROTOCOL_ID, ord(kind), unique_id)
        return self.raw([header.pack(), *[p if isinstance(p, bytes) else p.encode() for p in payload]])

    def request_json(self, kind: str, obj) -> Reply:
        return self.request(kind, json.dumps(obj))

    # ---- decoded requests: PublisherUnreachable / PublisherRefused -----------------------
    def ask(self, kind: str, *payload, timeout_ms: int | None = None) -> Reply:
        """One request; a timeout (`timeout_ms`, default the client's) resets the socket and
        raises PublisherUnreachable."""
        wait_ms = int(timeout_ms or self.timeout_ms)
        if wait_ms != self.timeout_ms:
            self.req.setsockopt(self._zmq.RCVTIMEO, wait_ms)
        try:
            reply = self.request(kind, *payload)
        except self._zmq.Again:
            self.reset()
            raise PublisherUnreachable(f"no answer from the Groot2 publisher at {self.address} "
                                       f"in {wait_ms} ms") from None
        finally:
            if wait_ms != self.timeout_ms:
                self.req.setsockopt(self._zmq.RCVTIMEO, self.timeout_ms)
        if reply.is_error:
            raise PublisherRefused(f"{self.address} refused '{kind}': {reply.error_text}")
        return reply

    def fulltree(self) -> tuple[bytes, str]:
        """(tree uuid, FULLTREE XML): the tree with `_uid`s, its subtrees and node models."""
        reply = self.ask("T")
        return reply.uuid, reply.payload[0].decode("utf-8", "replace")

    def status(self) -> tuple[bytes, list[tuple[int, int]]]:
        """(tree uuid, [(uid, status byte)]); 10 + s is IDLE after status s."""
        reply = self.ask("S")
        return reply.uuid, P.unpack_status(reply.payload[0] if reply.payload else b"")

    def blackboards(self, names: list[str], timeout_ms: int | None = None) -> dict:
        """{name: {key: value}} for the named blackboards (MessagePack decoded). A tree with
        big values in many boards takes its publisher a while to dump: give it `timeout_ms`."""
        import msgpack

        reply = self.ask("B", ";".join(names), timeout_ms=timeout_ms)
        data = msgpack.unpackb(reply.payload[0], raw=False, strict_map_key=False) if reply.payload else None
        return data if isinstance(data, dict) else {}

    def insert_hook(self, uid: int, mode: int, desired_status: str = "IDLE", once: bool = False) -> None:
        """A hook before `uid`'s tick: mode 0 waits for unlock, mode 1 returns desired_status."""
        self.ask("I", json.dumps({"enabled": True, "uid": int(uid), "mode": int(mode), "once": bool(once),
                                  "desired_status": desired_status, "position": 0}))

    def unlock(self, uid: int, desired_status: str = "IDLE", remove_when_done: bool = False) -> None:
        """Release a paused breakpoint. SUCCESS/FAILURE replace the node's result; anything
        else (IDLE here) lets the node tick as usual (both publishers map it to SKIPPED)."""
        self.ask("U", json.dumps({"uid": int(uid), "desired_status": desired_status, "position": 0,
                                  "remove_when_done": bool(remove_when_done)}))

    def remove_hook(self, uid: int) -> None:
        self.ask("R", json.dumps({"uid": int(uid), "position": 0}))

    def hooks(self) -> list[dict]:
        reply = self.ask("D")
        data = json.loads(reply.payload[0]) if reply.payload and reply.payload[0] else []
        return data if isinstance(data, list) else []

    def start_recording(self) -> int:
        """Start (or restart) the publisher's transition recording; its start, wall-clock µs."""
        reply = self.ask("r", "start")
        try:
            return int(reply.payload[0]) if reply.payload else 0
        except ValueError:
            return 0

    def stop_recording(self) -> None:
        self.ask("r", "stop")

    def transitions(self) -> list[tuple[int, int, int]]:
        """The transitions recorded since the last call: (µs since the start, uid, status);
        the publisher hands each one out once (a second client would get the rest)."""
        reply = self.ask("t")
        return P.unpack_transitions(reply.payload[0]) if reply.payload else []

    def next_notice(self, timeout_ms: int = 0) -> int | None:
        """The uid of the next "breakpoint reached" notice on the PUB socket, or None."""
        if not self.sub.poll(timeout_ms):
            return None
        frames = self.sub.recv_multipart()
        try:
            return int(frames[1])
        except (IndexError, ValueError):
            return None

    def close(self) -> None:
        self.req.close(0)
        self.sub.close(0)
        self.context.term()
