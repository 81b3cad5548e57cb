"""The banana -> bowl demo as a DemoTask (run by robot_tasks/demo/runner.py).

    robot-tasks demo banana_bowl --seed 3 --object lemon --out runs/
    robot-tasks demo banana_bowl --no-render          # no images saved, "images skipped"

--no-render turns off every image the demo keeps (images/, the montage, the bag's camera
topic) and says so in report.json; it does not fabricate frames. The sim's camera still
renders for perception: in this system the object's yaw and box come from the camera,
never from the sim's ground truth, so a rollout without any camera cannot run the tree.

Phases are the seven motion/gripper steps of trees/banana_bowl.xml; eight images are
saved (00_start, one after each of pregrasp .. release, 07_done) and put in a montage.
`--disturb drop` makes the fingers let go during the lift (disturbance.py): the tree's
hold check above the bowl finds the hand empty and picks the object again.
The end is graded by the two-part success check (robot_tasks/tasks/banana_bowl/success.py)
on the sim's ground truth: the object's and the bowl's boxes from their poses and meshes.
The run also records the demonstration: trace.npz ((T, 9) state/action from the
controllers' per-step states, checked) and a rosbag2 MCAP bag of the run's topics.
"""
from __future__ import annotations

from robot_tasks.controller_topics import ARM_STATE_TOPIC, GRIPPER_STATE_TOPIC, under
from robot_tasks.tasks.banana_bowl.disturbance import SlipRule
from robot_tasks.tasks.episode import SENT_TRAJECTORY_TOPIC, DemoTask

TREE_ID = "BananaBowl"
PHASES = ("pregrasp", "descend", "grasp", "lift", "transport", "release", "retreat")
IMAGES = (("pregrasp", "01_pregrasp"), ("descend", "02_reach"), ("grasp", "03_grasp"), ("lift", "04_lift"),
          ("transport", "05_above_target"), ("release", "06_release"))
START_IMAGE, DONE_IMAGE = "00_start", "07_done"
BOUNDED_PHASES = ("lift", "transport")
OBJECTS = {"banana": "011_banana", "lemon": "014_lemon"}   # --object -> YCB name (sim/scenes/banana_bowl.py)
BOWL = ("bowl", "024_bowl")
ROBOT = "panda"
# (topic, type, max messages per second kept; 0 = all) of the demonstration bag
BAG_TOPICS = (
    (f"{ROBOT}/joint_states", "sensor_msgs/msg/JointState", 0.0),
    (under(ROBOT, ARM_STATE_TOPIC), "robot_tasks_interfaces/msg/JointControllerState", 0.0),
    (under(ROBOT, GRIPPER_STATE_TOPIC), "robot_tasks_interfaces/msg/JointControllerState", 0.0),
    ("detections", "robot_tasks_interfaces/msg/DetectedObjectArray", 0.0),
    ("tree_status", "robot_tasks_interfaces/msg/TreeStatus", 0.0),
    SENT_TRAJECTORY_TOPIC,
)
CAMERA_TOPIC = ("camera/image_raw", "sensor_msgs/msg/Image", 2.0)
RECOVERIES = {("back_off", "RUNNING"): "grasp held nothing: backing off to look and pick again",
              ("slipped", "RUNNING"): "nothing between the fingers above the bowl: it slipped out on the way; "
                                      "home to look and pick it again"}


def grade(poses: dict, _first_poses: dict, _counted: list):
    """The success check on the sim's final poses: (key, check dict, success, summary)."""
    from robot_tasks.sim.ycb import world_aabb
    from robot_tasks.tasks.banana_bowl.contract import load_contract
    from robot_tasks.tasks.banana_bowl.leaves import resolve_contract_path
    from robot_tasks.tasks.banana_bowl.success import Box, judge_at_point, judge_in_bowl

    task = load_contract(resolve_contract_path("banana_bowl_task.yaml")).task
    picked = [name for name in poses if name in OBJECTS]
    if not picked:
        return "placement", {"error": "no pick object in the sim's objects"}, False, "no pick object seen"
    name = picked[0]
    obj = Box(*(tuple(v) for v in world_aabb(OBJECTS[name], *poses[name])))
    if task.place_label is None:
        check = judge_at_point(obj, task.place_target, task.success_tol)
    elif BOWL[0] not in poses:
        return "placement", {"error": "no bowl in the sim's objects"}, False, "no bowl seen"
    else:
        bowl = Box(*(tuple(v) for v in world_aabb(BOWL[1], *poses[BOWL[0]])))
        check = judge_in_bowl(obj, bowl, task.success_tol, task.rim_margin)
    return "placement", {"object": name, **check.as_dict()}, check.success, f"{name}: {check.summary()}"


def scene_overrides(options) -> dict:
    return {"pick_object": OBJECTS[options.pick_object]} if options.pick_object else {}


def payload(options) -> dict:
    return {"pick_object": options.pick_object} if options.pick_object else {}


BANANA_BOWL = DemoTask(name="banana_bowl", tree_id=TREE_ID, phases=PHASES, counted="release",
                       counted_as="released", recoveries=RECOVERIES, make_rule=lambda mode: SlipRule(mode, objects=tuple(OBJECTS)), grade=grade,
                       images=IMAGES, start_image=START_IMAGE, done_image=DONE_IMAGE,
                       scene_overrides=scene_overrides, payload=payload, trace_robot=ROBOT,
                       bounded_phases=BOUNDED_PHASES, bag_topics=BAG_TOPICS, camera_topic=CAMERA_TOPIC)
