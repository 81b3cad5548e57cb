"""Factories for the two robot models, each with its controller and gripper attached.

* Panda: pybullet_data `franka_panda/panda.urdf` (Apache-2.0), 7 arm joints, two
  fingers, end effector `panda_grasptarget` (between the fingertips).
* UR10: example-robot-data `ur10_robot.urdf` (BSD) plus a suction tool added to the
  URDF text (a rod and a cup on `tool0`, end effector `suction_tcp` at the cup face),
  so the tool is in `robot_description` and the arm server's kinematics match the sim.
"""
from __future__ import annotations

import pybullet as p

from robot_tasks.robots import PANDA_ARM_JOINTS, UR10_ARM_JOINTS
from robot_tasks.robots import PANDA_HOME as PANDA_HOME_POSITIONS
from robot_tasks.sim import assets
from robot_tasks.sim.controller import JointTrajectoryController
from robot_tasks.sim.grippers import ParallelGripper, SuctionGripper
from robot_tasks.sim.light_meshes import light_visual_urdf
from robot_tasks.sim.robot import Robot
from robot_tasks.sim.urdf_text import absolutize_mesh_paths, append_fixed_link

PANDA_ARM = list(PANDA_ARM_JOINTS)
PANDA_HOME = dict(zip(PANDA_ARM, PANDA_HOME_POSITIONS),
                  panda_finger_joint1=0.04, panda_finger_joint2=0.04)

# the fraction of the Panda's visual triangles the sim draws: 0.25 cost a 320x240 frame
# 16 ms against 33 ms with all of them, and 0.1 only 1.6 ms less (light_meshes.py)
PANDA_VISUAL_KEEP = 0.25

UR10_ARM = list(UR10_ARM_JOINTS)
UR10_HOME = dict(zip(UR10_ARM, [0.0, -1.9, 1.9, -1.571, -1.571, 0.0]))   # tool pointing down


def panda_description() -> tuple[str, str]:
    """(urdf path to load, robot_description text with absolute mesh paths).

    The sim loads the Panda with light visual meshes (light_meshes.py: a quarter of the
    triangles, for the camera's CPU renderer); robot_description keeps the full ones.
    """
    path = assets.panda_urdf()
    description = absolutize_mesh_paths(path.read_text(), path.parent)
    light = assets.write_cached_text("urdf", "panda_light_visuals", ".urdf",
                                     light_visual_urdf(description, PANDA_VISUAL_KEEP))
    return str(light), description


def make_panda(world, name: str = "panda", position=(0, 0, 0), yaw: float = 0.0,
               inertia_from_file: bool = False) -> Robot:
    """The Panda; `inertia_from_file` keeps the URDF inertias (for torque control)."""
    urdf_path, description = panda_description()
    orn = p.getQuaternionFromEuler([0, 0, yaw])
    robot = Robot(world, name, urdf_path, description, position, orn, PANDA_ARM,
                  "panda_grasptarget", PANDA_HOME, inertia_from_file=inertia_from_file)
    robot.controller = JointTrajectoryController(robot)
    robot.gripper = ParallelGripper(robot)
    world.add_robot(robot)
    return robot


def _suction_tool_xml(length: float, cup_radius: float) -> str:
    rod_len = length - 0.02
    return f"""  <link name="suction_tool">
    <inertial><origin xyz="0 0 {rod_len / 2:.4f}"/><mass value="0.3"/>
      <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.0002"/></inertial>
    <visual><origin xyz="0 0 {rod_len / 2:.4f}"/><geometry><cylinder radius="0.02" length="{rod_len:.4f}"/></geometry>
      <material name="tool_grey"><color rgba="0.6 0.6 0.65 1"/></material></visual>
    <collision><origin xyz="0 0 {rod_len / 2:.4f}"/><geometry><cylinder radius="0.02" length="{rod_len:.4f}"/></geometry></collision>
  </link>
  <link name="suction_cup">
    <inertial><origin xyz="0 0 0.01"/><mass value="0.05"/>
      <inertia ixx="0.00002" ixy="0" ixz="0" iyy="0.00002" iyz="0" izz="0.00002"/></inertial>
    <visual><origin xyz="0 0 0.01"/><geometry><cylinder radius="{cup_radius}" length="0.02"/></geometry>
      <material name="cup_black"><color rgba="0.1 0.1 0.1 1"/></material></visual>
    <collision><origin xyz="0 0 0.01"/><geometry><cylinder radius="{cup_radius}" length="0.02"/></geometry></collision>
  </link>
  <link name="suction_tcp">
    <!-- a frame only; a tiny inertia stops PyBullet from inventing 1 kg for it -->
    <inertial><mass value="0.001"/><inertia ixx="1e-7" ixy="0" ixz="0" iyy="1e-7" iyz="0" izz="1e-7"/></inertial>
  </link>
"""


def ur10_description(tool_length: float = 0.20, cup_radius: float = 0.03) -> tuple[str, str]:
    """(urdf path to load, robot_description) of the UR10 with its suction tool."""
    src = assets.ur10_urdf()
    text = absolutize_mesh_paths(src.read_text(), src.parent, [assets.cmeel_share()])
    text = append_fixed_link(text, "tool0", _suction_tool_xml(tool_length, cup_radius),
                             "tool0-suction_tool", "suction_tool")
    text = append_fixed_link(text, "suction_tool", "", "suction_tool-suction_cup", "suction_cup",
                             xyz=(0, 0, tool_length - 0.02))
    text = append_fixed_link(text, "suction_cup", "", "suction_cup-suction_tcp", "suction_tcp",
                             xyz=(0, 0, 0.02))
    path = assets.write_cached_text("urdf", "ur10_suction", ".urdf", text)
    return str(path), text


def make_ur10(world, name: str = "ur10", position=(0, 0, 0), yaw: float = 0.0,
              tool_length: float = 0.20, suction_force: float = 300.0) -> Robot:
    urdf_path, description = ur10_description(tool_length)
    orn = p.getQuaternionFromEuler([0, 0, yaw])
    robot = Robot(world, name, urdf_path, description, position, orn, UR10_ARM, "suction_tcp", UR10_HOME)
    robot.controller = JointTrajectoryController(robot)
    robot.gripper = SuctionGripper(robot, "suction_cup", suction_force)
    world.add_robot(robot)
    return robot

