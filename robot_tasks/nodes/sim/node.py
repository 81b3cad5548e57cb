"""SimNode: a PyBullet World behind the ROS interfaces of real robot drivers.

Topics and parameters are listed in robot_tasks/nodes/sim/__init__.py.  The node does not
run itself: an ExecutorThread spins its executor while `SteppingLoop(node).run(stop)`
steps the World on the calling thread (see loop.py); ROS callbacks reach the World
only through `node.inbox`.  The step-rate bench drives it the same way.

Sim time: the node publishes `/clock` = `ros_time()` = `clock_offset + world.time`.
A reset rebuilds the World with its time back at 0, so the offset grows by the time
that passed: /clock never goes backwards (nodes with use_sim_time would see a jump back
as a clock reset).  Trajectory stamps are mapped back with `world_time_of()`.
"""
from __future__ import annotations

from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import QoSProfile, ReliabilityPolicy
from rosgraph_msgs.msg import Clock

from robot_tasks.nodes.sim.inbox import Inbox, InboxClosed
from robot_tasks.nodes.sim.parameters import declare_sim_params, robot_namespace
from robot_tasks.nodes.sim.perturb import perturb
from robot_tasks.nodes.sim.robot_io import RobotIO
from robot_tasks.nodes.sim.scene_io import CAMERA_NAME, CameraIO, ObjectsIO
from robot_tasks.nodes.sim.wire import clock_bytes
from robot_tasks.ros.errors import ParameterError
from robot_tasks.sim import World, scene_names
from robot_tasks.sim.errors import SimError
from robot_tasks_interfaces.srv import PerturbObject, ResetScene

CLOCK_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT)


class SimNode(Node):
    """Builds the World from parameters and wires its robots, camera and objects to ROS."""

    def __init__(self, node_name: str = "sim", **node_kwargs):
        super().__init__(node_name, **node_kwargs)
        self.inbox = Inbox(on_error=self.report_callback_error)
        if self.get_parameter("use_sim_time").value:
            self.get_logger().warning("use_sim_time ignored: the sim node is the clock source")
            self.set_parameters([Parameter("use_sim_time", Parameter.Type.BOOL, False)])
        self.params = declare_sim_params(self, scene_names())
        prm = self.params
        try:
            self.world = World(scene=prm.scene, seed=prm.seed, time_step=1.0 / prm.rate, gui=prm.gui,
                               **prm.scene_options)
        except (SimError, TypeError) as exc:
            if not prm.scene_options:
                raise
            # an option value the scene does not know (SimError), or an option it does not take (TypeError)
            name, value = next(iter(prm.scene_options.items()))   # (only one option is set in practice)
            raise ParameterError(name, f": {value!r} does not fit scene {prm.scene}: {exc}",
                                 node=self.get_name()) from None
        try:
            self._wire()
        except Exception:
            self.world.close()
            raise

    def _wire(self) -> None:
        prm, world = self.params, self.world
        self.clock_offset = 0.0
        # Best effort, depth 1, like rclcpp::ClockQoS and rclpy's TimeSource subscription:
        # a slow /clock reader must never hold the simulation back.
        self._clock_pub = self.create_publisher(Clock, "/clock", CLOCK_QOS)
        self.robots = [RobotIO(self, world, name, robot_namespace(self, name), self.world_time_of,
                               controller_state=prm.controller_state)
                       for name in world.robots]
        self.camera = None
        if prm.camera_rate > 0:
            if CAMERA_NAME in world.cameras:
                self.camera = CameraIO(self, world, prm.camera_width, prm.camera_height)
            else:
                self.get_logger().warning(f"scene {prm.scene} has no '{CAMERA_NAME}' camera: camera off")
        self.objects = ObjectsIO(self, world) if prm.object_rate > 0 else None
        self.create_service(ResetScene, "reset_scene", self._on_reset)
        self.create_service(PerturbObject, "perturb_object", self._on_perturb)
        robots = ", ".join(f"{r.name} -> /{r.namespace}" for r in self.robots)
        camera = (f"camera {prm.camera_width}x{prm.camera_height} at {prm.camera_rate:g} Hz"
                  if self.camera else "camera off")
        self.get_logger().info(
            f"scene {prm.scene} seed {prm.seed}: {prm.rate:g} Hz physics, real_time_factor "
            f"{prm.real_time_factor:g}, joint_states {prm.joint_state_rate:g} Hz, {camera}; robots: {robots}")

    # --- time ------------------------------------------------------------------------
    def ros_time(self) -> float:
        """The sim clock as published on /clock, in seconds."""
        return self.clock_offset + self.world.time

    def world_time_of(self, ros_seconds: float) -> float:
        return ros_seconds - self.clock_offset

    def publish_clock(self, ros_seconds: float) -> None:
        self._clock_pub.publish(clock_bytes(ros_seconds))

    def executing(self) -> bool:
        """Some robot still carries out a command of the nodes (the rtf-0 lead bound asks)."""
        return any(robot.executing() for robot in self.robots)

    # --- services --------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> str:
        """Rebuild the scene (robots home, objects respawned); /clock keeps counting."""
        self.clock_offset += self.world.time + self.world.time_step
        self.world.reset(seed)
        for robot in self.robots:
            robot.rebind()
        if self.camera is not None:
            self.camera.rebind()
        if self.objects is not None:
            self.objects.rebind()
        t = self.ros_time()
        self.publish_clock(t)
        for robot in self.robots:
            robot.publish_joint_states(t)
        return f"scene {self.params.scene} reset with seed {self.world.seed}"

    # Service callbacks run on the executor thread and wait for the stepping thread.
    def _on_reset(self, request, response):
        seed = None if request.seed < 0 else int(request.seed)
        try:
            response.message = self.inbox.call(self.reset, seed)
            response.success = True
        except (SimError, ValueError, InboxClosed, TimeoutError) as err:
            response.success, response.message = False, f"reset failed: {err}"
        self._log_result("reset_scene", response)
        return response

    def _on_perturb(self, request, response):
        try:
            response.success, response.message = self.inbox.call(
                perturb, self.world, request.object_name, request.mode, request.target)
        except (InboxClosed, TimeoutError) as err:
            response.success, response.message = False, f"perturb failed: {err}"
        self._log_result("perturb_object", response)
        return response

    def report_callback_error(self, err: BaseException) -> None:
        self.get_logger().error(f"callback failed: {type(err).__name__}: {err}")

    def _log_result(self, service: str, response) -> None:
        # rclpy ties a severity to each call site: one call per severity.
        if response.success:
            self.get_logger().info(f"{service}: {response.message}")
        else:
            self.get_logger().warning(f"{service}: {response.message}")

    def destroy_node(self) -> None:
        super().destroy_node()
        world = getattr(self, "world", None)        # absent if a parameter was rejected
        if world is not None:
            world.close()
