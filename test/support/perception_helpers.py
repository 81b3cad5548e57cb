"""Client-side helpers for the perception_server tests: goals, topic logs, ground truth."""
from __future__ import annotations

import os
import threading
import time

import numpy as np
from paths import SUPPORT

from robot_tasks_interfaces.action import DetectObjects
from robot_tasks_interfaces.msg import DetectedObjectArray

FAKE_CAMERA = SUPPORT / "fake_camera.py"
SERVER_MODULE = "robot_tasks.nodes.perception_server"
Result = DetectObjects.Result


class Detect:
    """DetectObjects client: `call(...)` sends one goal and returns (result, status, seconds)."""

    def __init__(self, probe, action_name: str = "detect_objects"):
        self.probe = probe
        self.action_name = action_name
        self.client = probe.create_action_client(DetectObjects, action_name)  # on the executor thread
        self.feedback: list[str] = []

    def wait_ready(self, timeout: float = 20.0) -> None:
        self.probe.wait_for_action_server(DetectObjects, self.action_name, timeout, client=self.client)

    def send(self, labels=(), min_confidence: float = 0.0, timeout: float = 0.0):
        goal = DetectObjects.Goal(labels=list(labels), min_confidence=min_confidence, timeout=timeout)
        handle = self.probe.wait_future(
            self.client.send_goal_async(goal, feedback_callback=lambda fb: self.feedback.append(fb.feedback.phase)),
            10.0, "DetectObjects goal acceptance")
        assert handle.accepted, "the perception server rejected the goal"
        return handle

    def call(self, labels=(), min_confidence: float = 0.0, timeout: float = 0.0, wait: float = 15.0):
        start = time.monotonic()
        handle = self.send(labels, min_confidence, timeout)
        response = self.probe.wait_future(handle.get_result_async(), wait, "DetectObjects result")
        return response.result, response.status, time.monotonic() - start


class TopicLog:
    """Keeps (receipt monotonic s, msg) of every message on a topic."""

    def __init__(self, probe, msg_type, topic: str, qos=10):
        self.lock = threading.Lock()
        self.items: list = []
        probe.node.create_subscription(msg_type, topic, self._on, qos)

    def _on(self, msg) -> None:
        with self.lock:
            self.items.append((time.monotonic(), msg))

    def since(self, t: float) -> list:
        with self.lock:
            return [m for (when, m) in self.items if when >= t]

    def latest(self):
        with self.lock:
            return self.items[-1][1] if self.items else None


def detections_log(probe, topic: str = "detections") -> TopicLog:
    return TopicLog(probe, DetectedObjectArray, topic)


def position(obj) -> np.ndarray:
    p = obj.pose.position
    return np.array([p.x, p.y, p.z])


def by_label(objects) -> dict:
    return {o.label: o for o in objects}


def position_errors(objects, truth: dict) -> dict:
    """label -> distance [m] between a detection and the ground-truth position of that name."""
    return {o.label: float(np.linalg.norm(position(o) - np.asarray(truth[o.label]))) for o in objects}


def mapped_files(pid: int) -> str:
    """The file paths a process has mapped (to check which shared libraries it loaded)."""
    with open(f"/proc/{pid}/maps") as maps:
        return maps.read()


def participant_ids(pids: dict, domain_id: int) -> dict:
    """name -> the Fast DDS participant ids its process holds in `domain_id`.

    Read from the RTPS discovery ports it has bound (7400 + 250 * domain + 10 + 2 * id).
    Printed by the swap test so that a discovery failure shows the ids involved
    (measured: two participants that both have id >= 4 may never discover each other).
    """
    base = 7400 + 250 * domain_id
    inode_port = {}
    for table in ("/proc/net/udp", "/proc/net/udp6"):
        with open(table) as f:
            next(f)
            for line in f:
                fields = line.split()
                inode_port[fields[9]] = int(fields[1].rsplit(":", 1)[1], 16)
    out = {}
    for name, pid in pids.items():
        ids = set()
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                port = inode_port.get(target[len("socket:["):-1]) if target.startswith("socket:[") else None
                if port is not None and base + 10 <= port < base + 250 and (port - base - 10) % 2 == 0:
                    ids.add((port - base - 10) // 2)
        except OSError:
            pass
        out[name] = sorted(ids)
    return out
