"""Small helpers for talking to the sim node from a test: record topics, call services."""
from __future__ import annotations

import threading
from collections import deque

from builtin_interfaces.msg import Duration
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

from robot_tasks.testing.ros_test_node import wait_until

LATCHED = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                     reliability=ReliabilityPolicy.RELIABLE)
CLOCK_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT)   # as rclpy's TimeSource
PANDA_ARM = [f"panda_joint{i}" for i in range(1, 8)]


class Recorder:
    """Keeps the last `keep` messages of a topic (appended on the probe's executor thread)."""

    def __init__(self, probe, msg_type, topic: str, qos=10, keep: int = 2000):
        self.probe = probe
        self.topic = topic
        self.messages: deque = deque(maxlen=keep)
        self._lock = threading.Lock()
        self.sub = probe.node.create_subscription(msg_type, topic, self._on_msg, qos)

    def _on_msg(self, msg) -> None:
        with self._lock:
            self.messages.append(msg)

    def snapshot(self) -> list:
        with self._lock:
            return list(self.messages)

    def clear(self) -> None:
        with self._lock:
            self.messages.clear()

    def latest(self, timeout: float = 10.0):
        """The newest message, waiting for a first one."""
        self.probe.wait_for(lambda: len(self.messages) > 0, f"a message on {self.topic}", timeout)
        with self._lock:
            return self.messages[-1]

    def wait_for(self, predicate, what: str, timeout: float = 10.0):
        """Wait until predicate(latest message) is true; return that message."""
        found = []

        def check():
            with self._lock:
                msg = self.messages[-1] if self.messages else None
            if msg is not None and predicate(msg):
                found.append(msg)
                return True
            return False

        self.probe.wait_for(check, f"{what} on {self.topic}", timeout)
        return found[0]

    def close(self) -> None:
        self.probe.node.destroy_subscription(self.sub)


def joint_map(js) -> dict:
    return dict(zip(js.name, js.position))


def trajectory(names, points) -> JointTrajectory:
    """points: [(positions, seconds), ...]; header stamp zero = start now."""
    msg = JointTrajectory(joint_names=list(names))
    for positions, t in points:
        sec = int(t)
        stamp = Duration(sec=sec, nanosec=int((t - sec) * 1e9))
        msg.points.append(JointTrajectoryPoint(positions=[float(q) for q in positions], time_from_start=stamp))
    return msg


def call_service(probe, srv_type, name: str, request, timeout: float = 20.0):
    client = probe.node.create_client(srv_type, name)
    try:
        probe.wait_for(client.service_is_ready, f"service {name}", timeout)
        return probe.wait_future(client.call_async(request), timeout, f"the {name} response")
    finally:
        probe.node.destroy_client(client)


def wait_for_log(proc, text: str, timeout: float = 10.0) -> str:
    """Wait until the node's log contains `text`; return the log."""
    wait_until(lambda: text in proc.log_path.read_text(errors="replace"), f"'{text}' in {proc.name}'s log",
               timeout, [proc])
    return proc.log_path.read_text(errors="replace")
