"""The gripper server's parameters: declared once, with defaults, ranges and meaning.

`robot` picks the defaults (robot_tasks.control.robot_defaults); `backend` picks the driver
the server is a client of:

| backend        | the driver's interfaces (relative to the server's namespace)        | gripper  |
|----------------|---------------------------------------------------------------------|----------|
| franka         | `<franka_gripper>/move`, `/grasp` (franka_msgs), as franka_gripper   | parallel |
| gripper_action | `<gripper_action>` (control_msgs/GripperCommand), any ros2_control   | parallel |
|                | gripper action controller or franka_gripper's `gripper_action`       |          |
| set_io         | `<io_controller>/set_io` (ur_msgs/SetIO) drives `vacuum_output_pin`, | suction  |
|                | `<io_controller>/io_states` (ur_msgs/IOStates) reads `vacuum_sensor_pin` |      |

Parallel backends measure the width on `joint_states` (the sum of `finger_joints`).
"""
from __future__ import annotations

from dataclasses import dataclass

from robot_tasks.control.gripper_logic import GripperSettings
from robot_tasks.control.robot_defaults import robot_defaults
from robot_tasks.ros.parameters import ParameterError, declare

BACKENDS = ("franka", "gripper_action", "set_io")
DEFAULT_BACKEND = {"parallel": "franka", "suction": "set_io"}


@dataclass(frozen=True)
class ServerParams:
    backend: str
    settings: GripperSettings
    finger_joints: list
    startup_wait: float          # wall s to wait for state and for the driver
    state_timeout: float         # wall s: older joint_states / io_states are stale
    response_wall_grace: float   # wall s (robot_tasks/ros/response_grace.py)
    franka_gripper: str          # franka: the franka_gripper node's name
    speed: float                 # franka: m/s of width for move and grasp
    grasp_epsilon_inner: float   # franka: m
    gripper_action: str          # gripper_action: the action's name
    position_per_width: float    # gripper_action: command.position per metre of width
    io_controller: str           # set_io: the UR IO controller's name
    vacuum_output_pin: int       # set_io
    vacuum_sensor_pin: int       # set_io


def declare_params(node) -> ServerParams:
    """Declare every parameter on `node`, read and check them (ParameterError)."""
    def param(name, default, text="", **rule):
        return declare(node, name, default, text, **rule)

    def positive(name, default, unit):
        return param(name, default, unit, minimum=0.0, open_minimum=True)

    def pin(name, default, text):
        return param(name, default, text + " (UR pin: 0-7 standard, 8-15 configurable, 16-17 tool)",
                     minimum=0, maximum=17)

    d = robot_defaults(param("robot", "panda", "picks the defaults", choices=("panda", "ur10")))
    backend = param("backend", DEFAULT_BACKEND[d["gripper_type"]], "the driver this server is a client of",
                    choices=BACKENDS)
    kind = "suction" if backend == "set_io" else "parallel"
    settings = GripperSettings(
        gripper_type=kind,
        max_width=positive("max_width", d["max_width"] or 0.08, "m"),
        default_effort=positive("default_effort", 20.0, "N"),
        max_effort=positive("max_effort", 140.0, "N"),
        width_tolerance=positive("width_tolerance", 0.002, "m: this close to the target reached it"),
        stall_margin=param("stall_margin", 0.002, "m: closing, stopped wider than target + this = an object",
                           minimum=0.0),
        default_timeout=positive("default_timeout", 5.0, "s"),
        suction_settle_time=param("suction_settle_time", 0.5, "s to wait for an attachment after vacuum on",
                                  minimum=0.0))
    fingers = [j for j in param("finger_joints", d["finger_joints"] or [""],
                                "finger joints; width = sum of their positions") if j]
    if kind == "parallel" and not fingers:
        raise ParameterError("finger_joints", "is empty for a parallel gripper", node=node.get_name())
    return ServerParams(
        backend=backend, settings=settings, finger_joints=fingers,
        startup_wait=positive("startup_wait", 5.0, "wall s to wait for state and for the driver"),
        state_timeout=positive("joint_state_timeout", 1.0, "wall s"),
        response_wall_grace=positive(
            "response_wall_grace", 0.3,
            "wall s after a command before a goal may time out, or a cup with nothing attached count "
            "as empty (faster than real time, sim seconds pass while the command is in transit)"),
        franka_gripper=param("franka_gripper", "franka_gripper", "franka: the franka_gripper node "
                             "(its actions <name>/move, <name>/grasp)", allow_empty=False),
        speed=positive("speed", 0.1, "franka: m/s of width for move and grasp (franka_gripper's default_speed)"),
        grasp_epsilon_inner=param("grasp_epsilon_inner", 0.005, "franka: m a grasp may end narrower than "
                                  "its width (libfranka's default)", minimum=0.0),
        gripper_action=param("gripper_action", "gripper_controller/gripper_cmd",
                             "gripper_action: the control_msgs/GripperCommand action", allow_empty=False),
        position_per_width=positive("position_per_width", 0.5, "gripper_action: command.position per metre "
                                    "of width (franka_gripper: width = 2 x position)"),
        io_controller=param("io_controller", "io_and_status_controller",
                            "set_io: the UR IO controller (its set_io service and io_states topic)",
                            allow_empty=False),
        vacuum_output_pin=pin("vacuum_output_pin", 16, "set_io: digital output of the vacuum valve"),
        vacuum_sensor_pin=pin("vacuum_sensor_pin", 16, "set_io: digital input of the vacuum switch"))
