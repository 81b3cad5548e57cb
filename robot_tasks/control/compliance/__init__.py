"""robot_tasks.control.compliance — torque-level compliant controllers (numpy + Pinocchio).

Each controller is a config dataclass naming every option with its default (Isaac Lab's
cfgs are the model) and a class with `set_command(...)` and `compute(ArmState) -> τ`. They
read only what a real torque-controlled arm measures (joint positions and velocities, and a
force/torque reading); M, g, J, J̇ come from the URDF through `ArmDynamics`.

- state.ArmState                       measured joint state (+ tip wrench)
- dynamics.ArmDynamics                 M(q), g(q), C(q, q̇) q̇, J, J̇ from Pinocchio
- joint_impedance                      τ = M (kp e − kd q̇) + g, modes fixed / variable_kp / variable
- gains                                damping ratios, impedance modes, limits
"""
from .dynamics import ArmDynamics, DynamicsTerms
from .joint_impedance import JointImpedanceConfig, JointImpedanceController
from .state import ArmState

__all__ = [
    "ArmDynamics", "ArmState", "DynamicsTerms", "JointImpedanceConfig",
    "JointImpedanceController",
]
