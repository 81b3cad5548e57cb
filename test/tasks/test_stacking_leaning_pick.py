"""A cube leaning on another is picked with the stacking task's own targets and stacked (PyBullet).

The scene: franka_stacking, the red cube set leaning 12-38 degrees against the blue one
(one bottom edge on the table, the opposite one against the blue cube's side) and left
to settle under gravity. The pick is decided as the task decides it: the scene camera's
image -> perception -> world_view -> plan.pick_targets / place_targets; the
arm follows those poses with the arm server's kinematics (robot_tasks.control: IK for a
planned move, cartesian_line for a straight one), sent straight to the sim's
trajectory controller. Ground truth grades: the cube rises with the fingers, level in them,
and ends on the yellow cube.

The second test is the reason the hand tips: straight down, with the fingers along the
tilt axis too, the cube is held as well, but it stays tilted between the fingers, and a
tilted cube is not set square on a stack.
"""
from __future__ import annotations

import math

import numpy as np
import pybullet as p
import pytest

from robot_tasks.control.cartesian import cartesian_line
from robot_tasks.control.ik import IkSolver
from robot_tasks.control.kinematics import ArmKinematics
from robot_tasks.control.pose import Pose
from robot_tasks.control.robot_models import panda_spec
from robot_tasks.perception import CameraIntrinsics, Detector
from robot_tasks.perception.geometry import quat_from_matrix
from robot_tasks.sim import JointTrajectory, TrajectoryPoint, World
from robot_tasks.sim.scenes.common import TABLE_TOP_Z
from robot_tasks.tasks.stacking import plan
from robot_tasks.tasks.world_view import axes_of_quaternion, seen_by_label

pytestmark = pytest.mark.sim

HALF = 0.025
BLUE_XY = (0.50, 0.05)
YELLOW_XY = (0.62, -0.22)


def lean_against(blue_xy, tilt: float, heading: float):
    """Centre and quaternion of a cube resting on one bottom edge, leaning by `tilt` toward
    a level cube at `blue_xy` from the side `heading` points to; its raised bottom edge
    touches the level cube's face, so gravity holds it there."""
    c, s = math.cos(tilt), math.sin(tilt)
    # lean frame: x from the red cube toward the blue one; the red cube is tipped about
    # its y axis, the side toward the blue cube raised
    centre = np.array([-HALF - HALF * (c + s), 0.0, TABLE_TOP_Z + HALF * (c + s)])
    tipped = np.array([[c, 0.0, -s], [0.0, 1.0, 0.0], [s, 0.0, c]])
    turn = heading + math.pi
    rz = np.array([[math.cos(turn), -math.sin(turn), 0.0], [math.sin(turn), math.cos(turn), 0.0], [0.0, 0.0, 1.0]])
    xy = rz[:2, :2] @ centre[:2] + np.asarray(blue_xy)
    return [float(xy[0]), float(xy[1]), float(centre[2])], quat_from_matrix(rz @ tipped)


def put(world, name, position, orientation=(0.0, 0.0, 0.0, 1.0)):
    body = world.object(name).body_id
    p.resetBasePositionAndOrientation(body, position, orientation, physicsClientId=world.client)
    p.resetBaseVelocity(body, [0, 0, 0], [0, 0, 0], physicsClientId=world.client)


def tilt_deg(quaternion) -> float:
    """How far the cube's most upright axis leans from world z (ground truth)."""
    rotation = np.array(p.getMatrixFromQuaternion(quaternion)).reshape(3, 3)
    return math.degrees(math.acos(min(1.0, float(np.max(np.abs(rotation[2, :]))))))


def detections(world) -> list[dict]:
    """What the perception server would publish for the scene camera's image, as dicts."""
    camera = world.camera("scene")
    k, frame = camera.intrinsics(), camera.capture()
    found = Detector().detect(frame.rgb, frame.depth, CameraIntrinsics.from_k(k.matrix, k.width, k.height),
                              camera.world_from_optical())
    return [{"label": d.label, "confidence": d.confidence,
             "pose": {"position": dict(zip("xyz", d.position)), "orientation": dict(zip("xyzw", d.orientation))}}
            for d in found]


class Arm:
    """Moves the sim's Panda as the arm server would, with its own kinematics (Pinocchio
    from the URDF, robot_tasks.control): `planned` = one IK solve, then a joint-space
    move; `cartesian` = the tool on a straight line, turning by slerp (cartesian_line)."""

    def __init__(self, world):
        self.world, self.robot = world, world.robot("panda")
        self.kin = ArmKinematics.from_spec(panda_spec())
        self.base = np.asarray(self.robot.base_pose()[0])

    def target(self, pose: dict) -> Pose:
        position = np.array([pose["x"], pose["y"], pose["z"]]) - self.base
        return Pose(position, np.array([pose["qx"], pose["qy"], pose["qz"], pose["qw"]]))

    def now(self) -> np.ndarray:
        return self.robot.positions(self.robot.arm_joint_names)

    def planned(self, pose: dict, duration: float = 2.0) -> None:
        result = IkSolver(self.kin).solve(self.target(pose), self.now())
        assert result.success, f"IK: {result.reason}"
        self.follow([self.now(), result.q], duration)

    def cartesian(self, pose: dict, duration: float = 1.0) -> None:
        goal = self.target(pose)
        result = cartesian_line(self.kin, self.now(), goal.position, goal.quaternion)
        assert result.success, f"cartesian: {result.reason}"
        self.follow(result.path, duration)

    def follow(self, path, duration: float) -> None:
        points = [TrajectoryPoint(list(map(float, q)), duration * k / (len(path) - 1)) for k, q in enumerate(path)][1:]
        self.robot.controller.command(JointTrajectory(self.robot.arm_joint_names, points))
        self.world.step(int((duration + 0.3) / self.world.time_step))


def leaning_scene(world, lean_deg: float, heading_deg: float):
    """The red cube leaning on the blue one, green and yellow level out of the way; settled."""
    put(world, "blue_cube", [*BLUE_XY, TABLE_TOP_Z + HALF], p.getQuaternionFromEuler([0, 0, math.radians(heading_deg)]))
    put(world, "green_cube", [0.38, -0.28, TABLE_TOP_Z + HALF])
    put(world, "yellow_cube", [*YELLOW_XY, TABLE_TOP_Z + HALF])
    put(world, "red_cube", *lean_against(BLUE_XY, math.radians(lean_deg), math.radians(heading_deg)))
    world.step(240)
    red = world.object_state("red_cube")
    assert tilt_deg(red.orientation) == pytest.approx(lean_deg, abs=2.0), "the cube did not stay leaning"
    return red


def pick_and_stack(world, pick: dict, layout, seen) -> dict:
    """Pick with `pick`'s poses, lift and put on the yellow cube with place_targets; the
    ground truth at the three moments that grade it."""
    arm = Arm(world)
    red_before = world.object_state("red_cube")
    arm.planned(pick["pregrasp_pose"])
    arm.cartesian(pick["grasp_pose"])
    arm.robot.gripper.grasp(20.0)
    world.step(120)
    place = plan.place_targets(layout, ("yellow_cube",), arm.robot.ee_pose()[0], seen)
    arm.cartesian(place["lift_pose"], 1.5)
    lifted = world.object_state("red_cube")
    held = arm.robot.gripper.state().held_object
    arm.planned(place["transport_pose"])
    arm.cartesian(place["lower_pose"])
    arm.robot.gripper.open()
    world.step(120)
    arm.cartesian(place["retract_pose"])
    world.step(120)
    return {"held": held, "rise": lifted.position[2] - red_before.position[2],
            "tilt_in_hand": tilt_deg(lifted.orientation),
            "final": world.object_state("red_cube"), "yellow": world.object_state("yellow_cube")}


def decide(world):
    seen = seen_by_label(detections(world))
    assert {"red_cube", "yellow_cube"} <= set(seen)
    yellow = seen["yellow_cube"].position
    layout = plan.StackLayout(("yellow_cube", "red_cube"), (yellow[0], yellow[1]), TABLE_TOP_Z, 0.05)
    return seen, layout


@pytest.mark.parametrize("tilt, heading", [(12.0, 0.0), (25.0, 100.0), (38.0, 0.0), (30.0, -60.0), (20.0, 160.0),
                                           (40.0, 45.0)])
def test_a_leaning_cube_is_picked_square_and_stacked(tilt, heading):
    with World(scene="franka_stacking", seed=1) as world:
        world.step(10)
        leaning_scene(world, tilt, heading)
        seen, layout = decide(world)
        assert math.degrees(seen["red_cube"].tilt) == pytest.approx(tilt, abs=3.0)   # perception sees the lean
        out = pick_and_stack(world, plan.pick_targets(layout, seen["red_cube"]), layout, seen)
    assert out["held"] == "red_cube" and out["rise"] > 0.15, "the cube did not rise with the fingers"
    assert out["tilt_in_hand"] < 5.0, "the lift did not set the cube level in the fingers"
    final, yellow = out["final"], out["yellow"]
    assert final.position[2] == pytest.approx(yellow.position[2] + 0.05, abs=0.005)
    assert math.hypot(final.position[0] - yellow.position[0], final.position[1] - yellow.position[1]) < 0.015
    assert tilt_deg(final.orientation) < 3.0


def test_straight_down_across_the_tilt_axis_holds_the_cube_but_keeps_it_tilted():
    with World(scene="franka_stacking", seed=1) as world:
        world.step(10)
        leaning_scene(world, 25.0, 0.0)
        seen, layout = decide(world)
        cube = seen["red_cube"]
        tipped = plan.pick_targets(layout, cube)
        # the same closing line (the tool's y axis), but the hand straight down
        grasp = tipped["grasp_pose"]
        closing = axes_of_quaternion(grasp["qx"], grasp["qy"], grasp["qz"], grasp["qw"])[1]
        yaw = math.atan2(closing[0], -closing[1])
        x, y, z = cube.position
        straight = {"pregrasp_pose": plan.top_down_pose((x, y, z + 0.10), yaw),
                    "grasp_pose": plan.top_down_pose((x, y, z), yaw)}
        out = pick_and_stack(world, straight, layout, seen)
    assert out["held"] == "red_cube" and out["rise"] > 0.15            # a secure grasp ...
    assert out["tilt_in_hand"] > 20.0                                  # ... of a cube still leaning 25 degrees
