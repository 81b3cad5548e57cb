"""The leaves of one robot that read the world: its tool pose, the cube's targets, and
the checks that set off the recovery. World state comes from perception (`detections`)
and the robot's joint_states (`ee_pose`), never from the simulator's ground truth.

The checks only read: CubeUnmoved and CubeInGripper are conditions; CubeOnStack, which
waits for an image taken after the release, is a stateful action with no output. When
one fails, the XML raises the robot's `needs_recovery` flag with a Script, so the flag,
and who raised it, is in the tree.
"""
from __future__ import annotations

import logging
import math
import time

from robot_tasks.bt import ConditionNode, InputPort, NodeStatus, OutputPort, StatefulActionNode, SyncActionNode
from robot_tasks.bt.errors import BehaviorTreeError
from robot_tasks.robots import PANDA_ARM_JOINTS
from robot_tasks.tasks.tool_pose import tool_pose_from_joints
from robot_tasks.tasks.world_view import (
    Vec3,
    WorldViewError,
    detections_stamp,
    field_of,
    position_of_pose,
    seen_by_label,
    stamp_seconds,
)

from . import targets as geo

LOG = logging.getLogger("robot_tasks.tasks.pyramid")
SUCCESS, FAILURE, RUNNING = NodeStatus.SUCCESS, NodeStatus.FAILURE, NodeStatus.RUNNING
PANDA_JOINTS = ";".join(PANDA_ARM_JOINTS)


def seen_of(node) -> dict:
    """The node's `detections` port as {label: Seen}; a malformed one names the node."""
    try:
        return seen_by_label(node.get_input("detections", default=None))
    except WorldViewError as exc:
        raise BehaviorTreeError(f"node '{node.full_path}': {exc}") from None


def _detections_port():
    return InputPort("detections", description="DetectedObjectArray (dict or message) from perception")


def _yaw_port():
    return InputPort("base_yaw", float, default=0.0, description="robot base yaw about world z [rad]")


class RobotToolPose(SyncActionNode):
    """Forward kinematics of this robot's `joint_states` -> `ee_pose` in the world frame,
    for a base at `base_position` turned by `base_yaw` (the second Panda faces the first)."""

    @staticmethod
    def provided_ports():
        return [InputPort("joint_states", description="sensor_msgs/JointState (dict or message)"),
                InputPort("robot_description", str, description="URDF text"),
                InputPort("tip_frame", str, default="panda_grasptarget", description="tool frame"),
                InputPort("base_position", str, default="0;0;0", description="'x;y;z' of the base in the world"),
                _yaw_port(),
                OutputPort("ee_pose", description="tool pose {x,y,z,qx,qy,qz,qw,frame_id,stamp}")]

    def tick(self):
        states, urdf = self.get_input("joint_states", default=None), self.get_input("robot_description", default=None)
        if states is None or not urdf:
            return FAILURE
        try:
            base = [float(v) for v in self.get_input("base_position").split(";") if v.strip()]
            if len(base) != 3:
                raise ValueError(f"base_position needs 'x;y;z', got {self.get_input('base_position')!r}")
            local = tool_pose_from_joints(urdf, list(field_of(states, "name") or []),
                                          list(field_of(states, "position") or []), PANDA_JOINTS.split(";"),
                                          self.get_input("tip_frame"))
        except Exception as exc:  # ModelError, ValueError: name the node, don't crash the executor
            raise BehaviorTreeError(f"node '{self.full_path}': {exc}") from None
        pose = rotate_about_z(local, self.get_input("base_yaw"), base)
        stamp = stamp_seconds(field_of(field_of(states, "header") or {}, "stamp"))
        if stamp:
            pose["stamp"] = stamp
        self.set_output("ee_pose", pose)
        return SUCCESS


def rotate_about_z(pose: dict, yaw: float, offset) -> dict:
    """A base-frame pose dict -> world frame, for a base turned by `yaw` at `offset`."""
    c, s = math.cos(yaw), math.sin(yaw)
    x, y = pose["x"], pose["y"]
    hc, hs = math.cos(yaw / 2.0), math.sin(yaw / 2.0)        # q_world = Rz(yaw) * q_local
    qx, qy, qz, qw = pose["qx"], pose["qy"], pose["qz"], pose["qw"]
    return {"x": c * x - s * y + offset[0], "y": s * x + c * y + offset[1], "z": pose["z"] + offset[2],
            "qx": hc * qx - hs * qy, "qy": hc * qy + hs * qx, "qz": hc * qz + hs * qw, "qw": hc * qw - hs * qz,
            "frame_id": "world"}


class PickPoses(SyncActionNode):
    """approach / grasp / lift poses of `cube` as seen now, and `picked_from` (where it
    was seen) for CubeUnmoved. FAILURE when the cube is not seen, or is seen below the
    table top (it fell off the table: no pose of the arm reaches it, and restaging above it
    would be tried forever).

    `grasp_turn` turns the grip from the robot's forward direction: with the default 0
    a Panda's fingers close across its forward axis, i.e. across the pyramid's rows,
    which run from one robot to the other (their cubes stand 4 mm apart, too close for
    a finger between them). A cube seen close along that axis (one knocked beside a
    stack) turns the grip a quarter (targets.grasp_yaw_clear_of)."""

    @staticmethod
    def provided_ports():
        return [InputPort("cube", str), _detections_port(), _yaw_port(),
                InputPort("grasp_turn", float, default=0.0,
                          description="grip yaw relative to the base yaw [rad]"),
                OutputPort("approach_pose"), OutputPort("grasp_pose"), OutputPort("lift_pose"),
                OutputPort("picked_from", description="'x;y;z' of the cube when the targets were made")]

    def tick(self):
        name = self.get_input("cube")
        seen = seen_of(self)
        cube = seen.get(name)
        if cube is None:
            return FAILURE
        if geo.fell_off_table(cube.position):
            LOG.warning("%s: %s lies at (%.3f, %.3f, %.3f), below the table top: it fell off the table, "
                        "out of reach", self.full_path, name, *cube.position)
            return FAILURE
        others = [s.position for label, s in seen.items() if label != name]
        poses = geo.pick_targets(cube.position, cube.yaw, self.get_input("base_yaw") + self.get_input("grasp_turn"),
                                 others=others)
        for name, pose in poses.items():
            self.set_output(name, pose)
        self.set_output("picked_from", ";".join(f"{v:.4f}" for v in cube.position))
        return SUCCESS


class CubeUnmoved(ConditionNode):
    """FAILURE when `cube` is seen more than `threshold` from `picked_from` (a cube not
    seen -- the gripper hides it -- is no evidence of a move)."""

    @staticmethod
    def provided_ports():
        return [InputPort("cube", str), _detections_port(), InputPort("picked_from", str),
                InputPort("threshold", float, default=0.03, description="m")]

    def tick(self):
        now = seen_of(self).get(self.get_input("cube"))
        if now is None:
            return SUCCESS
        start = position_of_pose(self.get_input("picked_from"))
        return FAILURE if math.dist(start, now.position) > self.get_input("threshold") else SUCCESS


class CubeInGripper(ConditionNode):
    """Drop check while carrying: FAILURE when `cube` is seen more than `threshold` from
    where the tool was when that image was taken. The node keeps the tool poses it was
    ticked with (`ee_pose` carries its joint_states `stamp`); an image from before the
    carry started, or with no matching tool pose, is no evidence."""

    HISTORY_S = 3.0

    def __init__(self, name, config=None):
        super().__init__(name, config)
        self.history: list = []

    @staticmethod
    def provided_ports():
        return [InputPort("cube", str), _detections_port(),
                InputPort("ee_pose", description="tool pose with its joint_states 'stamp' [s]"),
                InputPort("threshold", float, default=0.10, description="m")]

    def tick(self):
        pose = self.get_input("ee_pose", default=None)
        if isinstance(pose, dict) and pose.get("stamp") is not None:
            self._remember(float(pose["stamp"]), position_of_pose(pose))
        held = seen_of(self).get(self.get_input("cube"))
        seen_at = detections_stamp(self.get_input("detections", default=None))
        tool = self._tool_at(seen_at)
        if held is None or tool is None:
            return SUCCESS
        return FAILURE if math.dist(held.position, tool) > self.get_input("threshold") else SUCCESS

    def _remember(self, stamp, position):
        if self.history and stamp < self.history[-1][0] - self.HISTORY_S:
            self.history.clear()   # a new carry long after the last one (or a sim reset)
        if not self.history or stamp > self.history[-1][0]:
            self.history.append((stamp, position))
        while self.history and self.history[0][0] < stamp - self.HISTORY_S:
            self.history.pop(0)

    def _tool_at(self, stamp):
        if stamp is None or not self.history or stamp < self.history[0][0]:
            return None
        return min(self.history, key=lambda item: abs(item[0] - stamp))[1]

    def halt(self):
        self.history.clear()
        super().halt()


class ImageAfterStart:
    """Waiting for an image taken after a node started: the tool pose's joint_states
    stamp at the start is the moment; an image is fresh once its stamp is later. Without
    a stamped tool pose every image counts as fresh; after `timeout` wall s the wait ends
    with no fresh image (the caller decides what that means)."""

    def __init__(self, ee_pose, timeout: float):
        stamped = isinstance(ee_pose, dict) and ee_pose.get("stamp")
        self.since = float(ee_pose["stamp"]) if stamped else None
        self.deadline = time.monotonic() + timeout

    def fresh(self, detections) -> bool:
        seen_at = detections_stamp(detections)
        return self.since is None or (seen_at is not None and seen_at > self.since)

    def timed_out(self) -> bool:
        return time.monotonic() >= self.deadline


def goal_xy_of(node) -> list[float]:
    """The node's `goal` port, 'x;y' of the robot's stack; a malformed one names the node."""
    try:
        goal_xy = [float(v) for v in node.get_input("goal").split(";") if v.strip()]
    except ValueError:
        goal_xy = []
    if len(goal_xy) != 2:
        raise BehaviorTreeError(f"node '{node.full_path}': goal must be 'x;y', got {node.get_input('goal')!r}")
    return goal_xy


def _goal_of(node) -> Vec3:
    """The centre of the robot's next level on its stack, from the `goal` and `placed` ports."""
    return geo.goal_position(goal_xy_of(node), node.get_input("placed"))


def _goal_ports():
    return [InputPort("ee_pose", description="tool pose with its joint_states 'stamp' [s]"),
            InputPort("goal", str, description="'x;y' of this robot's stack in the world"),
            InputPort("placed", int, default=0, description="cubes already on the stack")]


class PlacePoses(StatefulActionNode):
    """place approach / place / retract poses that put the held `cube` on this robot's
    `goal` at level `placed`, calibrated from the cube as seen in the hand: RUNNING until
    an image taken after this node started (at most `timeout` s; then uncalibrated)."""

    @staticmethod
    def provided_ports():
        return [InputPort("cube", str), _detections_port(), *_goal_ports(),
                InputPort("timeout", float, default=2.0, description="wall s to wait for a fresh image"),
                OutputPort("place_approach_pose"), OutputPort("place_pose"), OutputPort("retract_pose")]

    def on_start(self):
        self.image = ImageAfterStart(self.get_input("ee_pose", default=None), self.get_input("timeout"))
        return self.on_running()

    def on_running(self):
        fresh = self.image.fresh(self.get_input("detections", default=None))
        if not fresh and not self.image.timed_out():
            return RUNNING
        pose = self.get_input("ee_pose", default=None)
        if not isinstance(pose, dict):
            return FAILURE
        held = seen_of(self).get(self.get_input("cube")) if fresh else None
        yaw = geo.yaw_of_pose(pose)
        offset = geo.in_hand_offset(held.position if held else None, position_of_pose(pose),
                                    closing=geo.closing_axis(yaw))
        LOG.info("%s: %s in the hand %s, offset from the tool (%.3f, %.3f, %.3f) m; level %d",
                 self.full_path, self.get_input("cube"), "seen" if held else "not seen (uncalibrated)",
                 *offset, self.get_input("placed"))
        for name, target in geo.place_targets(_goal_of(self), offset, yaw).items():
            self.set_output(name, target)
        return SUCCESS

    def on_halted(self):
        pass


class CubeOnStack(StatefulActionNode):
    """After the release: is `cube` where it was put, on this robot's stack at level
    `placed`? RUNNING until an image taken after this node started (at most `timeout`
    wall s), then FAILURE when that image shows the cube off the stack (held tilted, it
    slid off the top), else SUCCESS. A cube not seen, or no fresh image, is no evidence
    against the placement: the old behaviour, booking the release."""

    @staticmethod
    def provided_ports():
        return [InputPort("cube", str), _detections_port(), *_goal_ports(),
                InputPort("within", float, default=0.03, description="m across from the goal"),
                # longer than PlacePoses' wait: a loaded machine's camera can lag 2 s behind
                InputPort("timeout", float, default=4.0, description="wall s to wait for a fresh image")]

    def on_start(self):
        self.image = ImageAfterStart(self.get_input("ee_pose", default=None), self.get_input("timeout"))
        return self.on_running()

    def on_running(self):
        cube = self.get_input("cube")
        if not self.image.fresh(self.get_input("detections", default=None)):
            if not self.image.timed_out():
                return RUNNING
            LOG.warning("%s: no image after the release of %s; taking it as placed", self.full_path, cube)
            return SUCCESS
        seen, goal = seen_of(self).get(cube), _goal_of(self)
        if seen is None or geo.on_stack(seen.position, goal, self.get_input("within")):
            return SUCCESS
        LOG.warning("%s: %s lies at (%.3f, %.3f, %.3f), off the stack at (%.3f, %.3f, %.3f)",
                    self.full_path, cube, *seen.position, *goal)
        return FAILURE

    def on_halted(self):
        pass


class WaitUntilSettled(StatefulActionNode):
    """RUNNING until `cube` has been at rest in the images for `stable_s` (every sighting
    of that span within `within` of the newest), then SUCCESS. FAILURE after `timeout`
    wall seconds without seeing it settle."""

    @staticmethod
    def provided_ports():
        return [InputPort("cube", str), _detections_port(),
                InputPort("stable_s", float, default=0.2, description="s at rest (image time)"),
                InputPort("within", float, default=0.008, description="m"),
                InputPort("timeout", float, default=15.0, description="wall s")]

    def on_start(self):
        self.watch = geo.SettleWatch(self.get_input("stable_s"), self.get_input("within"))
        self.deadline = time.monotonic() + self.get_input("timeout")
        self.seen = False
        return self.on_running()

    def on_running(self):
        detections = self.get_input("detections", default=None)
        cube = seen_of(self).get(self.get_input("cube"))
        stamp = detections_stamp(detections)
        if cube is not None and stamp is not None:
            self.watch.add(stamp, cube.position)
            self.seen = True
        if self.watch.settled:
            return SUCCESS
        if time.monotonic() <= self.deadline:
            return RUNNING
        # the XML decides what to do next; the log says which of the two it was
        why = "still moving in every image" if self.seen else "not seen in any image"
        LOG.warning("%s: %s did not settle within %.1f s: %s", self.full_path, self.get_input("cube"),
                    self.get_input("timeout"), why)
        return FAILURE

    def on_halted(self):
        pass


VIEW_LEAVES = (RobotToolPose, PickPoses, CubeUnmoved, CubeInGripper, PlacePoses, CubeOnStack,
               WaitUntilSettled)
