"""The arm server's side of joint_trajectory_controller: a FollowJointTrajectory client.

ros2_control moves an arm through its joint_trajectory_controller (JTC), and the way to
know what became of a trajectory is the controller's `follow_joint_trajectory` action
(control_msgs): the goal is refused while the controller is inactive or when the
trajectory breaks one of its rules; it ends SUCCEEDED within the controller's goal
tolerances, ABORTED with PATH_TOLERANCE_VIOLATED / GOAL_TOLERANCE_VIOLATED (the controller
then holds where the arm is), ABORTED with INVALID_GOAL when another goal preempted it,
or CANCELED when we cancelled it. Cancelling is also how a motion is stopped: JTC holds
the measured position. (Publishing an empty trajectory on JTC's topic stops nothing: it is
rejected as "Empty trajectory received.")

    client = TrajectoryControllerClient(node, "joint_trajectory_controller/follow_joint_trajectory")
    motion = client.send(trajectory_msg)      # a ControllerMotion (robot_tasks/ros/driver_goal.py)
    motion.refused / motion.outcome()         # polled by the goal loop
    client.stop()                             # cancel whatever motion runs now
"""
from __future__ import annotations

from rclpy.action import ActionClient

from control_msgs.action import FollowJointTrajectory
from robot_tasks.ros.driver_goal import DriverGoal
from robot_tasks.ros.error_codes import code_name


class ControllerMotion(DriverGoal):
    """One trajectory goal: a DriverGoal whose outcome names the controller's error code."""

    def outcome(self):
        """(status name, error_code name, error_string) once the controller has ended the goal."""
        ended = super().outcome()
        if ended is None:
            return None
        status, result = ended
        return status, code_name(FollowJointTrajectory.Result, result.error_code), result.error_string


class TrajectoryControllerClient:
    """Sends whole trajectories to one joint_trajectory_controller and stops them."""

    def __init__(self, node, action_name: str):
        self.client = ActionClient(node, FollowJointTrajectory, action_name)
        self.action_name = node.resolve_topic_name(action_name)   # after namespace and remapping, for messages
        self._latest: ControllerMotion | None = None

    def ready(self) -> bool:
        return self.client.server_is_ready()

    def send(self, trajectory_msg) -> ControllerMotion:
        motion = ControllerMotion(self.client, FollowJointTrajectory.Goal(trajectory=trajectory_msg))
        self._latest = motion
        return motion

    def stop(self) -> None:
        """Stop the latest motion (the one the controller runs: a newer goal preempts older)."""
        if self._latest is not None:
            self._latest.cancel()

    def destroy(self) -> None:
        self.client.destroy()
