"""Tree leaves of the pick-and-place task (trees/franka_pick_place.xml).

Three small leaves; the motions and the gripper are the shared ROS leaves (MoveToPose,
GripperCommand), the looking is DetectObjects and the `detections` topic. Each leaf reads
its ports, calls one function of `plan`, writes its outputs:

| ID                 | kind      | job                                                       |
|--------------------|-----------|-----------------------------------------------------------|
| PickPlacePoses     | action    | the six poses of one pick-and-place, and `first_seen`     |
| CubeStillWhereSeen | condition | pickup resync: the cube within 5 cm of `first_seen`       |
| CubeOnTarget       | condition | the cube seen within a tolerance of the target point      |

Blackboard entries, each a port in the XML:

| entry       | what                                             | written by              |
|-------------|--------------------------------------------------|-------------------------|
| `target`    | 'x;y' where the cube goes (task input)           | the ExecuteTree payload |
| `detections`| what perception sees                             | DetectObjects, topic    |
| `first_seen`| where the cube was when its pickup started       | PickPlacePoses          |
| `*_pose`    | pregrasp, grasp, lift, transport, lower, retract | PickPlacePoses          |

The target comes in the goal's payload, never from the simulator; the cube's place only
from perception. What a leaf decides or notices goes to the log (the tree executor's log
and the demo's report.json show it).
"""
from __future__ import annotations

import logging

from robot_tasks.bt import ConditionNode, InputPort, NodeStatus, OutputPort, SyncActionNode
from robot_tasks.bt.errors import BehaviorTreeError

from ..world_leaf import WorldViewLeaf, detections_port, first_seen_port
from ..world_view import Seen, distance
from . import plan

LOG = logging.getLogger("robot_tasks.tasks.pick_place")
SUCCESS, FAILURE = NodeStatus.SUCCESS, NodeStatus.FAILURE
POSES = ("pregrasp_pose", "grasp_pose", "lift_pose", "transport_pose", "lower_pose", "retract_pose")


def cube_port():
    return InputPort("cube", str, default="red_cube", description="label of the cube")


def target_port():
    return InputPort("target", str, description="'x;y' [m, world] where the cube goes (goal payload)")


class _PickPlaceLeaf(WorldViewLeaf):
    """Port readers shared by the leaves (a mixin: the leaves derive from BT node classes);
    each names the node and the port when the entry holds something unusable."""

    def cube_seen(self) -> Seen | None:
        return self.seen().get(self.get_input("cube"))

    def target(self) -> tuple[float, float]:
        try:
            return plan.parse_target(self.get_input("target"))
        except plan.PickPlaceError as exc:
            raise BehaviorTreeError(f"node '{self.full_path}': port [target]: {exc}") from None

    def first_seen(self):
        return self.position("first_seen")


class PickPlacePoses(_PickPlaceLeaf, SyncActionNode):
    """The six poses of one pick-and-place of `cube` as seen now, to `target`
    (plan.pick_poses, plan.carry_poses), and the cube's position as `first_seen`, the start
    of the pickup that CubeStillWhereSeen compares with. FAILURE when the cube is not seen."""

    @staticmethod
    def provided_ports():
        return [detections_port(), cube_port(), target_port(), first_seen_port(OutputPort)] + \
            [OutputPort(name) for name in POSES]

    def tick(self):
        target, cube = self.target(), self.cube_seen()
        if cube is None:
            LOG.info("look: %s not seen", self.get_input("cube"))
            return FAILURE
        poses = plan.pick_poses(cube)
        poses.update(plan.carry_poses(cube.position, plan.folded_yaw(cube.yaw), target, cube.position[2]))
        for name in POSES:
            self.set_output(name, poses[name])
        self.set_output("first_seen", cube.position)
        LOG.info("pick: %s at (%.3f, %.3f) -> target (%.3f, %.3f)", cube.label, cube.position[0],
                 cube.position[1], *target)
        return SUCCESS


class CubeStillWhereSeen(_PickPlaceLeaf, ConditionNode):
    """Pickup resync guard: FAILURE when `cube` is seen more than `threshold` from
    `first_seen` (someone moved it while the arm came for it). A missing detection -- the
    hand hides the cube -- is not a move."""

    @staticmethod
    def provided_ports():
        return [detections_port(), cube_port(), first_seen_port(),
                InputPort("threshold", float, default=plan.RESYNC_DISTANCE, description="m")]

    def tick(self):
        first_seen, now = self.first_seen(), self.cube_seen()
        if plan.moved_since_seen(first_seen, now, self.get_input("threshold")):
            LOG.warning("pickup_resync: %s moved %.3f m since its pickup started", now.label,
                        distance(first_seen, now.position))
            return FAILURE
        return SUCCESS


class CubeOnTarget(_PickPlaceLeaf, ConditionNode):
    """SUCCESS when `cube` is seen within `tolerance` of the `target` point, sideways;
    FAILURE when it is seen elsewhere or not seen."""

    @staticmethod
    def provided_ports():
        return [detections_port(), cube_port(), target_port(),
                InputPort("tolerance", float, default=plan.ON_TARGET_DISTANCE, description="m")]

    def tick(self):
        target, cube = self.target(), self.cube_seen()
        if plan.on_target(cube, target, self.get_input("tolerance")):
            LOG.info("on_target: %s %.3f m from the target", cube.label, plan.off_target_by(cube, target))
            return SUCCESS
        if cube is not None:
            LOG.info("off_target: %s %.3f m from the target", cube.label, plan.off_target_by(cube, target))
        return FAILURE


PICK_PLACE_LEAVES = (PickPlacePoses, CubeStillWhereSeen, CubeOnTarget)


def register_pick_place_nodes(factory) -> None:
    """Register the pick-and-place leaves under their class names."""
    for cls in PICK_PLACE_LEAVES:
        factory.register_node_type(cls, cls.__name__)
