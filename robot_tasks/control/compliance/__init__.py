"""robot_tasks.control.compliance — torque-level compliant controllers (numpy + Pinocchio).

Each controller is a config dataclass naming every option with its default (Isaac Lab's
cfgs are the model) and a class with `set_command(...)` and `compute(ArmState) -> τ`. They
read only what a real torque-controlled arm measures (joint positions and velocities, and a
force/torque reading); M, g, J, J̇ come from the URDF through `ArmDynamics`.

- state.ArmState                       measured joint state (+ tip wrench)
- dynamics.ArmDynamics                 M(q), g(q), C(q, q̇) q̇, J, J̇ from Pinocchio
- joint_impedance                      τ = M (kp e − kd q̇) + g, modes fixed / variable_kp / variable
- operational_space                    Khatib OSC: pose / wrench targets, selection, nullspace
- hybrid                               the tilted-wall press preset (force on z, motion elsewhere)
- gains, task_frame                    damping ratios and limits; task-frame selection matrices
- compliant_move                       a target glided to a pose (smoothstep), laid out as a command
"""
from .compliant_move import CompliantMove, along_normal, command_vector, smoothstep, to_frame
from .dynamics import ArmDynamics, DynamicsTerms
from .hybrid import PRESS_STIFFNESS, WALL_FORCE_AXES, WALL_MOTION_AXES, wall_press_command, wall_press_config
from .joint_impedance import JointImpedanceConfig, JointImpedanceController
from .operational_space import OperationalSpaceConfig, OperationalSpaceController
from .state import ArmState

__all__ = [
    "ArmDynamics", "ArmState", "CompliantMove", "along_normal", "command_vector", "smoothstep",
    "to_frame", "DynamicsTerms", "JointImpedanceConfig",
    "JointImpedanceController", "OperationalSpaceConfig", "OperationalSpaceController",
    "PRESS_STIFFNESS", "WALL_FORCE_AXES", "WALL_MOTION_AXES", "wall_press_command",
    "wall_press_config",
]
