"""TraceRecorder: collect a robot's per-step controller states from its topics.

A plain subscriber, so it records a real arm the same way as the sim: it listens to

    <ns>/joint_trajectory_controller/controller_state   robot_tasks_interfaces/JointControllerState
    <ns>/gripper_controller/controller_state            robot_tasks_interfaces/JointControllerState

(reliable, deep queues: one message per control step) and keeps (stamp, reference,
feedback) per message. `trace()` pairs the two streams into the (T, 9) state/action arrays
of robot_tasks.demo.trace.

A subscription receives only what is published after DDS has matched it with the
publisher, and the two topics match one at a time (on a loaded machine tenths of a second,
tens of control steps, apart). So a run waits for `matched()`
before it starts, and `received()` counts each stream only over the stamps both cover:
equal counts there mean no step was lost on the way.

    recorder = TraceRecorder(ros.node, "panda")       # the RosClient's node, spun elsewhere
    ...                                               # wait for recorder.matched(), run
    trace = recorder.trace(); trace.check(); trace.save(run_dir / "trace.npz")
"""
from __future__ import annotations

import threading

from rclpy.qos import QoSProfile, ReliabilityPolicy

from robot_tasks.controller_topics import ARM_STATE_TOPIC, GRIPPER_STATE_TOPIC, under
from robot_tasks.demo.trace import StepRecord, Trace, missing_steps
from robot_tasks_interfaces.msg import JointControllerState

# Messages the subscription holds for this process. A lost datagram is resent only after the
# writer's next heartbeat (Fast DDS: every 3 s), and the reader delivers a stream in order, so
# meanwhile every later step waits here: at rtf 0 (several times 240 Hz) a 1000-deep queue
# overflowed and the lost steps were given up (robot_tasks/nodes/sim/robot_io.py keeps as many).
QUEUE = 10_000


class TraceRecorder:
    def __init__(self, node, namespace: str):
        self._lock = threading.Lock()
        self._arm: list = []
        self._gripper: list = []
        self.counts = {"arm": 0, "gripper": 0}
        qos = QoSProfile(depth=QUEUE, reliability=ReliabilityPolicy.RELIABLE)
        self.topics = (under(namespace, ARM_STATE_TOPIC), under(namespace, GRIPPER_STATE_TOPIC))
        self._subscriptions = (
            node.create_subscription(JointControllerState, self.topics[0],
                                     lambda msg: self._keep(self._arm, "arm", msg), qos),
            node.create_subscription(JointControllerState, self.topics[1],
                                     lambda msg: self._keep(self._gripper, "gripper", msg), qos))

    def unmatched(self) -> list:
        """The topics whose subscription DDS has not yet matched with a publisher."""
        return [topic for topic, sub in zip(self.topics, self._subscriptions) if sub.get_publisher_count() == 0]

    def matched(self) -> bool:
        """Whether both subscriptions have a publisher: from then on every control step
        reaches the recorder."""
        return not self.unmatched()

    def received(self) -> dict:
        """Messages per stream with a stamp both streams cover (first to last common control
        step); `counts` has the totals."""
        with self._lock:
            arm, gripper = [r.stamp_ns for r in self._arm], [r.stamp_ns for r in self._gripper]
        if not arm or not gripper:
            return {"arm": 0, "gripper": 0}
        first, last = max(min(arm), min(gripper)), min(max(arm), max(gripper))
        return {"arm": sum(first <= s <= last for s in arm), "gripper": sum(first <= s <= last for s in gripper)}

    def missing_steps(self) -> int:
        """Control steps, between the first and last stamp both streams cover, that either
        stream lacks (robot_tasks.demo.trace.missing_steps over the steps both have)."""
        with self._lock:
            arm, gripper = {r.stamp_ns for r in self._arm}, {r.stamp_ns for r in self._gripper}
        return missing_steps(sorted(arm & gripper))

    def _keep(self, records: list, which: str, msg) -> None:
        stamp = msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec
        record = StepRecord(stamp, tuple(msg.reference.positions), tuple(msg.feedback.positions))
        with self._lock:
            records.append(record)
            self.counts[which] += 1

    def trace(self) -> Trace:
        with self._lock:
            return Trace.from_records(list(self._arm), list(self._gripper))
