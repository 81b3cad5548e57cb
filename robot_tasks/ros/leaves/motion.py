"""Arm-motion leaves: MoveToPose and MoveToJoints (clients of the arm_server actions)."""
from __future__ import annotations

from robot_tasks.bt import InputPort, NodeStatus, OutputPort
from robot_tasks.ros.error_codes import options
from robot_tasks.ros.leaves.action_node import RosActionNode
from robot_tasks.ros.leaves.values import choice, parse_float_list, parse_pose, parse_string_list

MOTION_NAMES = ("FREE", "PLANNED", "CARTESIAN", "BOUNDED")   # MoveToPose.Goal constants; numbers from the interface


def _motion_settings_ports():
    return [
        InputPort("velocity_scaling", float, default=0.0,
                  description="fraction of the joint velocity limits, (0, 1]; 0 = server default"),
        InputPort("timeout", float, default=0.0, description="s; give up after this long; 0 = server default"),
    ]


class MoveToPose(RosActionNode):
    """Move the tool frame to a pose (robot_tasks_interfaces/action/MoveToPose).

    Give the target either as `pose` ("x;y;z" or "x;y;z;qx;qy;qz;qw", a dict, a
    PoseStamped, or a detection from DetectObjects) or as the ports x, y, z
    (qx, qy, qz, qw optional, identity by default). `orientation` ("qx;qy;qz;qw")
    replaces the target's orientation, e.g. a gripper pointing down ("1;0;0;0") above
    a detected object; `z_offset` is added to z, e.g. to approach 10 cm above it.
    motion="bounded" moves in equal joint steps of at most `max_dq` rad per command step
    (at least `min_steps` of them), then holds: the carry of a grasped object.
    """

    action_type = "robot_tasks_interfaces/action/MoveToPose"
    default_action_name = "move_to_pose"

    @classmethod
    def provided_ports(cls):
        return super().provided_ports() + [
            InputPort("pose", description="target: 'x;y;z[;qx;qy;qz;qw]', dict, PoseStamped or detection"),
            *[InputPort(k, float, description=f"target {k} (used when `pose` is not set)")
              for k in ("x", "y", "z", "qx", "qy", "qz", "qw")],
            InputPort("orientation", description="'qx;qy;qz;qw' replacing the target's orientation"),
            InputPort("z_offset", float, default=0.0, description="m added to the target z"),
            InputPort("frame", str, default="world", description="frame of the target (world or base frame)"),
            InputPort("motion", str, default="free", description="free | planned | cartesian | bounded"),
            InputPort("max_dq", float, default=0.0,
                      description="rad per command step (bounded); 0 = server default"),
            InputPort("min_steps", int, default=0, description="fewest steps (bounded); 0 = server default"),
            InputPort("position_tolerance", float, default=0.0, description="m; 0 = server default"),
            InputPort("orientation_tolerance", float, default=0.0, description="rad; 0 = server default"),
            *_motion_settings_ports(),
            OutputPort("position_error", float, description="m between the reached and the target position"),
        ]

    def set_goal(self, goal) -> bool:
        pose = self.get_input("pose", default=None)
        if pose is not None:
            position, quaternion, frame = parse_pose(pose)
        else:
            values = {k: self.get_input(k, default=None) for k in ("x", "y", "z", "qx", "qy", "qz", "qw")}
            missing = [k for k in "xyz" if values[k] is None]
            if missing:
                raise ValueError(f"set `pose` or the ports x, y and z (missing: {', '.join(missing)})")
            position, quaternion, frame = parse_pose({k: v for k, v in values.items() if v is not None})
        orientation = self.get_input("orientation", default=None)
        if orientation is not None:
            numbers = parse_float_list(orientation, "orientation")
            if len(numbers) != 4:
                raise ValueError(f"orientation: expected 4 numbers qx;qy;qz;qw, got {orientation!r}")
            quaternion = parse_pose([0.0, 0.0, 0.0, *numbers])[1]  # checked and normalised
        goal.target.header.frame_id = frame or self.get_input("frame")
        p, o = goal.target.pose.position, goal.target.pose.orientation
        p.x, p.y, p.z = position[0], position[1], position[2] + self.get_input("z_offset")
        o.x, o.y, o.z, o.w = quaternion
        goal.motion = choice(self.get_input("motion"), options(type(goal), MOTION_NAMES), "motion")
        goal.position_tolerance = self.get_input("position_tolerance")
        goal.orientation_tolerance = self.get_input("orientation_tolerance")
        goal.velocity_scaling = self.get_input("velocity_scaling")
        goal.timeout = self.get_input("timeout")
        goal.max_dq = self.get_input("max_dq")
        goal.min_steps = self.get_input("min_steps")
        return True

    def on_result(self, result, status) -> NodeStatus:
        if "position_error" in self.config.output_ports:
            self.set_output("position_error", float(result.position_error))
        return self.fail_unless_succeeded(result) or NodeStatus.SUCCESS


class MoveToJoints(RosActionNode):
    """Move the arm to joint positions (robot_tasks_interfaces/action/MoveToJoints).

    `joint_names` and `positions` are ";"-separated lists of the same length,
    e.g. joint_names="j1;j2" positions="0.0;-0.5".
    """

    action_type = "robot_tasks_interfaces/action/MoveToJoints"
    default_action_name = "move_to_joints"

    @classmethod
    def provided_ports(cls):
        return super().provided_ports() + [
            InputPort("joint_names", description="'a;b;c': every arm joint once"),
            InputPort("positions", description="'0.1;0.2;0.3' rad or m, same order as joint_names"),
            InputPort("tolerance", float, default=0.0, description="rad or m; 0 = server default"),
            *_motion_settings_ports(),
            OutputPort("reached_positions", description="measured positions at the end (list of float)"),
        ]

    def set_goal(self, goal) -> bool:
        names = parse_string_list(self.get_input("joint_names"), "joint_names")
        positions = parse_float_list(self.get_input("positions"), "positions")
        if len(names) != len(positions):
            raise ValueError(f"{len(names)} joint_names but {len(positions)} positions")
        goal.joint_names = names
        goal.positions = positions
        goal.tolerance = self.get_input("tolerance")
        goal.velocity_scaling = self.get_input("velocity_scaling")
        goal.timeout = self.get_input("timeout")
        return True

    def on_result(self, result, status) -> NodeStatus:
        if "reached_positions" in self.config.output_ports:
            self.set_output("reached_positions", [float(v) for v in result.positions])
        return self.fail_unless_succeeded(result) or NodeStatus.SUCCESS
