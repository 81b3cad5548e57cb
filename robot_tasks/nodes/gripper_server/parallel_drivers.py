"""The gripper server's clients of a parallel gripper's driver: franka_gripper or a GripperCommand action.

Each turns a ParallelCommand into the driver's goal and the driver's end into a verdict
(the rules, with their sources, are in robot_tasks.control.gripper_drivers):

    driver = FrankaDriver(node, params)           # or GripperActionDriver(node, params)
    driver.ready()                                # its action servers are up
    call = driver.call(command, width_now)        # which action, which fields
    goal = driver.send(call)                      # a DriverGoal
    verdict, message = driver.judge(call, goal.outcome(), width)   # or MotionFailure
"""
from __future__ import annotations

from rclpy.action import ActionClient

from control_msgs.action import GripperCommand as ControlGripperCommand
from franka_msgs.action import Grasp, Move
from franka_msgs.msg import GraspEpsilon
from robot_tasks.control.gripper_drivers import franka_call, gripper_action_call, judge_franka, judge_gripper_action
from robot_tasks.ros.driver_goal import DriverGoal


def _resolved(node, name: str) -> str:
    return node.resolve_topic_name(name)        # (action names resolve as topic names do)


class FrankaDriver:
    """franka_gripper's `move` and `grasp` (franka_msgs), under the node `params.franka_gripper`."""

    def __init__(self, node, params):
        self.params, self.settings = params, params.settings
        base = params.franka_gripper.rstrip("/")
        self.clients = {"move": ActionClient(node, Move, f"{base}/move"),
                        "grasp": ActionClient(node, Grasp, f"{base}/grasp")}
        self.names = {kind: _resolved(node, f"{base}/{kind}") for kind in self.clients}
        self.label = f"franka_gripper '{_resolved(node, base)}'"

    def ready(self) -> bool:
        return all(client.server_is_ready() for client in self.clients.values())

    def missing(self) -> str:
        absent = [self.names[k] for k, c in self.clients.items() if not c.server_is_ready()]
        return f"no action server {', '.join(absent)} (is franka_gripper running?)"

    def call(self, command, width_now: float):
        return franka_call(command, width_now, self.params.speed, self.params.grasp_epsilon_inner, self.settings)

    def send(self, call) -> DriverGoal:
        f = call.fields
        if call.kind == "move":
            goal = Move.Goal(width=f["width"], speed=f["speed"])
        else:
            goal = Grasp.Goal(width=f["width"], speed=f["speed"], force=f["force"],
                              epsilon=GraspEpsilon(inner=f["epsilon_inner"], outer=f["epsilon_outer"]))
        return DriverGoal(self.clients[call.kind], goal)

    def judge(self, call, outcome, width: float):
        status, result = outcome
        return judge_franka(call, status, result.success, result.error, width, self.settings)


class GripperActionDriver:
    """A control_msgs/GripperCommand action (`params.gripper_action`)."""

    def __init__(self, node, params):
        self.params, self.settings = params, params.settings
        self.client = ActionClient(node, ControlGripperCommand, params.gripper_action)
        self.label = f"gripper action '{_resolved(node, params.gripper_action)}'"

    def ready(self) -> bool:
        return self.client.server_is_ready()

    def missing(self) -> str:
        return f"no action server {self.label} (is the gripper's controller running?)"

    def call(self, command, width_now: float):
        return gripper_action_call(command, width_now, self.params.position_per_width, self.settings)

    def send(self, call) -> DriverGoal:
        goal = ControlGripperCommand.Goal()
        goal.command.position = call.fields["position"]
        goal.command.max_effort = call.fields["max_effort"]
        return DriverGoal(self.client, goal)

    def judge(self, call, outcome, width: float):
        status, _result = outcome
        return judge_gripper_action(call, status, width, self.settings)


DRIVERS = {"franka": FrankaDriver, "gripper_action": GripperActionDriver}
