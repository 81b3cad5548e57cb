"""The tests' Groot2 client: the product's (robot_tasks.monitor.client), always on 127.0.0.1.

Tests look at raw replies (error frames, header fields), so they mostly use `raw`,
`request` and `request_json`, which raise zmq.Again on a timeout; the decoding methods
(`status()`, `blackboards()` ...) are the monitor's own.
"""
import time

import zmq

from robot_tasks.bt.groot2 import free_port_pair  # noqa: F401  (tests import it from here)
from robot_tasks.monitor.client import Groot2Client as _ProductClient
from robot_tasks.monitor.client import Reply  # noqa: F401  (tests import it from here)

HOST = "127.0.0.1"


class Groot2Client(_ProductClient):
    def __init__(self, port, timeout_ms=3000):
        super().__init__(HOST, port, timeout_ms=timeout_ms)

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
                self.reset()
