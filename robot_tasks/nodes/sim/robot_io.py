"""One simulated robot's ROS face, shaped like a ros2_control driver.

Under the robot's namespace `<ns>` (see params.robot_namespace):

* publishes `<ns>/joint_states` (sensor_msgs/JointState, every movable joint incl. fingers)
  and `<ns>/robot_description` (std_msgs/String, transient_local: late joiners get it);
* the arm's joint_trajectory_controller: its follow_joint_trajectory action, joint_trajectory
  topic, speed_scaling_input and controller_state, with JTC's rules (trajectory_controller_io.py);
* the Panda's hand: franka_gripper's actions, stop service and joint_states under
  `<ns>/franka_gripper/` (franka_gripper_io.py);
* with the sim's `controller_state` parameter on: publishes, once per control step,
  `<ns>/sim/arm_control_steps` and (Panda fingers) `<ns>/sim/gripper_control_steps`, a
  sim-only record for datasets (robot_tasks_interfaces/JointControllerState:
  the command applied in that step and the positions measured just before it; both
  messages of a step carry the same stamp, the step's time);
* the UR10: its IO controller's `<ns>/io_and_status_controller/set_io` and `.../io_states`,
  with the suction cup's vacuum valve and switch (and the belt, if the scene has one) on
  its pins (ur_io.py);
* an arm with compliant controllers: the switch/list services, command topics, F/T and
  controller-state topics of controller_io.py. While a compliant controller drives the arm,
  joint_states' effort of the arm joints is the torque it applied in the last step.

A rejected command changes nothing and is logged with the reason (which names the
point and field).  Subscription callbacks run on the executor thread and only post
the message to the node's Inbox; the `_apply_*` methods run on the stepping thread,
the only thread that touches the World.
"""
from __future__ import annotations

import numpy as np
import pybullet as p
from sensor_msgs.msg import JointState
from std_msgs.msg import String

from robot_tasks.controller_topics import ARM_STATE_TOPIC, GRIPPER_STATE_TOPIC
from robot_tasks.nodes.sim.controller_io import ControllerIO
from robot_tasks.nodes.sim.franka_gripper_io import FrankaGripperIO
from robot_tasks.nodes.sim.speed_scaling_io import SpeedSliderIO
from robot_tasks.nodes.sim.trajectory_controller_io import TrajectoryControllerIO
from robot_tasks.nodes.sim.ur_io import UrIO
from robot_tasks.nodes.sim.wire import ControllerStateWire, JointStateWire
from robot_tasks.ros.qos import LATCHED
from robot_tasks.sim.controller import Outcome
from robot_tasks.sim.grippers import ParallelGripper, SuctionGripper
from robot_tasks_interfaces.msg import JointControllerState

# Samples each per-step record writer keeps for resending. Over loopback UDP, a reader
# process starved of CPU loses datagrams in bursts (a loaded machine: gaps of 10-17 steps
# in a banana run at rtf 1); the reliable writer resends what the reader asks for only while
# it still holds it, and the reader asks after the writer's next heartbeat (Fast DDS: every
# 3 s). 10000 steps is 3 s of steps at 14x real time; under 1 KB each.
STEP_RECORD_DEPTH = 10_000

class RobotIO:
    """Publishers and command subscriptions of one robot of the world."""

    def __init__(self, node, world, robot_name: str, namespace: str, world_time_of,
                 controller_state: bool = False):
        """`world_time_of(ros_seconds)` maps a ROS stamp to the World's own time;
        `node.inbox` carries commands to the stepping thread; `controller_state`: publish
        the per-step controller states."""
        self.node = node
        self.world = world
        self.name = robot_name
        self.namespace = namespace
        self._world_time_of = world_time_of
        self._log = node.get_logger()
        prefix = f"{namespace}/" if namespace else ""
        self.topic = lambda rel: prefix + rel
        self.robot = world.robot(robot_name)
        self._js_wire = JointStateWire(self.robot.joint_names)
        self._bind_joints()
        self._js_pub = node.create_publisher(JointState, self.topic("joint_states"), 10)
        self._desc_pub = node.create_publisher(String, self.topic("robot_description"), LATCHED)
        self._desc_pub.publish(String(data=self.robot.robot_description))
        self.trajectory_controller = TrajectoryControllerIO(node, self)
        self.gripper_io = self._gripper_driver(node)
        # a UR's speed slider and its broadcaster (Universal_Robots_ROS2_Driver); SuctionGripper
        # marks the UR10 here, as in _gripper_driver
        self.speed_slider = SpeedSliderIO(node, self) if isinstance(self.robot.gripper, SuctionGripper) else None
        self.controllers = ControllerIO(node, self) if self.robot.controllers is not None else None
        self._state_pubs = {}
        self._record_steps = controller_state
        self._bind_recording()
        if controller_state:
            self._state_pubs["arm"] = (node.create_publisher(JointControllerState, self.topic(ARM_STATE_TOPIC),
                                                             STEP_RECORD_DEPTH),
                                       ControllerStateWire(self.robot.arm_joint_names))
            if isinstance(self.robot.gripper, ParallelGripper):
                self._state_pubs["gripper"] = (
                    node.create_publisher(JointControllerState, self.topic(GRIPPER_STATE_TOPIC), STEP_RECORD_DEPTH),
                    ControllerStateWire(self.robot.gripper.finger_joints))

    def _subscribe(self, msg_type, topic: str, apply) -> None:
        """Subscribe `topic`; the callback (executor thread) only posts `apply(msg)`."""
        post = self.node.inbox.post
        self.node.create_subscription(msg_type, self.topic(topic), lambda msg: post(apply, msg), 10)

    def _gripper_driver(self, node):
        """The driver of the robot's tool: franka_gripper for the Panda's hand, the UR's IO
        controller for the UR10 (its suction cup hangs on the IO's pins)."""
        gripper = self.robot.gripper
        if isinstance(gripper, ParallelGripper):
            return FrankaGripperIO(node, self)
        if isinstance(gripper, SuctionGripper):
            prm = node.params
            return UrIO(node, self, prm.vacuum_output_pin, prm.vacuum_sensor_pin, prm.conveyor_output_pin)
        return None

    def rebind(self) -> None:
        """After World.reset(): the Robot object was rebuilt; pick up the new one."""
        self.robot = self.world.robot(self.name)
        self._bind_joints()
        self._bind_recording()
        if self.gripper_io is not None:
            self.gripper_io.rebind()
        self.trajectory_controller.abort_running("the scene was reset")

    # --- state out ------------------------------------------------------------------
    def _bind_recording(self) -> None:
        """The controllers measure before each command only when their states go out."""
        for part in (self.robot.controller, self.robot.gripper):
            if part is not None and hasattr(part, "record_steps"):
                part.record_steps = self._record_steps

    def _bind_joints(self) -> None:
        robot = self.robot
        self._read_args = (robot.body_id, robot.indices(robot.joint_names))
        self._client = robot.world.client
        self._arm_slots = [robot.joint_names.index(n) for n in robot.arm_joint_names]
        self._arm_indices = robot.indices(robot.controller.joint_names)

    def publish_joint_states(self, ros_seconds: float) -> None:
        """Every movable joint, in URDF order: position, velocity, effort (motor force/torque)."""
        states = p.getJointStates(*self._read_args, physicsClientId=self._client)
        effort = [s[3] for s in states]
        torque_loop = self.robot.controllers.current() if self.robot.controllers is not None else None
        if torque_loop is not None:   # PyBullet reports no effort for TORQUE_CONTROL joints
            for slot, tau in zip(self._arm_slots, torque_loop.motors.applied):
                effort[slot] = float(tau)
        positions, velocities = [s[0] for s in states], [s[1] for s in states]
        self._js_pub.publish(self._js_wire.serialize(ros_seconds, positions, velocities, effort))
        arm = self._arm_slots
        self.trajectory_controller.publish_state(
            ros_seconds, np.array([positions[i] for i in arm]), np.array([velocities[i] for i in arm]))
        if self.controllers is not None:
            self.controllers.publish(ros_seconds)
        if self.gripper_io is not None:
            self.gripper_io.publish_state(ros_seconds)
        if self.speed_slider is not None:
            self.speed_slider.publish()

    def robot_arm_state(self):
        """Measured (positions, velocities) of the arm joints, in the controller's order."""
        states = p.getJointStates(self.robot.body_id, self._arm_indices, physicsClientId=self._client)
        return np.array([s[0] for s in states]), np.array([s[1] for s in states])

    def publish_controller_state(self, step_seconds: float) -> None:
        """The last control step's command and the measurement just before it (stamp: the
        step's time), for the arm's trajectory controller and the fingers."""
        if not self._state_pubs:
            return
        robot = self.robot
        reference, feedback = robot.controller.step_record()
        publisher, wire = self._state_pubs["arm"]
        publisher.publish(wire.serialize(step_seconds, reference, feedback, reference, "position"))
        gripper = self._state_pubs.get("gripper")
        if gripper is not None:
            publisher, wire = gripper
            publisher.publish(wire.serialize(step_seconds, *robot.gripper.step_record()))

    def poll_gripper(self) -> None:
        """After steps (each joint_states tick, never gated): the gripper driver ends the
        goals its hand finished and reports an input that changed."""
        if self.gripper_io is not None:
            self.gripper_io.poll(self.node.ros_time())

    def executing(self) -> bool:
        """A command of the nodes is still being carried out: a trajectory runs (or settles)
        or the hand moves (stepping thread; the rtf-0 lead bound asks, lead.py)."""
        if self.robot.controller.outcome is Outcome.EXECUTING:
            return True
        hand = getattr(self.gripper_io, "hand", None)      # franka_gripper's; a UR's IO has none
        return hand is not None and hand.running is not None

    # --- commands in ----------------------------------------------------------------
    def reject(self, what: str, topic: str, reason: str) -> None:
        self._log.warning(f"{self.name}: rejected {what} on '{self.topic(topic)}': {reason}")
