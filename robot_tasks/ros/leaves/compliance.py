"""Compliant-control leaves: CompliantMove (an action) and SwitchController (a service).

A tree does contact work in three moves: reach a stand-off pose with a trajectory
(MoveToPose), touch and press with a compliant controller (CompliantMove: a guarded
approach that stops at a force, then a press that holds a force along the surface's normal
while the target slides in its plane), and hand the arm back to the trajectory controller
(SwitchController activate="joint_trajectory_controller" deactivate="osc") before the next
MoveToPose. Which controller runs is visible in the XML, as is every target, force and
stiffness.
"""
from __future__ import annotations

from robot_tasks.bt import InputPort, NodeStatus, OutputPort
from robot_tasks.ros.leaves.action_node import RosActionNode
from robot_tasks.ros.leaves.service_node import RosServiceNode
from robot_tasks.ros.leaves.values import parse_float_list, parse_pose, parse_string_list


class CompliantMove(RosActionNode):
    """Glide a compliant controller's target to `pose` in `frame`, pushing `force` along the
    frame's z (robot_tasks_interfaces/action/CompliantMove).

    `pose` is "x;y;z[;qx;qy;qz;qw]" in `frame` (e.g. "wall"); `stiffness` six numbers
    (empty = the server's default); `stop_force` > 0 makes it a guarded move that succeeds
    at the first contact of that force and fails (NO_CONTACT) without one.
    """

    action_type = "robot_tasks_interfaces/action/CompliantMove"
    default_action_name = "compliant_move"

    @classmethod
    def provided_ports(cls):
        return super().provided_ports() + [
            InputPort("controller", str, default="", description="osc | hybrid_press; empty = server default"),
            InputPort("pose", description="target 'x;y;z[;qx;qy;qz;qw]' in `frame`"),
            InputPort("frame", str, default="world", description="world or a task frame of the server (wall)"),
            InputPort("force", float, default=0.0, description="N the tool pushes along the frame's z"),
            InputPort("stiffness", str, default="", description="'k1;..;k6' (1/s²); empty = server default"),
            InputPort("duration", float, default=0.0, description="s to glide the target there"),
            InputPort("hold", float, default=0.0, description="s to hold it afterwards"),
            InputPort("stop_force", float, default=0.0, description="N: guarded move, stop at contact; 0 = off"),
            InputPort("timeout", float, default=0.0, description="s; 0 = duration + hold + server margin"),
            OutputPort("normal_force", float, description="N measured along the frame's z at the end"),
            OutputPort("in_plane_error", float, description="m from the target in the frame's x-y plane"),
        ]

    def set_goal(self, goal) -> bool:
        position, quaternion, frame = parse_pose(self.get_input("pose"))
        goal.controller = self.get_input("controller")
        goal.target.header.frame_id = frame or self.get_input("frame")
        p, o = goal.target.pose.position, goal.target.pose.orientation
        p.x, p.y, p.z = position
        o.x, o.y, o.z, o.w = quaternion
        goal.wrench.force.z = self.get_input("force")
        goal.stiffness = parse_float_list(self.get_input("stiffness"), "stiffness")
        for port in ("duration", "hold", "stop_force", "timeout"):
            setattr(goal, port, self.get_input(port))
        return True

    def on_result(self, result, status) -> NodeStatus:
        for port, value in (("normal_force", result.normal_force),
                            ("in_plane_error", result.in_plane_error)):
            if port in self.config.output_ports:
                self.set_output(port, float(value))
        return self.fail_unless_succeeded(result) or NodeStatus.SUCCESS


class SwitchController(RosServiceNode):
    """Switch the arm's controllers through controller_manager (controller_manager_msgs/srv/
    SwitchController, as ros2_control's controller_manager serves it).

    `activate` and `deactivate` are "a;b" lists. One arm runs one controller: to hand the
    arm from "osc" back to the trajectory controller, name both (activate=
    "joint_trajectory_controller" deactivate="osc"); controller_manager refuses to activate a
    controller while another one holds its joints. `strictness` "strict" (the default: all
    or nothing, so a tree hears of any failure) or "best_effort". The leaf fails with
    controller_manager's message when the response's `ok` is false.
    """

    default_service_name = "controller_manager/switch_controller"
    STRICTNESS = {"strict": 2, "best_effort": 1}      # SwitchController.Request.STRICT / BEST_EFFORT

    def __init__(self, name, config, ros_node):
        from controller_manager_msgs.srv import SwitchController as Srv

        self.service_type = Srv
        super().__init__(name, config, ros_node)

    @classmethod
    def provided_ports(cls):
        return super().provided_ports() + [
            InputPort("activate", str, default="", description="'a;b' controllers to activate"),
            InputPort("deactivate", str, default="", description="'a;b' controllers to deactivate"),
            InputPort("strictness", str, default="strict", description="strict | best_effort"),
            OutputPort("message", str, description="controller_manager's answer"),
        ]

    def set_request(self, request) -> bool:
        request.activate_controllers = parse_string_list(self.get_input("activate"), "activate")
        request.deactivate_controllers = parse_string_list(self.get_input("deactivate"), "deactivate")
        strictness = self.get_input("strictness")
        if strictness not in self.STRICTNESS:
            raise ValueError(f"strictness '{strictness}': use strict or best_effort")
        request.strictness = self.STRICTNESS[strictness]
        return True

    def on_response(self, response) -> NodeStatus:
        return self.answered(response.ok, response.message)
