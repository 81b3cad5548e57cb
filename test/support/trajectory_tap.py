"""A tap between a server and the trajectory controller: records every trajectory sent.

    action  <ns>/tap/follow_joint_trajectory  (control_msgs/FollowJointTrajectory): each goal
            is forwarded unchanged to <ns>/joint_trajectory_controller/follow_joint_trajectory
            and its result passed back
    pub     <ns>/tap/trajectories  (trajectory_msgs/JointTrajectory, reliable, keep-all
            latched depth 50): the trajectory of each goal, as received

Point a server's `controller_action` at `tap/follow_joint_trajectory` and subscribe to the
topic to check what it sends. Cancels are forwarded too.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # repo root, for robot_tasks

from robot_tasks.ros.dds import configure_loopback_dds  # noqa: E402  (imports no ROS)
from robot_tasks.ros.node_main import run_node  # noqa: E402  (imports no ROS)

configure_loopback_dds()

from rclpy.action import ActionClient, ActionServer, CancelResponse  # noqa: E402
from rclpy.node import Node  # noqa: E402
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy  # noqa: E402
from trajectory_msgs.msg import JointTrajectory  # noqa: E402

from control_msgs.action import FollowJointTrajectory  # noqa: E402

LATCHED = QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)


class TrajectoryTap(Node):
    def __init__(self):
        super().__init__("trajectory_tap")
        self.pub = self.create_publisher(JointTrajectory, "tap/trajectories", LATCHED)
        self.client = ActionClient(self, FollowJointTrajectory,
                                   "joint_trajectory_controller/follow_joint_trajectory")
        self.server = ActionServer(self, FollowJointTrajectory, "tap/follow_joint_trajectory",
                                   execute_callback=self.execute,
                                   cancel_callback=lambda _goal: CancelResponse.ACCEPT)

    async def execute(self, handle):
        self.pub.publish(handle.request.trajectory)
        downstream = await self.client.send_goal_async(handle.request)
        if not downstream.accepted:
            handle.abort()
            return FollowJointTrajectory.Result(error_code=-1, error_string="rejected downstream")
        result_future = downstream.get_result_async()
        while not result_future.done():
            if handle.is_cancel_requested:
                await downstream.cancel_goal_async()
                break
            await _sleep(self, 0.01)
        response = await result_future
        if handle.is_cancel_requested:
            handle.canceled()
        elif response.result.error_code == 0:
            handle.succeed()
        else:
            handle.abort()
        return response.result


async def _sleep(node, seconds):
    """Yield to the executor for about `seconds` (a one-shot timer's future)."""
    from rclpy.task import Future

    done = Future()
    timer = node.create_timer(seconds, lambda: done.set_result(True) if not done.done() else None)
    await done
    node.destroy_timer(timer)


def main() -> int:
    return run_node(TrajectoryTap, configure_dds=False)  # DDS: set up above


if __name__ == "__main__":
    sys.exit(main())
