"""Bad goals through every action: each refused with its own code and a message saying why.

The cases are the issue's list — NaN, inf, 1e9, a zero or unnormalized quaternion, an unknown
frame, an empty or unknown tree name, a malformed payload, an unknown plugin — sent to the
real servers of franka_stacking (MoveToPose, MoveToJoints, GripperCommand, DetectObjects,
ExecuteTree) and of franka_press (CompliantMove), plus a malformed YAML goal through
`robot-tasks send-goal` and a tree_executor started with a plugin that does not exist.
Passed when every case gets its expected outcome name with the expected words in the
message, no node died, and each server still serves a good goal afterwards.
"""
from __future__ import annotations

import math
import subprocess
import sys

from fault_cell import REPO, TEST_TREES, StackCell

NAN, INF = math.nan, math.inf
PANDA_ARM = [f"panda_joint{i}" for i in range(1, 8)]
HOME = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]
CLI = [sys.executable, "-m", "robot_tasks.cli"]


def _pose(goal_pose, x=0.45, y=0.0, z=0.95, quat=(1.0, 0.0, 0.0, 0.0), frame="world"):
    goal_pose.header.frame_id = frame
    p, o = goal_pose.pose.position, goal_pose.pose.orientation
    p.x, p.y, p.z = x, y, z
    o.x, o.y, o.z, o.w = quat
    return goal_pose


def move_to_pose_cases():
    from robot_tasks_interfaces.action import MoveToPose

    def goal(**pose):
        g = MoveToPose.Goal()
        _pose(g.target, **pose)
        return g

    return [("NaN position", goal(x=NAN), "INVALID_GOAL", "NaN"),
            ("inf orientation", goal(quat=(INF, 0.0, 0.0, 1.0)), "INVALID_GOAL", "NaN/inf"),
            ("1e9 position", goal(x=1e9), "UNREACHABLE", "IK"),
            ("zero quaternion", goal(quat=(0.0, 0.0, 0.0, 0.0)), "INVALID_GOAL", "zero quaternion"),
            ("unnormalized quaternion", goal(quat=(0.0, 0.0, 0.0, 2.0)), "INVALID_GOAL", "normalized"),
            ("unknown frame", goal(frame="mars"), "INVALID_FRAME", "'mars'")]


def move_to_joints_cases():
    from robot_tasks_interfaces.action import MoveToJoints

    def goal(i, value):
        return MoveToJoints.Goal(joint_names=PANDA_ARM, positions=HOME[:i] + [value] + HOME[i + 1:])

    return [("NaN position", goal(0, NAN), "INVALID_GOAL", "nan"),
            ("inf position", goal(1, INF), "INVALID_GOAL", "inf"),
            ("1e9 position", goal(2, 1e9), "INVALID_GOAL", "outside its limits"),
            ("unknown joint", MoveToJoints.Goal(joint_names=PANDA_ARM[:6] + ["elbow_joint"], positions=HOME),
             "INVALID_GOAL", "elbow_joint")]


def gripper_cases():
    from robot_tasks_interfaces.action import GripperCommand

    return [("NaN width", GripperCommand.Goal(width=NAN), "INVALID_GOAL", "width"),
            ("inf effort", GripperCommand.Goal(width=0.04, max_effort=INF), "INVALID_GOAL", "effort"),
            ("1e9 width", GripperCommand.Goal(width=1e9), "INVALID_GOAL", "width"),
            ("unknown mode", GripperCommand.Goal(mode=7), "INVALID_GOAL", "mode 7"),
            ("suction on fingers", GripperCommand.Goal(mode=GripperCommand.Goal.SUCTION, suction_on=True),
             "MODE_NOT_SUPPORTED", "")]


def detect_cases():
    from robot_tasks_interfaces.action import DetectObjects

    return [("NaN confidence", DetectObjects.Goal(min_confidence=NAN), "INVALID_GOAL", "min_confidence"),
            ("inf timeout", DetectObjects.Goal(timeout=INF), "INVALID_GOAL", "timeout"),
            ("1e9 confidence", DetectObjects.Goal(min_confidence=1e9), "INVALID_GOAL", "min_confidence"),
            ("unknown label", DetectObjects.Goal(labels=["unicorn"]), "INVALID_GOAL", "unicorn")]


def execute_tree_cases():
    from robot_tasks_interfaces.action import ExecuteTree

    return [("empty tree name", ExecuteTree.Goal(target_tree=""), "UNKNOWN_TREE", ""),
            ("unknown tree name", ExecuteTree.Goal(target_tree="NoSuchTree"), "UNKNOWN_TREE", "NoSuchTree"),
            ("malformed payload", ExecuteTree.Goal(target_tree="Sleepy", payload="{a: [1,"), "INVALID_PAYLOAD", ""),
            ("payload not a mapping", ExecuteTree.Goal(target_tree="Sleepy", payload="[1, 2]"), "INVALID_PAYLOAD",
             "mapping"),
            ("NaN payload value", ExecuteTree.Goal(target_tree="FaultArmSwing", payload="{cycles: .nan}"),
             "INVALID_PAYLOAD", "cycles"),
            ("unknown node type", ExecuteTree.Goal(target_tree=str(TEST_TREES / "broken_unknown_node.xml")),
             "TREE_LOAD_ERROR", "NoSuchNode")]


def compliant_cases():
    from robot_tasks_interfaces.action import CompliantMove

    def goal(**fields):
        pose = {k: fields.pop(k) for k in ("x", "y", "z", "quat", "frame") if k in fields}
        g = CompliantMove.Goal(**{"duration": 1.0, **fields})
        _pose(g.target, **{"quat": (0.0, 0.0, 0.0, 1.0), "frame": "world", **pose})
        return g

    return [("NaN target", goal(x=NAN), "INVALID_GOAL", "finite"),
            ("inf duration", goal(duration=INF), "INVALID_GOAL", "duration"),
            ("1e9 stiffness", goal(stiffness=[1e9] * 6), "INVALID_GOAL", "stiffness"),
            ("zero quaternion", goal(quat=(0.0, 0.0, 0.0, 0.0)), "INVALID_GOAL", "zero"),
            ("unnormalized quaternion", goal(quat=(0.0, 0.0, 0.0, 2.0)), "INVALID_GOAL", "normalized"),
            ("unknown frame", goal(frame="mars"), "INVALID_GOAL", "'mars'"),
            ("unknown controller", goal(controller="telekinesis"), "INVALID_GOAL", "telekinesis")]


STACKING_CASES = {"move_to_pose": move_to_pose_cases, "move_to_joints": move_to_joints_cases,
                  "gripper_command": gripper_cases, "detect_objects": detect_cases, "execute_tree": execute_tree_cases}


def _check(helper, cases) -> list[str]:
    """Run each case; return what went wrong (empty when every case got its outcome)."""
    from robot_tasks.ros.error_codes import code_name

    wrong = []
    for what, goal, code, words in cases:
        result, _, _ = helper.run(goal, 60.0)
        got = code_name(type(result), result.error_code)
        message = getattr(result, "message", None)
        message = result.return_message if message is None else message
        if got != code or words not in message or not message:
            wrong.append(f"{helper.name} {what}: {got} '{message[:100]}' (want {code} with '{words}')")
    return wrong


def _still_serving(cell) -> list[str]:
    from robot_tasks_interfaces.action import (
        DetectObjects,
        GripperCommand,
        MoveToJoints,
    )

    wrong = []
    for name, goal in (("move_to_joints", MoveToJoints.Goal(joint_names=PANDA_ARM, positions=HOME)),
                       ("gripper_command", GripperCommand.Goal(width=0.04)),
                       ("detect_objects", DetectObjects.Goal())):
        result, _, _ = cell.helpers[name].run(goal, 60.0)
        if result.error_code != 0:
            wrong.append(f"{name} good goal after the bad ones: {result.error_code} {result.message[:80]}")
    return wrong


def _unknown_plugin(cell) -> list[str]:
    """A tree_executor asked for a plugin that does not exist exits 2 naming it."""
    proc = cell.launcher.start_module("robot_tasks.nodes.tree_executor", name="plugin_executor",
                                      params={"plugins": ["no_such_plugin"], "groot2_port": 0})
    proc.may_exit = True
    try:
        rc = proc.popen.wait(timeout=60)
    except subprocess.TimeoutExpired:
        return ["tree_executor with plugin 'no_such_plugin' did not exit within 60 s"]
    text = proc.log_path.read_text(errors="replace")
    if rc != 2 or "no_such_plugin" not in text:
        return [f"tree_executor with an unknown plugin: exit {rc}, log tail {text[-200:]!r}"]
    return []


def _malformed_cli_goal(cell) -> list[str]:
    """`robot-tasks send-goal` with YAML that does not parse: exit 2? 1? — a clear error, no traceback."""
    run = subprocess.run(CLI + ["send-goal", "/move_to_pose", "robot_tasks_interfaces/action/MoveToPose",
                                "{target: {pose: [1,"], env=cell.env.subprocess_env(), capture_output=True,
                         text=True, timeout=60, check=False)
    if run.returncode == 0 or "Traceback" in run.stderr or not run.stderr.strip():
        return [f"send-goal with a malformed goal: exit {run.returncode}, stderr {run.stderr[-200:]!r}"]
    return []


def bad_goals(args):
    wrong, counted = [], 0
    with StackCell() as cell:
        for name, cases in STACKING_CASES.items():
            listed = cases()
            counted += len(listed)
            wrong += _check(cell.helpers[name], listed)
        wrong += _still_serving(cell)
        wrong += _unknown_plugin(cell)
        wrong += _malformed_cli_goal(cell)
        dead = [n for n in cell.stack.names if n not in cell.stack.pids()]
    with StackCell(config=REPO / "config" / "franka_press.yaml", actions=("compliant_move",),
                   skip=("state_publisher", "arm_server", "tree_executor")) as press:
        listed = compliant_cases()
        counted += len(listed)
        wrong += _check(press.helpers["compliant_move"], listed)
        dead += [n for n in press.stack.names if n not in press.stack.pids()]
    leftovers = [c.leftovers for c in (cell, press) if c.leftovers]
    ok = not wrong and not dead and not leftovers
    return ok, (f"{counted} bad goals + unknown plugin + malformed CLI goal: {len(wrong)} wrong "
                f"{wrong[:4]}; nodes died {dead}; leftovers {leftovers or None}")


SCENARIOS = {"bad_goals": bad_goals}
