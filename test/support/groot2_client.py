"""A small Groot2 client: what Groot2's monitor sends, over pyzmq, to 127.0.0.1 only (engine and executor tests)."""
import json
import random
import struct
import time

import zmq

from robot_tasks.bt.groot2 import free_port_pair  # noqa: F401  (tests import it from here)

HOST = "127.0.0.1"


class Reply:
    """A reply split into its 22-byte header fields and its payload frames."""

    def __init__(self, frames):
        self.frames = frames
        self.is_error = len(frames) >= 1 and frames[0] == b"error"
        head = frames[0]
        self.header_size = len(head)
        if not self.is_error and len(head) == 22:
            self.protocol, self.type, self.unique_id = struct.unpack("<BBI", head[:6])
            self.uuid = head[6:]
        self.payload = frames[1:]


class Groot2Client:
    def __init__(self, port, timeout_ms=3000):
        self.port = port
        self.context = zmq.Context()
        self.req = self.context.socket(zmq.REQ)
        self.req.setsockopt(zmq.LINGER, 0)
        self.req.setsockopt(zmq.RCVTIMEO, timeout_ms)
        self.req.setsockopt(zmq.SNDTIMEO, timeout_ms)
        self.req.connect(f"tcp://{HOST}:{port}")
        self.sub = self.context.socket(zmq.SUB)
        self.sub.setsockopt(zmq.LINGER, 0)
        self.sub.setsockopt(zmq.SUBSCRIBE, b"")
        self.sub.connect(f"tcp://{HOST}:{port + 1}")

    def raw(self, frames):
        self.req.send_multipart(frames)
        return Reply(self.req.recv_multipart())

    def request(self, kind, *payload, unique_id=None):
        unique_id = random.getrandbits(32) if unique_id is None else unique_id
        header = struct.pack("<BBI", 2, ord(kind), unique_id)
        return self.raw([header, *[p if isinstance(p, bytes) else p.encode() for p in payload]])

    def request_json(self, kind, obj):
        return self.request(kind, json.dumps(obj))

    def wait_breakpoint(self, timeout_s=3.0):
        """The frames of the next PUB notice (breakpoint reached), or None."""
        if self.sub.poll(int(timeout_s * 1000)):
            return self.sub.recv_multipart()
        return None

    def wait_connected(self, timeout_s=3.0):
        """Retry STATUS until the server answers (it starts in a thread)."""
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                return self.request("S")
            except zmq.Again:
                if time.monotonic() > deadline:
                    raise
                self.req.close(0)
                self.req = self.context.socket(zmq.REQ)
                self.req.setsockopt(zmq.LINGER, 0)
                self.req.setsockopt(zmq.RCVTIMEO, 1000)
                self.req.connect(f"tcp://{HOST}:{self.port}")

    def close(self):
        self.req.close(0)
        self.sub.close(0)
        self.context.term()

