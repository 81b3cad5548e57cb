"""Client-side helpers for the server tests: send goals, record joint_states, read poses."""
from __future__ import annotations

import math
import threading
import time
from pathlib import Path

import numpy as np
from paths import SUPPORT
from sensor_msgs.msg import JointState

from robot_tasks_interfaces.action import GripperCommand, MoveToJoints, MoveToPose

FAKE_DRIVER = SUPPORT / "fake_driver.py"
DOWN = (1.0, 0.0, 0.0, 0.0)  # tool z axis pointing down (x, y, z, w)


class JointRecorder:
    """Keeps every joint_states message: (header stamp s, receipt wall s, name->pos, name->vel)."""

    def __init__(self, probe, topic: str):
        self.lock = threading.Lock()
        self.samples = []
        probe.node.create_subscription(JointState, topic, self._on, 50)

    def _on(self, msg):
        stamp = msg.header.stamp.sec + msg.header.stamp.nanosec * 1e-9
        with self.lock:
            self.samples.append((stamp, time.monotonic(), dict(zip(msg.name, msg.position)),
                                 dict(zip(msg.name, msg.velocity))))
            if len(self.samples) > 20000:
                del self.samples[:10000]

    def latest(self):
        with self.lock:
            return self.samples[-1] if self.samples else None

    def since(self, wall_t: float):
        with self.lock:
            return [s for s in self.samples if s[1] >= wall_t]


class ActionHelper:
    """One ActionClient per action; `send` returns (goal handle, feedback list) once accepted."""

    def __init__(self, probe, action_type, name: str):
        self.probe = probe
        self.client = probe.create_action_client(action_type, name)  # on the executor thread
        self.name = name

    def wait_ready(self, timeout: float = 30.0) -> None:
        self.probe.wait_for_action_server(None, self.name, timeout, client=self.client)

    def send(self, goal, timeout: float = 10.0):
        feedback = []
        # Sent from the executor thread: rclpy 9.1.2's send_goal_async races the executor
        # when the response arrives before it registered its done-callback (seen as
        # "list.remove(x): x not in list" in ActionClient.remove_future on a loaded machine).
        future = self.probe.run_on_executor(lambda: self.client.send_goal_async(
            goal, feedback_callback=lambda f: feedback.append((time.monotonic(), f.feedback))),
            f"{self.name} goal sent")
        handle = self.probe.wait_future(future, timeout, f"{self.name} goal response")
        assert handle.accepted, f"{self.name}: goal rejected"
        return handle, feedback

    def result(self, handle, timeout: float = 60.0):
        result = self.probe.run_on_executor(handle.get_result_async, f"{self.name} result asked")
        response = self.probe.wait_future(result, timeout, f"{self.name} result")
        return response.status, response.result

    def run(self, goal, timeout: float = 60.0):
        handle, feedback = self.send(goal)
        status, result = self.result(handle, timeout)
        return result, feedback, status


def pose_goal(x, y, z, quat=DOWN, frame="world", motion=MoveToPose.Goal.FREE, **fields):
    goal = MoveToPose.Goal()
    goal.target.header.frame_id = frame
    p, o = goal.target.pose.position, goal.target.pose.orientation
    p.x, p.y, p.z = float(x), float(y), float(z)
    o.x, o.y, o.z, o.w = (float(v) for v in quat)
    goal.motion = motion
    for key, value in fields.items():
        setattr(goal, key, value)
    return goal


def joints_goal(names, positions, **fields):
    goal = MoveToJoints.Goal(joint_names=list(names), positions=[float(v) for v in positions])
    for key, value in fields.items():
        setattr(goal, key, value)
    return goal


def gripper_goal(mode=GripperCommand.Goal.PARALLEL, **fields):
    goal = GripperCommand.Goal(mode=mode)
    for key, value in fields.items():
        setattr(goal, key, value)
    return goal


def result_position(result):
    p = result.final_pose.pose.position
    return np.array([p.x, p.y, p.z])


def pybullet_loaded(pid: int) -> bool:
    """True if the process has pybullet's extension module mapped (i.e. imported it)."""
    return "pybullet.cpython" in Path(f"/proc/{pid}/maps").read_text()


def finite(x) -> bool:
    return all(math.isfinite(v) for v in np.ravel(x))


class ObjectWatcher:
    """Latest ground-truth object poses from the sim's `objects` topic (test setup only)."""

    def __init__(self, probe, topic: str = "/objects"):
        from robot_tasks_interfaces.msg import ObjectStateArray

        self.objects = {}
        probe.node.create_subscription(ObjectStateArray, topic, self._on, 10)

    def _on(self, msg):
        self.objects = {o.name: o for o in msg.objects}

    def position(self, name):
        p = self.objects[name].pose.position
        return np.array([p.x, p.y, p.z])

    def yaw_and_roll(self, name):
        o = self.objects[name].pose.orientation
        x, y, z, w = o.x, o.y, o.z, o.w
        yaw = math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
        roll = math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
        return yaw, roll


def down_with_yaw(yaw: float):
    """Quaternion (x, y, z, w) of a tool pointing down, turned by `yaw` about world z."""
    half = 0.5 * yaw
    # Rz(yaw) * Rx(pi): (cos h, 0, 0, sin h) * (0, 1, 0, 0) in (w, x, y, z)
    return (math.cos(half), math.sin(half), 0.0, 0.0)


def square_yaw(yaw: float) -> float:
    """A cube looks the same every 90 degrees: the equivalent yaw in [-45, 45] degrees."""
    return (yaw + math.pi / 4) % (math.pi / 2) - math.pi / 4
