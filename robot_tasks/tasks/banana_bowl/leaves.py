"""Tree leaves of the banana -> bowl task (trees/banana_bowl.xml).

| ID                    | kind   | job                                                          |
|-----------------------|--------|--------------------------------------------------------------|
| LoadPickPlaceContract | action | read the task contract; write the TaskSpec, the object's      |
|                       |        | GraspProfile and the numbers the tree's motion nodes use      |
| PlanPickAndPlace      | action | from perception's detections: the pose of every phase         |

Both only compute: the motions, the grasp and the release are the tree's own
MoveToPose / GripperCommand nodes, so Groot2 shows each phase with its primitive
(PLANNED pregrasp, CARTESIAN descent, FORCE_HOLD grasp, BOUNDED lift and transport).
World state comes from the detections (yaw and box from perception), never the sim.
"""
from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

from robot_tasks.bt import InputPort, NodeStatus, OutputPort, SyncActionNode
from robot_tasks.bt.errors import BehaviorTreeError
from robot_tasks.tasks.banana_bowl.contract import load_contract
from robot_tasks.tasks.banana_bowl.targets import pick_and_place_poses, place_target_of
from robot_tasks.tasks.errors import TaskError
from robot_tasks.tasks.world_view import seen_by_label

LOG = logging.getLogger("robot_tasks.tasks.banana_bowl")
REPO_CONFIG = Path(__file__).resolve().parents[3] / "config"
POSES = ("pregrasp", "grasp", "lift", "release", "retreat")


def resolve_contract_path(file: str) -> Path:
    """An absolute path as given; a relative one under the package's config/ folder."""
    path = Path(file)
    return path if path.is_absolute() else REPO_CONFIG / path


class LoadPickPlaceContract(SyncActionNode):
    """Read the contract file; `object` (e.g. from the ExecuteTree payload's `pick_object`)
    replaces the task's pick_object when set. FAILURE (with the reason logged) on a bad file."""

    @staticmethod
    def provided_ports():
        return [InputPort("file", str, default="banana_bowl_task.yaml",
                          description="contract YAML; relative = under config/"),
                InputPort("object", str, default="", description="object to pick; empty = the task's"),
                OutputPort("task", description="TaskSpec"),
                OutputPort("profile", description="GraspProfile of the object"),
                OutputPort("labels", str, description="'object;target' for DetectObjects"),
                OutputPort("place_label", str, description="label of the place target (the bowl); '' for a table point"),
                OutputPort("grasp_force", float, description="N the fingers hold the object with"),
                OutputPort("max_held_width", float,
                           description="m: widest the fingers may measure around the object after a grasp"),
                OutputPort("max_dq", float, description="rad per command step (lift, transport)"),
                OutputPort("min_steps", int, description="fewest command steps (lift, transport)")]

    def tick(self):
        try:
            contract = load_contract(resolve_contract_path(self.get_input("file")))
            task = contract.task
            name = self.get_input("object", default="") or task.pick_object
            profile = contract.profile(name)
        except TaskError as err:
            LOG.error(f"{self.name}: {err}")
            return NodeStatus.FAILURE
        if name != task.pick_object:
            task = replace(task, pick_object=name)
        self.set_output("task", task)
        self.set_output("profile", profile)
        self.set_output("labels", ";".join([name] + ([task.place_label] if task.place_label else [])))
        self.set_output("place_label", task.place_label or "")
        self.set_output("grasp_force", -profile.close_force)
        self.set_output("max_held_width", profile.max_held_width)
        self.set_output("max_dq", task.max_dq)
        self.set_output("min_steps", task.min_steps)
        LOG.info(f"{self.name}: pick {name} (center_align {profile.center_align}) -> {task.place_target}")
        return NodeStatus.SUCCESS


class PlanPickAndPlace(SyncActionNode):
    """The phase poses from the detections; FAILURE when the object or the target is not seen."""

    @staticmethod
    def provided_ports():
        return [InputPort("detections", description="list of DetectedObject (dicts) from perception"),
                InputPort("task", description="TaskSpec (LoadPickPlaceContract)"),
                InputPort("profile", description="GraspProfile (LoadPickPlaceContract)"),
                *[OutputPort(f"{name}_pose", description=f"tool pose of the {name} phase") for name in POSES]]

    def tick(self):
        task, profile = self.get_input("task"), self.get_input("profile")
        try:
            seen = seen_by_label(self.get_input("detections"))
        except TaskError as err:
            raise BehaviorTreeError(f"node '{self.full_path}': port [detections]: {err}") from None
        obj = seen.get(task.pick_object)
        if obj is None:
            LOG.warning(f"{self.name}: {task.pick_object} not detected (seen: {', '.join(sorted(seen)) or 'nothing'})")
            return NodeStatus.FAILURE
        try:
            poses = pick_and_place_poses(task, profile, obj, place_target_of(task, seen))
        except TaskError as err:
            LOG.warning(f"{self.name}: {err}")
            return NodeStatus.FAILURE
        for name in POSES:
            self.set_output(f"{name}_pose", poses[name])
        grasp = poses["grasp"]
        LOG.info(f"{self.name}: {obj.label} at ({obj.position[0]:.3f}, {obj.position[1]:.3f}) yaw "
                 f"{obj.yaw:.2f}; grasp z {grasp['z']:.3f}, release at ({poses['release']['x']:.3f}, "
                 f"{poses['release']['y']:.3f}, {poses['release']['z']:.3f})")
        return NodeStatus.SUCCESS


BANANA_BOWL_LEAVES = {"LoadPickPlaceContract": LoadPickPlaceContract, "PlanPickAndPlace": PlanPickAndPlace}


def register_banana_bowl_nodes(factory) -> None:
    for name, cls in BANANA_BOWL_LEAVES.items():
        factory.register_node_type(cls, name)
