"""TraceRecorder: collect a robot's per-step controller states from its topics.

A plain subscriber, so it records a real arm the same way as the sim: it listens to

    <ns>/joint_trajectory_controller/controller_state   robot_tasks_interfaces/JointControllerState
    <ns>/gripper_controller/controller_state            robot_tasks_interfaces/JointControllerState

(reliable, deep queues: one message per control step) and keeps (stamp, reference,
feedback) per message. `trace()` pairs the two streams into the (T, 9) state/action arrays
of robot_tasks.demo.trace.

    recorder = TraceRecorder(ros.node, "panda")       # the RosClient's node, spun elsewhere
    ...
    trace = recorder.trace(); trace.check(); trace.save(run_dir / "trace.npz")
"""
from __future__ import annotations

import threading

from rclpy.qos import QoSProfile, ReliabilityPolicy

from robot_tasks.controller_topics import ARM_STATE_TOPIC, GRIPPER_STATE_TOPIC, under
from robot_tasks.demo.trace import StepRecord, Trace
from robot_tasks_interfaces.msg import JointControllerState

QUEUE = 1000


class TraceRecorder:
    def __init__(self, node, namespace: str):
        self._lock = threading.Lock()
        self._arm: list = []
        self._gripper: list = []
        self.counts = {"arm": 0, "gripper": 0}
        qos = QoSProfile(depth=QUEUE, reliability=ReliabilityPolicy.RELIABLE)
        self.topics = (under(namespace, ARM_STATE_TOPIC), under(namespace, GRIPPER_STATE_TOPIC))
        node.create_subscription(JointControllerState, self.topics[0],
                                 lambda msg: self._keep(self._arm, "arm", msg), qos)
        node.create_subscription(JointControllerState, self.topics[1],
                                 lambda msg: self._keep(self._gripper, "gripper", msg), qos)

    def _keep(self, records: list, which: str, msg) -> None:
        stamp = msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec
        record = StepRecord(stamp, tuple(msg.reference.positions), tuple(msg.feedback.positions))
        with self._lock:
            records.append(record)
            self.counts[which] += 1

    def trace(self) -> Trace:
        with self._lock:
            return Trace.from_records(list(self._arm), list(self._gripper))
