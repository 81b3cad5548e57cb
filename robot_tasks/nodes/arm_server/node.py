"""ArmServer: the MoveToPose / MoveToJoints action servers of one arm (the ROS shell).

Talks to the robot only through the topic contract (shared/ARCHITECTURE.md), with names
relative to the node's namespace:
    in:  joint_states (sensor_msgs/JointState; like /clock, subscribed only while goals
         run, see robot_tasks/ros/lazy_subscriptions.py), robot_description (std_msgs/String, latched),
         planning_obstacles (robot_tasks_interfaces/msg/ObjectStateArray, latched): the
         run-time collision boxes of PLANNED goals (name, pose, size; frame in the header,
         world or base frame). Each message REPLACES the run-time set, like a MoveIt
         planning-scene update; the static boxes of the obstacle_* parameters always stay.
         A bad set (NaN pose, non-positive size, unknown frame, repeated name) is refused
         whole with a logged reason naming the object, and the previous set stays.
    out: <controller_action> (control_msgs/FollowJointTrajectory, one whole trajectory per
         goal; default joint_trajectory_controller/follow_joint_trajectory, the action of
         ros2_control's joint_trajectory_controller; see controller_client.py)
         ~/sent_trajectory (trajectory_msgs/JointTrajectory, reliable, volatile): a copy of
         each trajectory as it goes to the controller, for recording and checking it
         afterwards (the way MoveIt publishes its planned paths); the demos bag it
    actions: move_to_pose (MoveToPose), move_to_joints (MoveToJoints)

One goal owns the arm at a time: a new goal (of either action) preempts the running one,
which ends PREEMPTED. A cancel cancels the controller's goal from inside the cancel
callback (the controller holds the measured position), so the stop does not wait for the
goal loop; a timeout or a failure stops the arm the same way.
Kinematics come from robot_description (Pinocchio), never from the simulator.
"""
from __future__ import annotations

import concurrent.futures
import threading

from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.node import Node
from rclpy.qos import qos_profile_sensor_data
from sensor_msgs.msg import JointState
from std_msgs.msg import Float64, String
from trajectory_msgs.msg import JointTrajectory

from robot_tasks.control import ArmKinematics, CollisionChecker
from robot_tasks.control.errors import ControlError
from robot_tasks.control.motion_pipeline import MotionPlanner
from robot_tasks.control.planning_scene import runtime_boxes
from robot_tasks.nodes.arm_server.controller_client import TrajectoryControllerClient
from robot_tasks.nodes.arm_server.conversions import obstacle_entries, trajectory_msg
from robot_tasks.nodes.arm_server.execution import GoalExecution, GoalSlot
from robot_tasks.nodes.arm_server.goal_kinds import JointGoalKind, PoseGoalKind
from robot_tasks.nodes.arm_server.parameters import ArmServerConfig, declare_arm_parameters
from robot_tasks.nodes.arm_server.speed_scaling import SpeedScaling
from robot_tasks.ros.joint_state_cache import JointStateCache
from robot_tasks.ros.lazy_subscriptions import ServerStreams
from robot_tasks.ros.qos import LATCHED
from robot_tasks_interfaces.action import MoveToJoints, MoveToPose
from robot_tasks_interfaces.msg import ObjectStateArray


class ArmModel:
    """Everything built from one robot_description: kinematics, planner, goal kinds."""

    def __init__(self, server: "ArmServer", urdf: str):
        cfg = server.cfg
        self.urdf = urdf

        def build():
            return ArmKinematics.from_urdf_string(urdf, cfg.tip_frame, cfg.joint_names,
                                                  cfg.base_frame, source="robot_description")

        self.kin = build()             # for the executor thread (measuring, holding)
        self.planning_kin = build()    # for the worker thread (Pinocchio Data is per thread)
        self._checker = None
        self._checker_tried = False
        self._checker_lock = threading.Lock()
        self._server = server
        self.planner = MotionPlanner(self.planning_kin, cfg.planner, self.checker)
        self.planner.set_runtime_obstacles(server.runtime_obstacles)
        self.pose_kind = PoseGoalKind(self.planner, self.kin, cfg.frames, cfg.defaults)
        self.joint_kind = JointGoalKind(self.planner, cfg.defaults)

    def checker(self):
        """The collision checker (PLANNED goals only), built once, in the planning thread:
        ahead of the first goal, as soon as the model exists (ArmServer._on_description);
        None if the description's collision meshes cannot be loaded."""
        with self._checker_lock:
            if not self._checker_tried:
                self._checker_tried = True
                cfg = self._server.cfg
                try:
                    self._checker = CollisionChecker.from_urdf_string(
                        self.planning_kin, self.urdf, cfg.package_dirs, cfg.obstacles,
                        padding=cfg.collision_padding)
                except (ControlError, RuntimeError, ValueError) as exc:
                    self._server.get_logger().error(f"collision checker unavailable: {exc}")
            return self._checker

    def joints(self, cache: JointStateCache, max_age: float):
        return cache.positions(self.kin.joint_names, max_age)


class ArmServer(Node):
    def __init__(self, node_name: str = "arm_server", **kwargs):
        super().__init__(node_name, **kwargs)
        self.cfg: ArmServerConfig = declare_arm_parameters(self)
        self.use_sim_time = bool(self.get_parameter("use_sim_time").value)
        self.joint_cache = JointStateCache()
        self.runtime_obstacles: list = []   # base frame; the last accepted planning_obstacles
        self.model: ArmModel | None = None
        self.model_problem = ""
        self.worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="arm_plan")
        self._active: GoalSlot | None = None
        self._slots: dict = {}

        self.joint_states_topic = "joint_states"
        self.description_topic = "robot_description"
        # joint_states and /clock only while a goal runs (lazy_subscriptions.py): an idle arm
        # server would spend ~15 % of a core on them
        self.speed_scaling = SpeedScaling()
        self.streams = ServerStreams(self, self._goal_time_subscriptions,
                                     needed=lambda: self._active is not None and not self._active.finished)
        self.create_subscription(String, self.description_topic, self._on_description, LATCHED)
        self.obstacles_topic = "planning_obstacles"
        self.create_subscription(ObjectStateArray, self.obstacles_topic,
                                 self._on_planning_obstacles, LATCHED)
        self.controller = TrajectoryControllerClient(self, self.cfg.controller_action)
        # depth: a recorder that falls behind should still get every trajectory of a short burst
        self.sent_trajectories = self.create_publisher(JointTrajectory, "~/sent_trajectory", 20)
        for name, action in (("move_to_pose", MoveToPose), ("move_to_joints", MoveToJoints)):
            ActionServer(self, action, name,
                         execute_callback=self._make_execute(name),
                         goal_callback=lambda _goal: GoalResponse.ACCEPT,
                         handle_accepted_callback=self._accepted(name),
                         cancel_callback=self._on_cancel)
        self.get_logger().info(
            f"arm_server for '{self.cfg.robot}': joints {self.cfg.joint_names}, tip "
            f"'{self.cfg.tip_frame}' in '{self.cfg.base_frame}', trajectories to "
            f"'{self.controller.action_name}', use_sim_time={self.use_sim_time}")

    # ------------------------------------------------------------ inputs
    def _goal_time_subscriptions(self) -> list:
        subscriptions = [self.create_subscription(JointState, self.joint_states_topic, self.joint_cache.update,
                                                  qos_profile_sensor_data)]
        if self.cfg.speed_scaling_topic:
            subscriptions.append(self.create_subscription(Float64, self.cfg.speed_scaling_topic,
                                                          self.speed_scaling.on_percent, 10))
        return subscriptions

    def _on_description(self, msg: String) -> None:
        if self.model is not None and self.model.urdf == msg.data:
            return
        try:
            self.model = ArmModel(self, msg.data)
            self.model_problem = ""
            # loading the collision meshes takes ~80 ms of CPU: done now, in the planning
            # thread that owns the checker, not in the first PLANNED goal's planning time
            self.worker.submit(self.model.checker)
            self.get_logger().info(f"kinematics ready from robot_description "
                                   f"({len(msg.data)} chars)")
        except (ControlError, RuntimeError, ValueError) as exc:
            self.model = None
            self.model_problem = f"robot_description unusable: {exc}"
            self.get_logger().error(self.model_problem)

    def _on_planning_obstacles(self, msg: ObjectStateArray) -> None:
        """Replace the run-time obstacle set, or refuse the message and keep the old set."""
        static = [box.name for box in self.cfg.obstacles]
        try:
            boxes = runtime_boxes(obstacle_entries(msg), msg.header.frame_id, self.cfg.frames,
                                  reserved=static)
        except ControlError as exc:
            kept = ", ".join(box.name for box in self.runtime_obstacles) or "none"
            self.get_logger().error(f"{self.obstacles_topic} refused: {exc}; keeping the "
                                    f"previous run-time obstacles ({kept})")
            return
        self.runtime_obstacles = boxes
        if self.model is not None:
            self.model.planner.set_runtime_obstacles(boxes)
        described = "; ".join(
            f"{b.name} {b.size[0]:.3f}x{b.size[1]:.3f}x{b.size[2]:.3f} m at "
            f"({b.pose.position[0]:.3f}, {b.pose.position[1]:.3f}, {b.pose.position[2]:.3f})"
            for b in boxes) or "none"
        self.get_logger().info(f"run-time obstacles ({self.cfg.base_frame} frame): {described}; "
                               f"static: {', '.join(static) or 'none'}")

    # ------------------------------------------------------------ outputs
    def send_trajectory(self, trajectory, slot: GoalSlot):
        """Send the goal's trajectory to the controller; None if a newer goal owns the arm."""
        if slot is not self._active:
            return None
        msg = trajectory_msg(trajectory)
        motion = self.controller.send(msg)
        slot.trajectory_sent = True
        self.sent_trajectories.publish(msg)
        return motion

    def stop_motion(self) -> None:
        """Stop the arm where it is: cancel the controller's running goal."""
        self.controller.stop()

    # ------------------------------------------------------------ goal handling
    def _accepted(self, name: str):
        def accept(handle) -> None:
            old = self._active
            slot = GoalSlot(handle, name)
            if old is not None and not old.finished:
                old.preempted = True
                slot.inherited_motion = old.trajectory_sent or old.inherited_motion
            self._active = slot
            self._slots[bytes(handle.goal_id.uuid)] = slot
            handle.execute()
        return accept

    def _make_execute(self, name: str):
        action_type = MoveToPose if name == "move_to_pose" else MoveToJoints

        async def execute(handle):
            slot = self._slots[bytes(handle.goal_id.uuid)]
            return await GoalExecution(self, slot, action_type).run()
        return execute

    def _on_cancel(self, handle) -> CancelResponse:
        slot = self._slots.get(bytes(handle.goal_id.uuid))
        if slot is not None and slot is self._active and not slot.finished:
            self.stop_motion()  # stop now; the goal loop reports CANCELLED on its next check
        return CancelResponse.ACCEPT

    def goal_finished(self, slot: GoalSlot) -> None:
        self._slots.pop(bytes(slot.handle.goal_id.uuid), None)
        if self._active is slot:
            self._active = None

    def destroy_node(self):
        worker = getattr(self, "worker", None)  # absent if __init__ failed on a parameter
        if worker is not None:
            worker.shutdown(wait=False, cancel_futures=True)
        return super().destroy_node()
