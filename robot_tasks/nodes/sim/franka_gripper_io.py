"""franka_gripper's ROS face for one simulated Panda hand: the sim is the gripper's driver.

A real Franka's hand is served by franka_gripper's node (frankarobotics/franka_ros2,
branch jazzy, v3.4.0: `franka_gripper/src/gripper_action_server.cpp`; its launch file
`franka_gripper/launch/gripper.launch.py` names the node `franka_gripper` in the robot's
namespace). Its graph, which this class serves under `<ns>/franka_gripper/`:

  action  homing           franka_msgs/action/Homing         result: success, error
  action  move             franka_msgs/action/Move           (width, speed)
  action  grasp            franka_msgs/action/Grasp          (width, epsilon{inner, outer}, speed, force)
  action  gripper_action   control_msgs/action/GripperCommand (command{position, max_effort})
  service stop             std_srvs/srv/Trigger
  pub     joint_states     sensor_msgs/JointState  (<robot>_finger_joint1/2, each width / 2)

and its rules:
* every goal is accepted (handleGoal: ACCEPT_AND_EXECUTE); homing/move/grasp end SUCCEEDED
  when libfranka's command returns true, else ABORTED with success=false and the
  exception's text in `error` ("" for a grasp whose width misses the epsilons);
* a cancel calls stop() and ends the goal CANCELED;
* feedback: `current_width` (homing/move/grasp), `position` = the width (gripper_action);
* gripper_action: the target width is 2 x command.position; out of [0, max width] ->
  ABORTED at once; within 1e-4 m of the width now -> SUCCEEDED at once; wider -> move at the
  default speed (0.1 m/s), narrower -> grasp with command.max_effort and the default
  epsilons (0.005 m); the result's `position` is the *full* width (current_gripper_state_.
  width), `effort` 0, `stalled` false, `reached_goal` = the command's answer;
* joint_states: both fingers at width / 2, velocity and effort 0 (franka_gripper publishes
  on a wall timer at `state_publish_rate`; the sim at its joint_state_rate, while somebody
  listens).
What the hand does with each command is robot_tasks.sim.franka_hand.FrankaHand.

Threads: callbacks run on the executor thread and hand the World work to the stepping
thread (`node.inbox`); `poll()` runs there after steps and only writes a goal's outcome,
which the goal's execute coroutine reads.
"""
from __future__ import annotations

import time

from rclpy.action import ActionServer, CancelResponse, GoalResponse
from sensor_msgs.msg import JointState
from std_srvs.srv import Trigger

from control_msgs.action import GripperCommand
from franka_msgs.action import Grasp, Homing, Move
from robot_tasks.nodes.sim.convert import set_stamp
from robot_tasks.ros.async_tools import sleep
from robot_tasks.sim.franka_hand import ABORTED, FrankaHand

NODE = "franka_gripper"
FEEDBACK_PERIOD = 1.0 / 30.0     # wall s: franka_gripper's feedback_publish_rate (30 Hz in its config)
POLL_S = 0.005                   # wall s between an execute coroutine's looks at its outcome


class HandGoal:
    """One accepted goal: written by the stepping thread, read by its execute coroutine."""

    __slots__ = ("handle", "action", "command", "outcome")

    def __init__(self, handle, action):
        self.handle, self.action = handle, action
        self.command = None      # the FrankaHand command serving it
        self.outcome = None      # ("succeed" | "abort" | "canceled", result message)


class FrankaGripperIO:
    """franka_gripper's interfaces for one RobotIO whose robot has a ParallelGripper."""

    def __init__(self, node, robot_io):
        self.node, self.io = node, robot_io
        self._log = node.get_logger()
        self.hand = FrankaHand(robot_io.robot.gripper)
        self._goals: dict[bytes, HandGoal] = {}
        self._width = self.hand.width()            # the last measured width (stepping thread writes)
        name = lambda rel: robot_io.topic(f"{NODE}/{rel}")  # noqa: E731
        self.joint_names = list(robot_io.robot.gripper.finger_joints)
        self._state_pub = node.create_publisher(JointState, name("joint_states"), 1)
        node.create_service(Trigger, name("stop"), self._on_stop)
        self.servers = [ActionServer(node, action, name(rel), execute_callback=self._execute,
                                     goal_callback=lambda _goal: GoalResponse.ACCEPT,
                                     handle_accepted_callback=lambda h, a=action: self._on_accepted(h, a),
                                     cancel_callback=self._on_cancel)
                        for rel, action in (("homing", Homing), ("move", Move), ("grasp", Grasp),
                                            ("gripper_action", GripperCommand))]

    def rebind(self) -> None:
        """After World.reset(): a new gripper; the running goal's hand is gone (stepping thread)."""
        running = self.hand.running
        self.hand = FrankaHand(self.io.robot.gripper)
        for goal in list(self._goals.values()):
            if goal.command is running and running is not None:
                running.finish(False, ABORTED)
                self._end(goal)

    # --- executor thread ---------------------------------------------------------------
    def _on_accepted(self, handle, action) -> None:
        goal = HandGoal(handle, action)
        self._goals[bytes(handle.goal_id.uuid)] = goal
        self.node.inbox.post(self._begin, goal)
        handle.execute()

    def _on_cancel(self, handle) -> CancelResponse:
        goal = self._goals.get(bytes(handle.goal_id.uuid))
        if goal is not None:
            self.node.inbox.post(self._cancel, goal)
        return CancelResponse.ACCEPT

    def _on_stop(self, _request, response):
        try:
            response.success = bool(self.node.inbox.call(self._stop))
        except Exception as err:  # noqa: BLE001 - the sim is stopping: say so
            response.success, response.message = False, f"the simulation cannot stop the gripper now ({err})"
        return response

    async def _execute(self, handle):
        goal = self._goals[bytes(handle.goal_id.uuid)]
        next_feedback = 0.0
        try:
            while goal.outcome is None:
                if time.monotonic() >= next_feedback:
                    next_feedback = time.monotonic() + FEEDBACK_PERIOD
                    handle.publish_feedback(self._feedback(goal.action))
                await sleep(self.node, POLL_S)
            status, result = goal.outcome
            getattr(handle, status)()
            return result
        finally:
            self._goals.pop(bytes(handle.goal_id.uuid), None)

    def _feedback(self, action):
        if action is GripperCommand:
            return GripperCommand.Feedback(position=self._width, effort=0.0)
        return action.Feedback(current_width=self._width)

    # --- stepping thread -----------------------------------------------------------------
    def _begin(self, goal: HandGoal) -> None:
        if goal.outcome is not None:                 # cancelled before it started
            return
        now, request = self.node.ros_time(), goal.handle.request
        if goal.action is Homing:
            goal.command = self.hand.homing(now)
        elif goal.action is Move:
            goal.command = self.hand.move(request.width, request.speed, now)
        elif goal.action is Grasp:
            goal.command = self.hand.grasp(request.width, request.speed, request.force,
                                           request.epsilon.inner, request.epsilon.outer, now)
        else:
            verdict, goal.command = self.hand.gripper_command(request.command.position,
                                                             request.command.max_effort, now)
            if verdict == "out_of_range":
                self._log.error(f"{self.io.name}: GripperServer: Commanding out of range width! max_width "
                                f"= {self.hand.max_width:f} command = {2 * request.command.position:f}")
                goal.outcome = ("abort", GripperCommand.Result())
                return
            if verdict == "same":
                goal.outcome = ("succeed", GripperCommand.Result(position=self.hand.width(), reached_goal=True))
                return
        self._end_superseded(goal)
        if goal.command.done:                        # refused at once ("Command failed!")
            self._end(goal)

    def _end_superseded(self, newer: HandGoal) -> None:
        """A newer command ended the one an older goal waited for (ABORTED)."""
        for goal in list(self._goals.values()):
            if goal is not newer and goal.outcome is None and goal.command is not None and goal.command.done:
                self._end(goal)

    def _cancel(self, goal: HandGoal) -> None:
        if goal.outcome is not None:
            return
        if goal.command is not None and goal.command is self.hand.running:
            self.hand.stop()
        if goal.command is not None and goal.command.done:
            goal.outcome = ("canceled", self._result(goal))
        else:                                        # not started yet
            goal.outcome = ("canceled", self._result(goal, success=False, error=ABORTED))

    def _stop(self) -> bool:
        stopped = self.hand.stop()
        for goal in list(self._goals.values()):
            if goal.outcome is None and goal.command is not None and goal.command.done:
                self._end(goal)
        return stopped

    def _end(self, goal: HandGoal) -> None:
        status = "succeed" if goal.command.success else "abort"
        goal.outcome = (status, self._result(goal))

    def _result(self, goal: HandGoal, success: bool | None = None, error: str | None = None):
        command = goal.command
        success = command.success if success is None else success
        error = command.error if error is None else error
        if goal.action is GripperCommand:
            return GripperCommand.Result(position=self.hand.width(), effort=0.0, stalled=False,
                                         reached_goal=success)
        return goal.action.Result(success=success, error=error)

    def poll(self, seconds: float) -> None:
        """After steps: let the hand judge its running command; end the goal it served."""
        self._width = self.hand.width()
        finished = self.hand.poll(seconds)
        if finished is None:
            return
        for goal in list(self._goals.values()):
            if goal.command is finished and goal.outcome is None:
                self._end(goal)

    def publish_state(self, seconds: float) -> None:
        """franka_gripper/joint_states: both fingers at half the width (for whoever listens)."""
        if self._state_pub.get_subscription_count() == 0:
            return
        half = self.hand.width() / 2.0
        msg = JointState(name=self.joint_names, position=[half, half], velocity=[0.0, 0.0], effort=[0.0, 0.0])
        set_stamp(msg.header.stamp, seconds)
        self._state_pub.publish(msg)
