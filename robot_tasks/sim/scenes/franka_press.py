"""franka_press: a Panda in torque mode in front of a rigid wall tilted 45°.

The hybrid force/motion task of Isaac Lab's operational-space tutorial: the tool presses
the wall along its normal while it slides to poses in the wall's plane.

- The wall is a static 50 x 50 x 2 cm box whose face passes through `WALL_POINT` with its
  outward normal pointing up and back towards the robot; its face is slippery
  (`WALL_FRICTION`) so in-plane tracking is not fighting Coulomb friction.
- The wall frame (landmark "wall", the controllers' task frame): origin on the face, z the
  *inward* normal (into the wall), x up the slope, y sideways. It is also the tool
  orientation that points the closed fingers straight into the wall.
- The Panda keeps its URDF inertias (torque control needs them), starts with the fingers
  closed and the fingertips `APPROACH_GAP` off the wall (solved by IK from the model), under
  the joint trajectory controller.
- Compliant controllers attached, inactive until `robot.controllers.switch(name)`:
  "joint_impedance" (inertial + gravity compensation), "osc" (pose, decoupled, nullspace
  posture) and "hybrid_press" (wall_press_config: force on the wall frame's z, stiffness
  PRESS_STIFFNESS); all read the F/T sensor in `panda_hand_joint` (flange -> hand) tared at
  the switch. Over ROS they are commanded like FZI's cartesian_compliance_controller
  (robot_tasks/nodes/sim/compliant_io.py).

The scene needs physics at >= 500 Hz; the World sub-steps automatically.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pybullet as p

from robot_tasks.sim.errors import SimError
from robot_tasks.sim.ft_sensor import ForceTorqueSensor
from robot_tasks.sim.robots import make_panda
from robot_tasks.sim.scenes import register_scene
from robot_tasks.sim.scenes.common import add_plane

# The controllers (robot_tasks.control: Pinocchio) are imported when the scene is built, so
# listing scenes works with the [sim] extra alone.

WALL_POINT = np.array([0.50, 0.0, 0.30])        # a point of the wall's face, world frame
WALL_TILT = np.pi / 4
WALL_HALF = (0.25, 0.25, 0.01)
WALL_FRICTION = 0.05
FINGERTIP_BEYOND_TCP = 0.011                    # closed fingertips' AABB past panda_grasptarget
APPROACH_GAP = 0.015
FT_JOINT = "panda_hand_joint"
# wall frame: the down-pointing tool frame (x forward, z down) pitched 45° towards the wall
WALL_QUATERNION = p.getQuaternionFromEuler([np.pi, -WALL_TILT, 0.0])   # x-y-z: Ry(-45°) Rx(π)
WALL_ROTATION = np.array(p.getMatrixFromQuaternion(WALL_QUATERNION)).reshape(3, 3)


def wall_frame():
    """Pose of the wall frame in the world (= the robot's base frame: it stands at the origin)."""
    from robot_tasks.control import Pose
    return Pose(WALL_POINT, WALL_QUATERNION)


def _add_wall(world) -> int:
    inward = WALL_ROTATION[:, 2]
    center = WALL_POINT + WALL_HALF[2] * inward
    # the box's own z is its thickness; it must be the outward normal, -inward
    orn = p.getQuaternionFromEuler([0.0, -WALL_TILT, 0.0])
    cid = world.client
    shape = p.createCollisionShape(p.GEOM_BOX, halfExtents=WALL_HALF, physicsClientId=cid)
    visual = p.createVisualShape(p.GEOM_BOX, halfExtents=WALL_HALF, rgbaColor=(0.6, 0.62, 0.7, 1),
                                 physicsClientId=cid)
    body = p.createMultiBody(0.0, shape, visual, center.tolist(), orn, physicsClientId=cid)
    p.changeDynamics(body, -1, lateralFriction=WALL_FRICTION, physicsClientId=cid)
    world.static_bodies["wall"] = body
    return body


def _approach_configuration(robot, kinematics) -> np.ndarray:
    """Joint positions with the tool pointing into the wall, fingertips APPROACH_GAP away."""
    from robot_tasks.control import IkConfig, Pose, solve_ik
    standoff = FINGERTIP_BEYOND_TCP + APPROACH_GAP
    target = Pose(WALL_POINT - standoff * WALL_ROTATION[:, 2], wall_frame().quaternion)
    seed = robot.positions(robot.arm_joint_names)
    result = solve_ik(kinematics, target, seed, IkConfig(method="dls"))
    if not result.success:
        raise SimError(f"franka_press: the approach pose is out of reach ({result.reason})")
    return result.q


@register_scene("franka_press", "Panda in torque mode pressing a 45°-tilted wall",
                min_physics_rate=500.0)
def build(world) -> None:
    from robot_tasks.control.compliance import (
        PRESS_STIFFNESS,
        JointImpedanceConfig,
        JointImpedanceController,
        OperationalSpaceConfig,
        OperationalSpaceController,
        wall_press_config,
    )
    from robot_tasks.sim.compliant import arm_dynamics
    from robot_tasks.sim.controller_switch import add_compliant_controller

    add_plane(world)
    _add_wall(world)
    robot = make_panda(world, "panda", inertia_from_file=True)
    robot.reset_joints({"panda_finger_joint1": 0.0, "panda_finger_joint2": 0.0})
    robot.gripper.command(0.0)
    dynamics = arm_dynamics(robot)                  # fingers locked closed, as they stay
    approach = _approach_configuration(robot, dynamics.kinematics)
    robot.reset_joints(dict(zip(robot.arm_joint_names, approach)))
    world.landmarks["wall"] = (tuple(WALL_POINT), tuple(wall_frame().quaternion))
    sensor = ForceTorqueSensor(robot, FT_JOINT)
    q_start = robot.positions(robot.arm_joint_names)
    impedance = JointImpedanceController(JointImpedanceConfig(
        inertial_compensation=True, gravity_compensation=True), dynamics)
    osc = OperationalSpaceController(OperationalSpaceConfig(
        inertial_dynamics_decoupling=True, gravity_compensation=True,
        nullspace_control="position"), dynamics)
    # the press's stiffness is its configuration (a cell's controllers.yaml), so a target
    # without gains presses with PRESS_STIFFNESS
    press = OperationalSpaceController(replace(wall_press_config(), motion_stiffness_task=PRESS_STIFFNESS),
                                       dynamics)
    press.task_frame = wall_frame()
    for law in (osc, press):
        law.set_nullspace_target(q_start)
    for name, law in (("joint_impedance", impedance), ("osc", osc), ("hybrid_press", press)):
        add_compliant_controller(robot, name, law, sensor)
    world.view = {"position": (0.9, -1.2, 0.75), "target": (0.4, 0.0, 0.35)}   # from the side
