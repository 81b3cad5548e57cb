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
    motion = client.send(trajectory_msg)      # a ControllerMotion; the previous one is superseded
    motion.refused / motion.outcome()         # polled by the goal loop
    client.stop()                             # cancel whatever motion runs now
"""
from __future__ import annotations

from action_msgs.msg import GoalStatus
from control_msgs.action import FollowJointTrajectory
from rclpy.action import ActionClient

from robot_tasks.ros.error_codes import code_name

STATUS_NAMES = {GoalStatus.STATUS_SUCCEEDED: "SUCCEEDED", GoalStatus.STATUS_ABORTED: "ABORTED",
                GoalStatus.STATUS_CANCELED: "CANCELED"}


class ControllerMotion:
    """One goal sent to the trajectory controller, from the send to its result."""

    def __init__(self, send_future):
        self.handle = None
        self._result_future = None
        self._stop_requested = False
        self._send_future = send_future
        send_future.add_done_callback(self._on_response)

    def _on_response(self, future) -> None:
        self.handle = future.result()
        if not self.handle.accepted:
            return
        self._result_future = self.handle.get_result_async()
        if self._stop_requested:                 # stopped while the goal was in flight
            self.handle.cancel_goal_async()

    @property
    def answered(self) -> bool:
        return self.handle is not None

    @property
    def refused(self) -> bool:
        return self.handle is not None and not self.handle.accepted

    def outcome(self):
        """(status name, error_code name, error_string) once the controller has ended the goal."""
        future = self._result_future
        if future is None or not future.done():
            return None
        response = future.result()
        return (STATUS_NAMES.get(response.status, f"STATUS_{response.status}"),
                code_name(FollowJointTrajectory.Result, response.result.error_code),
                response.result.error_string)

    def stop(self) -> None:
        """Cancel the goal (JTC holds the measured position); a no-op once it has ended."""
        self._stop_requested = True
        if self.handle is not None and self.handle.accepted and not self._result_future.done():
            self.handle.cancel_goal_async()


class TrajectoryControllerClient:
    """Sends whole trajectories to one joint_trajectory_controller and stops them."""

    def __init__(self, node, action_name: str):
        self.client = ActionClient(node, FollowJointTrajectory, action_name)
        namespace = node.get_namespace().rstrip("/")
        self.action_name = action_name if action_name.startswith("/") else f"{namespace}/{action_name}"
        self._latest: ControllerMotion | None = None

    def ready(self) -> bool:
        return self.client.server_is_ready()

    def send(self, trajectory_msg) -> ControllerMotion:
        motion = ControllerMotion(self.client.send_goal_async(
            FollowJointTrajectory.Goal(trajectory=trajectory_msg)))
        self._latest = motion
        return motion

    def stop(self) -> None:
        """Stop the latest motion (the one the controller runs: a newer goal preempts older)."""
        if self._latest is not None:
            self._latest.stop()

    def destroy(self) -> None:
        self.client.destroy()
