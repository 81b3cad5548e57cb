"""StatePublisher: URDFs + joint states (+ camera pose, objects) -> /tf and /tf_static.

Per robot namespace `<ns>` (parameter `robots`):
  sub  <ns>/robot_description  (transient_local)  std_msgs/String     -> a FrameTree
  sub  <ns>/joint_states                           sensor_msgs/JointState
Scene (relative names, so `-r __ns:=` moves them):
  sub  camera/pose             (transient_local)  geometry_msgs/PoseStamped
  sub  objects                                     robot_tasks_interfaces/ObjectStateArray
Out:
  pub  /tf_static              (transient_local, depth 1)  tf2_msgs/TFMessage: the whole
       static set every time it grows or changes, as tf2_ros' static broadcaster does
  pub  /tf                                         tf2_msgs/TFMessage

A robot_description that cannot be used is logged (naming the robot and the reason)
and that robot's frames are left out until a good one arrives.

Nobody watching costs (almost) nothing: joint_states and objects (and /clock) are
subscribed only while /tf has a subscriber (rviz2, Foxglove, a tf2 listener; checked
twice a second, robot_tasks/ros/lazy_subscriptions.py), and arrive serialized, decoded
only then. robot_state_publisher always publishes; here the 100 Hz decode + forward
kinematics was a tenth of a core at rtf 1 with no one listening, and merely receiving
the undecoded messages another tenth.
"""
from __future__ import annotations

from geometry_msgs.msg import PoseStamped
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rclpy.serialization import deserialize_message
from sensor_msgs.msg import JointState
from std_msgs.msg import String

from robot_tasks.control.errors import ControlError
from robot_tasks.control.frame_tree import FrameTree
from robot_tasks.nodes.state_publisher.parameters import RobotFrames, declare_state_publisher_parameters
from robot_tasks.nodes.state_publisher.tf_convert import pose_of, transform_stamped
from robot_tasks.ros.lazy_subscriptions import ServerStreams
from robot_tasks.ros.qos import LATCHED
from robot_tasks_interfaces.msg import ObjectStateArray
from tf2_msgs.msg import TFMessage

TF_TOPIC, TF_STATIC_TOPIC = "/tf", "/tf_static"
# tf2_ros' own choices: /tf reliable, volatile, depth 100; /tf_static latched, depth 1
TF_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.VOLATILE)


class RobotTransforms:
    """One robot's frames: its FrameTree once the description came, prefixed names."""

    def __init__(self, node: "StatePublisher", robot: RobotFrames):
        self.node, self.robot = node, robot
        self.tree: FrameTree | None = None
        node.create_subscription(String, f"{robot.namespace}/robot_description", self.on_description, LATCHED)

    def subscribe_joint_states(self):
        return self.node.create_subscription(JointState, f"{self.robot.namespace}/joint_states",
                                             self.on_serialized_joint_states, 10, raw=True)

    def frame(self, link: str) -> str:
        return self.robot.frame_prefix + link

    def on_description(self, msg: String) -> None:
        source = f"{self.robot.namespace}/robot_description"
        try:
            tree = FrameTree.from_urdf_string(msg.data, source)
        except ControlError as err:
            self.node.get_logger().error(f"robot {self.robot.namespace}: no frames: {err}")
            return
        self.tree = tree
        stamp = self.node.get_clock().now().to_msg()
        static = [transform_stamped(self.node.config.world_frame, self.frame(tree.root_link),
                                    self.robot.base_pose, stamp)]
        static += [transform_stamped(self.frame(t.parent), self.frame(t.child), t.pose, stamp)
                   for t in tree.fixed_transforms()]
        self.node.set_static(static)
        self.node.get_logger().info(f"robot {self.robot.namespace}: {len(tree.links)} links, "
                                    f"{len(tree.movable_joint_names)} movable joints")

    def on_serialized_joint_states(self, data: bytes) -> None:
        if self.tree is not None and self.node.tf_pub.get_subscription_count():
            self.on_joint_states(deserialize_message(data, JointState))

    def on_joint_states(self, msg: JointState) -> None:
        tree = self.tree
        if tree is None:
            return
        tree.set_positions(msg.name, msg.position)
        stamp = msg.header.stamp
        transforms = [transform_stamped(self.frame(t.parent), self.frame(t.child), t.pose, stamp)
                      for t in tree.moving_transforms()]
        if transforms:
            self.node.tf_pub.publish(TFMessage(transforms=transforms))


class StatePublisher(Node):
    def __init__(self, node_name: str = "state_publisher", **kwargs):
        super().__init__(node_name, **kwargs)
        self.config = declare_state_publisher_parameters(self)
        self.tf_pub = self.create_publisher(TFMessage, TF_TOPIC, TF_QOS)
        self._static_pub = self.create_publisher(TFMessage, TF_STATIC_TOPIC, LATCHED)
        self._static: dict[str, object] = {}          # child frame -> TransformStamped
        self.robots = [RobotTransforms(self, robot) for robot in self.config.robots]
        if self.config.camera_frame:
            self.create_subscription(PoseStamped, "camera/pose", self.on_camera_pose, LATCHED)
        # joint_states, objects and /clock only while /tf has a subscriber (checked twice a
        # second; robot_tasks/ros/lazy_subscriptions.py): 100 Hz of joint_states cost an
        # idle state_publisher a tenth of a core even undecoded
        self.streams = ServerStreams(self, self._subscribe_streams,
                                     needed=lambda: self.tf_pub.get_subscription_count() > 0, start_open=False)
        self.get_logger().info(f"frames of {[r.namespace for r in self.config.robots]} on "
                               f"{TF_TOPIC} and {TF_STATIC_TOPIC}")

    def _subscribe_streams(self) -> list:
        subscriptions = [robot.subscribe_joint_states() for robot in self.robots]
        if self.config.objects:
            subscriptions.append(self.create_subscription(ObjectStateArray, "objects", self.on_objects, 10))
        return subscriptions

    def set_static(self, transforms) -> None:
        """Add or replace static transforms (by child frame); publish the whole set."""
        for t in transforms:
            self._static[t.child_frame_id] = t
        self._static_pub.publish(TFMessage(transforms=list(self._static.values())))

    def on_camera_pose(self, msg: PoseStamped) -> None:
        parent = msg.header.frame_id or self.config.world_frame
        self.set_static([transform_stamped(parent, self.config.camera_frame,
                                           pose_of(msg.pose.position, msg.pose.orientation), msg.header.stamp)])

    def on_objects(self, msg: ObjectStateArray) -> None:
        if not self.tf_pub.get_subscription_count():
            return
        parent = msg.header.frame_id or self.config.world_frame
        transforms = [transform_stamped(parent, o.name, pose_of(o.pose.position, o.pose.orientation),
                                        msg.header.stamp) for o in msg.objects]
        if transforms:
            self.tf_pub.publish(TFMessage(transforms=transforms))
