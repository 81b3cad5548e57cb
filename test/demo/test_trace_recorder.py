"""TraceRecorder over real DDS: `matched()` says when both control-step topics have a publisher,
and `received()` counts each stream only over the steps both cover, so a gripper publisher that
starts late does not look like lost messages, while a step lost from one stream still shows
(`missing_steps()`, which a finished demo run waits on for a resend)."""
from __future__ import annotations

import pytest

from robot_tasks.testing.ros_test_node import RosTestNode

pytestmark = pytest.mark.ros


def _step(stamp_ns: int, width: int):
    from robot_tasks_interfaces.msg import JointControllerState

    msg = JointControllerState()
    msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(stamp_ns, 1_000_000_000)
    msg.reference.positions = [0.001 * stamp_ns / 1e6] * width
    msg.feedback.positions = [0.0] * width
    return msg


def test_late_gripper_is_not_a_loss_and_a_lost_step_is(ros_env, launcher, ros_node):
    from rclpy.qos import QoSProfile, ReliabilityPolicy

    from robot_tasks.controller_topics import ARM_STATE_TOPIC, GRIPPER_STATE_TOPIC, under
    from robot_tasks.demo.trace_recorder import TraceRecorder
    from robot_tasks_interfaces.msg import JointControllerState

    recorder = ros_node.run_on_executor(lambda: TraceRecorder(ros_node.node, "trace_test"), "create the recorder")
    assert not recorder.matched()
    qos = QoSProfile(depth=500, reliability=ReliabilityPolicy.RELIABLE)
    period = 4_166_667                          # 240 Hz, the sim's control step
    with RosTestNode("trace_test_publisher", ros_env, launcher=launcher) as sender:
        arm = sender.node.create_publisher(JointControllerState, under("trace_test", ARM_STATE_TOPIC), qos)
        sender.wait_for_subscriber("/" + under("trace_test", ARM_STATE_TOPIC))
        ros_node.wait_for(lambda: recorder.unmatched() == [recorder.topics[1]], "the arm's topic matched")
        assert not recorder.matched()           # the gripper's has no publisher yet
        for step in range(1, 21):               # 20 steps before the gripper's publisher exists
            arm.publish(_step(step * period, 7))
        gripper = sender.node.create_publisher(JointControllerState, under("trace_test", GRIPPER_STATE_TOPIC), qos)
        sender.wait_for_subscriber("/" + under("trace_test", GRIPPER_STATE_TOPIC))
        ros_node.wait_for(recorder.matched, "both topics matched")
        for step in range(21, 121):             # then both, but the gripper's step 60 is lost
            arm.publish(_step(step * period, 7))
            if step != 60:
                gripper.publish(_step(step * period, 2))
        ros_node.wait_for(lambda: recorder.counts == {"arm": 120, "gripper": 99}, "every sent step received")
    assert recorder.received() == {"arm": 100, "gripper": 99}
    trace = recorder.trace()
    assert len(trace) == 99 and trace.check()["missing_steps"] == 1
    assert recorder.missing_steps() == 1        # what a finished run waits on to come back
