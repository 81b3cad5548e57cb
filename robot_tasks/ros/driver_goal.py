"""One goal sent to a driver's action server, from the send to its result.

A server that is the client of a real driver's action (the arm server of
joint_trajectory_controller's follow_joint_trajectory, the gripper server of franka_gripper's
move/grasp) sends each goal from its own execute coroutine (the executor thread); the goal
response and the result arrive as futures, which the goal loop polls:

    goal = DriverGoal(client, Move.Goal(width=0.08, speed=0.1))
    goal.refused            # the driver rejected it
    goal.outcome()          # None while it runs; then ("SUCCEEDED" | "ABORTED" | "CANCELED", result)
    goal.cancel()           # ask the driver to cancel; a no-op once ended, sent on acceptance if
                            # the goal was still in flight

The goal carries an id of our own, so a goal response lost on the way (Fast DDS drops a
response to a client it has not matched yet) does not leave the goal unseen: `outcome()` asks
the driver for the goal's result by that id (robot_tasks/ros/goal_by_id.py) and follows the
goal from there when the driver has it.
"""
from __future__ import annotations

import time
import uuid

from action_msgs.msg import GoalStatus
from unique_identifier_msgs.msg import UUID

from robot_tasks.ros.goal_by_id import LateAcceptance

STATUS_NAMES = {GoalStatus.STATUS_SUCCEEDED: "SUCCEEDED", GoalStatus.STATUS_ABORTED: "ABORTED",
                GoalStatus.STATUS_CANCELED: "CANCELED"}


class DriverGoal:
    """The goal's handle once answered, its outcome once ended (see the module docstring)."""

    def __init__(self, client, goal_msg):
        self.handle = None
        self._result_future = None
        self._cancel_requested = False
        goal_id = UUID(uuid=list(uuid.uuid4().bytes))
        self._late = LateAcceptance(client, client._action_type, goal_id, sent_at=time.monotonic())
        client.send_goal_async(goal_msg, goal_uuid=goal_id).add_done_callback(self._on_response)

    def _on_response(self, future) -> None:
        if self.handle is not None:               # already followed by its id (the response was late)
            return
        self.handle = future.result()
        if not self.handle.accepted:
            return
        self._result_future = self.handle.get_result_async()
        if self._cancel_requested:               # cancelled while the goal was in flight
            self.handle.cancel_goal_async()

    @property
    def refused(self) -> bool:
        return self.handle is not None and not self.handle.accepted

    def outcome(self):
        if self.handle is None:
            adopted = self._late.check(time.monotonic())
            if adopted is not None:
                self.handle, self._result_future = adopted
                if self._cancel_requested:
                    self.handle.cancel_goal_async()
        future = self._result_future
        if future is None or not future.done():
            return None
        response = future.result()
        return STATUS_NAMES.get(response.status, f"STATUS_{response.status}"), response.result

    def cancel(self) -> None:
        self._cancel_requested = True
        if self.handle is not None and self.handle.accepted and not self._result_future.done():
            self.handle.cancel_goal_async()
