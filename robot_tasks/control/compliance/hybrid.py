"""Hybrid force/motion control: push along a surface's normal, track a pose along the rest.

The classic contact task (Isaac Lab's operational-space tutorial): a tool presses on a wall
with a constant force while it slides to poses in the wall's plane. It is the operational-
space controller with the task frame on the wall (z = the wall's inward normal) and

    motion axes   [1, 1, 0, 1, 1, 1]   x, y in the plane and all three rotations tracked;
    wrench axes   [0, 0, 1, 0, 0, 0]   z: force-controlled, never position-controlled;
    "variable_kp" impedance (the command carries six stiffnesses), inertial decoupling,
    gravity compensation, a closed-loop force term on z (needs the F/T sensor), and the
    nullspace posture term.

Along z the arm is not a spring any more: it applies the commanded force wherever the wall
is, so the contact force is the command (plus the closed-loop correction), independent of
how far the wall actually is from where the planner thought.

    ctrl = OperationalSpaceController(wall_press_config(), dynamics)
    ctrl.set_command(wall_press_command(position_in_wall, force=10.0), task_frame=wall)
"""
from __future__ import annotations

import numpy as np

from .operational_space import OperationalSpaceConfig

WALL_MOTION_AXES = (1, 1, 0, 1, 1, 1)
WALL_FORCE_AXES = (0, 0, 1, 0, 0, 0)
#: in-plane stiffness of the press (1/s², the arm behaves as a unit mass): stiff enough
#: that wall friction of a few newtons costs well under a millimetre
PRESS_STIFFNESS = (1000.0, 1000.0, 100.0, 400.0, 400.0, 400.0)


def wall_press_config(force_gain: float = 0.1, gravity_compensation: bool = True
                      ) -> OperationalSpaceConfig:
    """The hybrid controller of the tilted-wall press (z of the task frame: into the wall)."""
    return OperationalSpaceConfig(
        target_types=("pose_abs", "wrench_abs"),
        motion_control_axes_task=WALL_MOTION_AXES,
        contact_wrench_control_axes_task=WALL_FORCE_AXES,
        inertial_dynamics_decoupling=True,
        partial_inertial_dynamics_decoupling=False,
        gravity_compensation=gravity_compensation,
        impedance_mode="variable_kp",
        motion_damping_ratio_task=1.0,
        contact_wrench_stiffness_task=(0.0, 0.0, force_gain, 0.0, 0.0, 0.0),
        nullspace_control="position",
    )


def wall_press_command(position_in_wall, force: float = 10.0, quaternion_in_wall=(0, 0, 0, 1),
                       stiffness=PRESS_STIFFNESS) -> np.ndarray:
    """Flat command: pose in the wall frame (7), wrench (6: force along z), stiffness (6)."""
    return np.concatenate([np.asarray(position_in_wall, float), np.asarray(quaternion_in_wall, float),
                           [0.0, 0.0, float(force), 0.0, 0.0, 0.0], np.asarray(stiffness, float)])
