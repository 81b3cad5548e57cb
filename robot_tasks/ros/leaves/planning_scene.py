"""SetPlanningObstacles leaf: tell the arm servers which perceived objects PLANNED avoids.

A planning scene has static obstacles (the table: the arm server's obstacle_*
parameters) and run-time ones, whose poses are only known once perception has seen them
(the bowl). This leaf publishes the run-time set, as MoveIt's planning-scene updates do:
one robot_tasks_interfaces/msg/ObjectStateArray on the latched topic `planning_obstacles`
(frame "world", the detections' frame) that REPLACES the previous set; an empty set clears it.

    <SetPlanningObstacles name="bowl_as_obstacle" objects="{detections}" labels="{place_label}"
                          margin="0.02"/>
    <MoveToPose name="pregrasp" pose="{pregrasp_pose}" motion="planned"/>

Each detection whose label is listed in `labels` (DetectObjects' dicts: label, id, pose,
size; no labels = no boxes, which clears the set) becomes one box named
by its id (or label), its size grown by `margin` on every side: perception's box is an
estimate, the margin is the room the planner keeps. The leaf is RUNNING until every
subscriber (each arm server) has acknowledged the message (DDS reliable delivery), so the
next PLANNED goal is planned with it; FAILURE after `timeout` ms, or when nobody listens.
The arm server refuses a bad set whole (NaN pose, non-positive size) and logs why.
"""
from __future__ import annotations

import math
import time

from rclpy.duration import Duration

from robot_tasks.bt import InputPort, NodeStatus, OutputPort, StatefulActionNode
from robot_tasks.bt.errors import BehaviorTreeError
from robot_tasks.ros.leaves.values import parse_pose, parse_string_list
from robot_tasks.ros.qos import LATCHED

NO_WAIT = Duration(seconds=0)


def obstacle_publisher(ros_node, topic: str):
    """The one latched ObjectStateArray publisher of `ros_node` on `topic`, created on first use."""
    from robot_tasks_interfaces.msg import ObjectStateArray
    cache = ros_node.__dict__.setdefault("_robot_tasks_obstacle_publishers", {})
    if topic not in cache:
        cache[topic] = ros_node.create_publisher(ObjectStateArray, topic, LATCHED)
    return cache[topic]


def obstacle_message(detections, labels, margin: float, stamp=None):
    """The ObjectStateArray of the detections whose label is in `labels` (none when empty:
    an object to pick must never become an obstacle by default)."""
    from robot_tasks_interfaces.msg import ObjectState, ObjectStateArray
    if not (isinstance(margin, (int, float)) and math.isfinite(margin) and margin >= 0):
        raise ValueError(f"margin: expected a non-negative number of metres, got {margin!r}")
    msg = ObjectStateArray()
    msg.header.frame_id = "world"
    if stamp is not None:
        msg.header.stamp = stamp
    for index, det in enumerate(detections or []):
        if not isinstance(det, dict):
            raise ValueError(f"objects[{index}]: expected a detection (dict), got {type(det).__name__}")
        label = str(det.get("label", ""))
        if label not in labels:
            continue
        position, quaternion, _ = parse_pose(det)
        size = det.get("size") or {}
        obj = ObjectState()
        obj.name = str(det.get("id") or label)
        obj.label = label
        p, o = obj.pose.position, obj.pose.orientation
        p.x, p.y, p.z = position
        o.x, o.y, o.z, o.w = quaternion
        try:
            obj.size.x, obj.size.y, obj.size.z = (float(size[k]) + 2.0 * margin for k in "xyz")
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"objects[{index}] ('{obj.name}'): size needs x, y, z numbers, "
                             f"got {size!r}") from None
        msg.objects.append(obj)
    return msg


class SetPlanningObstacles(StatefulActionNode):
    """Publish the run-time obstacle set of the arm servers' PLANNED motions (see module doc)."""

    def __init__(self, name: str, config, ros_node):
        super().__init__(name, config)
        self.ros_node = ros_node  # None only when registered for validation

    @staticmethod
    def provided_ports():
        return [
            InputPort("objects", description="detections (DetectObjects' `objects`) to avoid; empty = clear"),
            InputPort("labels", default="", description="'bowl;bin': labels of the detections to avoid; empty = none (clears)"),
            InputPort("margin", float, default=0.02, description="m added on every side of each box"),
            InputPort("topic", str, default="planning_obstacles",
                      description="the arm servers' run-time obstacle topic (relative = executor's namespace)"),
            InputPort("timeout", int, default=2000, description="ms to wait for every arm server to acknowledge"),
            OutputPort("count", int, description="number of boxes published"),
        ]

    def on_start(self) -> NodeStatus:
        if self.ros_node is None:
            raise BehaviorTreeError(f"{self.full_path}: SetPlanningObstacles was registered without "
                                    f"an rclpy node; use register_ros_nodes(factory, ros_node)")
        try:
            objects = self.get_input("objects", default=None) or []
            if not isinstance(objects, (list, tuple)):
                objects = [objects]
            labels = parse_string_list(self.get_input("labels"), "labels")
            msg = obstacle_message(objects, labels, self.get_input("margin"),
                                   self.ros_node.get_clock().now().to_msg())
        except ValueError as exc:
            self.ros_node.get_logger().error(f"[{self.full_path}] {exc}")
            return NodeStatus.FAILURE
        self._publisher = obstacle_publisher(self.ros_node, self.get_input("topic"))
        self._publisher.publish(msg)
        self._deadline = time.monotonic() + self.get_input("timeout") / 1000.0
        if "count" in self.config.output_ports:
            self.set_output("count", len(msg.objects))
        names = ", ".join(f"{o.name} {o.size.x:.3f}x{o.size.y:.3f}x{o.size.z:.3f} m" for o in msg.objects)
        self.ros_node.get_logger().info(f"[{self.full_path}] run-time obstacles: {names or 'none'}")
        return self.on_running()

    def on_running(self) -> NodeStatus:
        listening = self._publisher.get_subscription_count() > 0
        if listening and self._publisher.wait_for_all_acked(NO_WAIT):
            return NodeStatus.SUCCESS
        if time.monotonic() < self._deadline:
            return NodeStatus.RUNNING
        why = "not acknowledged by every arm server" if listening else "no arm server subscribes"
        self.ros_node.get_logger().error(f"[{self.full_path}] '{self._publisher.topic_name}': {why} "
                                         f"within {self.get_input('timeout')} ms")
        return NodeStatus.FAILURE

    def on_halted(self) -> None:
        pass  # published already: a set stays until the next one replaces it
