"""robot_tasks.control — arm kinematics and motion generation, pure Python (numpy, pin, ompl).

No ROS and no PyBullet here: the arm server feeds it a URDF and joint states and gets back
joint paths and timed trajectories.

- kinematics.ArmKinematics      FK, Jacobian, pose error of one chain (Pinocchio)
- ik.IkSolver / IkConfig        differential IK: pinv, dls, trans, svd, adaptive_dls
- interpolation                 bounded-increment joint interpolation (max_dq per step)
- trajectory.make_trajectory    joint path -> timed trajectory: time-optimal under velocity and
                                acceleration limits, jerk-limited (time_optimal: TOPP-RA, Ruckig)
- joint_limits.JointLimits      velocity/acceleration/jerk per joint (URDF + config/limits/*.yaml)
- trajectory_check              worst velocity/acceleration/jerk of a trajectory vs the limits
- cartesian.cartesian_line      straight-line tip motion by repeated IK
- collision.CollisionChecker    self + box-obstacle collision checks (coal)
- planning.plan_joint_path      OMPL RRT-Connect in joint space
- robot_models                  where the Panda and UR10 URDFs live
- frame_tree.FrameTree          parent -> child link transforms of a URDF (what /tf carries)
- compliance                    torque-level controllers: joint impedance, operational space,
                                hybrid force/motion (M, g, J, J̇ from the URDF); import it as
                                `robot_tasks.control.compliance`
"""
from .cartesian import CartesianResult, cartesian_line, vertical_move
from .collision import Box, CollisionChecker
from .errors import ControlError, InputError, ModelError
from .ik import IkConfig, IkResult, IkSolver, solve_ik
from .interpolation import (
                            DEFAULT_MAX_DQ,
                            DEFAULT_MIN_STEPS,
                            interpolate_joints,
                            interpolate_path,
                            max_joint_step,
                            step_count,
)
from .jacobian_inverse import DEFAULT_IK_PARAMS, IK_METHODS
from .joint_limits import JointLimits, default_limits_path, load_limits_file
from .kinematics import ArmKinematics
from .planning import PlanResult, first_invalid_state, plan_joint_path, plan_to_pose
from .pose import Pose
from .robot_models import ArmSpec, arm_spec, panda_spec, ur10_spec
from .trajectory import TimedTrajectory, make_trajectory, time_parameterize
from .trajectory_check import LimitReport, check_trajectory

__all__ = [
    "ControlError", "InputError", "ModelError", "Pose", "ArmKinematics", "IK_METHODS",
    "DEFAULT_IK_PARAMS", "IkConfig", "IkResult", "IkSolver", "solve_ik", "DEFAULT_MAX_DQ",
    "DEFAULT_MIN_STEPS", "interpolate_joints", "interpolate_path", "max_joint_step",
    "step_count", "TimedTrajectory", "make_trajectory", "time_parameterize", "CartesianResult",
    "cartesian_line", "vertical_move", "Box", "CollisionChecker", "PlanResult",
    "first_invalid_state", "plan_joint_path", "plan_to_pose", "ArmSpec", "arm_spec",
    "panda_spec", "ur10_spec", "JointLimits", "default_limits_path", "load_limits_file",
    "LimitReport", "check_trajectory",
]
