"""The pyramid demo's ROS-free parts: grading the two stacks, the both-moving bookkeeping,
and when the disturbance rule fires."""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from ground_truth import level

from robot_tasks.tasks.pyramid.bumps import BumpWatch
from robot_tasks.tasks.pyramid.disturbance import PyramidDisturbanceRule
from robot_tasks.tasks.pyramid.episode import FLAGS, judge_stacks
from robot_tasks.tasks.pyramid.motion_overlap import MotionOverlap


@dataclass
class Change:
    path: str
    name: str
    registration_id: str
    status: str


def test_judge_stacks_wants_three_cubes_on_each_goal():
    positions = {"a_cube": (0.46, 0.28, 0.65), "b_cube": (0.462, 0.281, 0.70), "c_cube": (0.46, 0.279, 0.75),
                 "d_cube": (0.54, -0.28, 0.65), "e_cube": (0.54, -0.28, 0.70), "f_cube": (0.3, 0.0, 0.65)}
    rows = {r["robot"]: r for r in judge_stacks(positions)}
    assert rows["panda_1"]["stack"] == ["a_cube", "b_cube", "c_cube"] and rows["panda_1"]["ok"]
    assert rows["panda_2"]["stack"] == ["d_cube", "e_cube"] and not rows["panda_2"]["ok"]
    positions["f_cube"] = (0.54, -0.28, 0.78)            # on top, but 3 cm too high: toppled/askew
    assert not {r["robot"]: r for r in judge_stacks(positions)}["panda_2"]["ok"]


def test_motion_overlap_adds_up_time_with_both_arms_moving():
    overlap = MotionOverlap()
    move = lambda robot, status: Change(f"FrankaPyramid/x/both_robots/{robot}/robot_run/pick/approach", "approach",
                                        "MoveToPose", status)
    overlap.on_change(0.0, move("panda_1", "RUNNING"))
    overlap.on_change(2.0, move("panda_2", "RUNNING"))
    overlap.on_change(3.0, move("panda_1", "SUCCESS"))
    overlap.on_change(5.0, move("panda_2", "SUCCESS"))
    overlap.on_change(6.0, Change("FrankaPyramid/x/both_robots/panda_1", "panda_1", "SubTree", "SUCCESS"))
    overlap.on_change(6.0, Change("FrankaPyramid/x/both_robots/panda_1", "panda_1", "SubTree", "IDLE"))
    summary = overlap.summary()
    assert summary["motion"]["moving_s"] == {"panda_1": 3.0, "panda_2": 3.0}
    assert summary["motion"]["both_moving_s"] == 1.0
    assert summary["motion"]["both_moving_fraction"] == pytest.approx(1.0 / 6.0, abs=1e-3)
    assert summary["robot_results"] == {"panda_1": "SUCCESS", "panda_2": "NOT_RUN"}


LOG = ["1.0 INFO reserve: panda_1 -> red_cube", "1.1 INFO lock: panda_1 enters the center",
       "5.0 INFO unlock: panda_1 leaves the center", "6.0 INFO reserve: panda_1 -> blue_cube",
       "6.5 INFO reserve: panda_2 -> green_cube", "7.0 INFO lock: panda_1 enters the center"]
POSITIONS = {"red_cube": (0.46, 0.28, 0.65), "blue_cube": (0.527, 0.0, 0.70), "green_cube": (0.473, 0.0, 0.70)}


def test_drag_fires_on_panda_1s_second_lock_with_the_cube_it_reserved():
    rule = PyramidDisturbanceRule("drag")
    rule.on_task_log(LOG[:3], now=10.0)
    assert rule.armed_at is None
    rule.on_task_log(LOG, now=20.0)
    assert rule.target_cube == "blue_cube"
    assert rule.due(20.1, level(POSITIONS)) is None                   # waits its delay
    request = rule.due(21.0, level(POSITIONS))
    assert request["object_name"] == "blue_cube" and request["mode"] == "DRAG"
    x, y, _z = request["target"]
    assert all(((x - p[0]) ** 2 + (y - p[1]) ** 2) ** 0.5 >= 0.12 for p in POSITIONS.values())
    assert rule.due(30.0, level(POSITIONS)) is None                   # once only


def test_drop_fires_on_panda_2s_second_unlock():
    rule = PyramidDisturbanceRule("drop")
    log = ["reserve: panda_2 -> a", "unlock: panda_2 leaves the center", "reserve: panda_2 -> b",
           "unlock: panda_2 leaves the center"]
    rule.on_task_log(log, now=1.0)
    request = rule.due(2.0, level({"b": (0.5, 0.0, 0.9)}))
    assert request == {"object_name": "b", "mode": "DROP", "target": (0.0, 0.0, 0.0)}
    assert rule.log[-1] == "drop b at (0.500, 0.000, 0.900)"      # where it fell from, for the report
    with pytest.raises(ValueError, match="knock"):
        PyramidDisturbanceRule("knock")


def test_bump_watch_reports_cubes_moved_that_nobody_owned_with_what_the_arms_did():
    watch = BumpWatch(flag_names=FLAGS)
    approach = Change("FrankaPyramid/x/both_robots/panda_2/robot_run/pick/approach", "approach", "MoveToPose",
                      "RUNNING")
    still = {"red_cube": (0.45, 0.0, 0.65), "blue_cube": (0.5, 0.0, 0.65), "green_cube": (0.55, 0.0, 0.65)}
    watch.on_poses(0.0, still)
    watch.on_log("reserve: panda_1 -> red_cube")
    watch.on_change(1.0, approach)
    # panda_1 lifts its own cube: not a bump; blue, which nobody owns, is pushed 3 cm and stops
    pushed = [(0.5, 0.01 * k, 0.65) for k in range(4)] + [(0.5, 0.03, 0.65)] * 6
    for k, blue in enumerate(pushed):
        watch.on_poses(1.0 + 0.1 * k, {**still, "red_cube": (0.45, 0.0, 0.70 + 0.02 * k), "blue_cube": blue})
    # red, placed on panda_1's stack, then rests there: where it was put is its new rest
    watch.on_log("placed: panda_1 put red_cube at level 0")
    for k in range(3):
        watch.on_poses(3.0 + 0.1 * k, {**still, "red_cube": (0.46, 0.28, 0.65), "blue_cube": (0.5, 0.03, 0.65)})
    bumps = watch.summary()["bumps"]
    assert [(b["cube"], b["sim_time"]) for b in bumps] == [("blue_cube", 1.2)]
    assert bumps[0]["moved_m"] == pytest.approx(0.03) and bumps[0]["to"] == [0.5, 0.03, 0.65]
    assert bumps[0]["doing"] == {"panda_1": ["nothing"], "panda_2": ["approach"]}
    watch.on_poses(4.0, {**still, "red_cube": (0.46, 0.33, 0.65), "blue_cube": (0.5, 0.03, 0.65)})
    assert [b["cube"] for b in watch.summary()["bumps"]] == ["blue_cube", "red_cube"]   # a placed cube knocked
    assert "both_moving_fraction" in watch.summary()["motion"]
    assert watch.summary()["cubes_watched"] == 3
    watch.on_change(4.5, Change("FrankaPyramid/x/both_robots/panda_1/robot_run/place/flag_dropped", "flag_dropped",
                                "Script", "SUCCESS"))
    assert watch.summary()["recovery_flags"] == [{"sim_time": 4.5, "robot": "panda_1", "flag": "flag_dropped",
                                                  "doing": {"panda_1": ["nothing"], "panda_2": ["approach"]}}]
