"""robot_tasks.sim: the PyBullet simulation library (no ROS).

    from robot_tasks.sim import World, JointTrajectory, TrajectoryPoint
    with World(scene="franka_stacking", seed=0) as world:
        arm = world.robot("panda")
        arm.controller.command(JointTrajectory(arm.arm_joint_names, [TrajectoryPoint(q, 2.0)]))
        world.step(600)

See world.py (stepping), robot.py (joint maps, states), controller.py (trajectories),
grippers.py, camera.py, objects.py (ground truth), disturb.py and scenes/.

Torque mode (needs the [control] extra, so import the modules themselves): torque.py
(motors released, efforts applied per physics step), ft_sensor.py (F/T reading),
compliant.py (a compliant controller in the physics loop), controller_switch.py
(trajectory <-> compliant), press_episode.py and scenes/franka_press.py.
"""
from robot_tasks.sim.camera import Camera, CameraFrame, CameraIntrinsics
from robot_tasks.sim.controller import ControllerState, JointTrajectoryController
from robot_tasks.sim.errors import CommandRejected, SimError, UnknownName
from robot_tasks.sim.grippers import ParallelGripper, ParallelGripperState, SuctionGripper, SuctionState
from robot_tasks.sim.objects import ObjectState, SimObject
from robot_tasks.sim.robot import JointLimit, JointStates, Robot
from robot_tasks.sim.scenes import SCENES, scene_names
from robot_tasks.sim.trajectory import JointTrajectory, TrajectoryPoint
from robot_tasks.sim.world import World

__all__ = [
    "Camera", "CameraFrame", "CameraIntrinsics", "CommandRejected", "ControllerState",
    "JointLimit", "JointStates", "JointTrajectory", "JointTrajectoryController", "ObjectState",
    "ParallelGripper", "ParallelGripperState", "Robot", "SCENES", "SimError", "SimObject",
    "SuctionGripper", "SuctionState", "TrajectoryPoint", "UnknownName", "World", "scene_names",
]
