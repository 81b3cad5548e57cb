"""GripperCommand leaf: open/close a parallel gripper or switch a suction cup."""
from __future__ import annotations

from robot_tasks.bt import InputPort, NodeStatus, OutputPort
from robot_tasks.ros.error_codes import options
from robot_tasks.ros.leaves.action_node import RosActionNode
from robot_tasks.ros.leaves.values import choice

MODE_NAMES = ("PARALLEL", "SUCTION", "FORCE_HOLD")   # GripperCommand.Goal constants; numbers from the interface


class GripperCommand(RosActionNode):
    """Command the end effector (robot_tasks_interfaces/action/GripperCommand).

    mode="parallel": `width` (m) and `max_effort` (N); mode="force_hold": the same, and
    once an object stops the fingers they keep pushing with `max_effort` (force control);
    mode="suction": `suction` (true = on). With `require_object="true"` the leaf fails unless the gripper
    reports an object (closing on nothing, or suction that caught nothing).
    """

    action_type = "robot_tasks_interfaces/action/GripperCommand"
    default_action_name = "gripper_command"

    @classmethod
    def provided_ports(cls):
        return super().provided_ports() + [
            InputPort("mode", str, default="parallel", description="parallel | force_hold | suction"),
            InputPort("width", float, default=0.0, description="m between the fingers (parallel)"),
            InputPort("max_effort", float, default=0.0, description="N squeezing force; 0 = server default"),
            InputPort("suction", bool, default=False, description="vacuum on (suction)"),
            InputPort("timeout", float, default=0.0, description="s; 0 = server default"),
            InputPort("require_object", bool, default=False, description="fail unless an object is held"),
            OutputPort("object_detected", bool, description="the gripper holds something"),
            OutputPort("measured_width", float, description="m between the fingers at the end"),
        ]

    def set_goal(self, goal) -> bool:
        goal.mode = choice(self.get_input("mode"), options(type(goal), MODE_NAMES), "mode")
        goal.width = self.get_input("width")
        goal.max_effort = self.get_input("max_effort")
        goal.suction_on = self.get_input("suction")
        goal.timeout = self.get_input("timeout")
        return True

    def on_result(self, result, status) -> NodeStatus:
        for port, value in (("object_detected", bool(result.object_detected)),
                            ("measured_width", float(result.width))):
            if port in self.config.output_ports:
                self.set_output(port, value)
        failed = self.fail_unless_succeeded(result)
        if failed is not None:
            return failed
        if self.get_input("require_object") and not result.object_detected:
            return self.fail_with_result("no object in the gripper")
        return NodeStatus.SUCCESS
