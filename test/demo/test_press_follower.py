"""The press as a DemoTask run by the one episode runner: its follower turns the messages of
the topics it names into the recording the press grading reads, and grade_press writes
press.csv, press.png and the report's "press" section. No ROS: the messages are stand-ins
with the fields the follower reads (test_press_e2e.py runs the real thing)."""
from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from types import SimpleNamespace as Msg

import numpy as np
import pytest
from paths import REPO

from robot_tasks.sim.scenes.franka_press import wall_frame
from robot_tasks.tasks.episode import DemoTask, FollowTopic
from robot_tasks.tasks.errors import TaskError
from robot_tasks.tasks.press.episode import (
    CONTACT,
    CURRENT_POSES,
    FOLLOW_TOPICS,
    PRESS,
    SLIDES,
    STATUS,
    TARGET_FRAMES,
    TIP,
    WRENCH,
    PressFollower,
    grade_press,
)

WALL = wall_frame()
TARGETS = [[0.05, 0.0], [0.0, 0.06], [-0.04, -0.04]]


def stamp(key: int):
    return Msg(sec=key // 1_000_000_000, nanosec=key % 1_000_000_000)


def wrench(key: int, force):
    return Msg(header=Msg(stamp=stamp(key)), wrench=Msg(force=Msg(x=force[0], y=force[1], z=force[2])))


def pose(key: int, position):
    return Msg(header=Msg(stamp=stamp(key)), pose=Msg(position=Msg(x=position[0], y=position[1], z=position[2])))


def status(t: float, name: str, previous: str, new: str):
    return Msg(header=Msg(stamp=stamp(int(round(t * 1e9)))),
               changes=[Msg(name=name, previous_status=previous, status=new)])


def fed_follower(force: float = 10.0) -> PressFollower:
    """A follower fed 100 Hz samples: each slide glides 1 s to its target and holds it 1 s."""
    follower, rot, normal = PressFollower(), WALL.rotation, WALL.rotation[:, 2]
    here, t = np.zeros(2), 0.0
    for k, goal in enumerate(TARGETS):
        follower.on_message(STATUS, status(t, SLIDES[k], "IDLE", "RUNNING"))
        begin = here
        for i in range(200):
            t = round(t + 0.01, 2)
            here = begin + min(1.0, (i + 1) / 100) * (np.array(goal) - begin)
            key = int(round(t * 1e9))
            target = WALL.position + rot @ np.array([*here, 0.0])
            follower.on_message(TARGET_FRAMES[1], pose(key - 3_000_000, target))   # sent a little earlier
            follower.on_message(CONTACT, wrench(key, force * normal))
            follower.on_message(WRENCH, wrench(key, force * normal))
            follower.on_message(TIP, pose(key, target + rot @ np.array([0.0002, 0.0, 0.0])))
            follower.on_message(CURRENT_POSES[1], pose(key, target))
        follower.on_message(STATUS, status(t, SLIDES[k], "RUNNING", "SUCCESS"))
    return follower


def test_the_follower_records_what_the_grading_reads_and_grade_press_writes_the_run_files(tmp_path):
    follower = fed_follower()
    key, press, ok, summary = grade_press(follower, tmp_path)
    assert key == "press" and ok and press["ok"], press
    assert sorted(press) == ["ok", "steady_state", "targets"]           # report.json's press section
    assert [t["target_in_wall_m"] for t in press["targets"]] == TARGETS
    assert all(t["samples"] == 41 and t["in_plane_error_max_mm"] == pytest.approx(0.2, abs=1e-6)
               for t in press["targets"])
    assert summary.startswith("force 10.0 ± 0.0 N; in-plane error max 0.2 mm")
    rows = np.loadtxt(tmp_path / "press.csv", delimiter=",", skiprows=1)
    assert rows.shape == (600, 10) and np.allclose(rows[:, 1], 10.0)
    assert (tmp_path / "press.png").stat().st_size > 10_000
    # read after grading, merged into the report: every move's span and the plot
    assert follower.summary() == {"moves": {"slide_1": [0.0, 2.0], "slide_2": [2.0, 4.0], "slide_3": [4.0, 6.0]},
                                  "plot": "press.png"}


def test_too_much_force_fails_and_nothing_recorded_writes_no_files(tmp_path):
    assert grade_press(fed_follower(force=11.5), tmp_path)[2] is False
    empty = tmp_path / "empty"
    empty.mkdir()
    key, press, ok, _ = grade_press(PressFollower(), empty)
    assert (key, ok, press["steady_state"]["force_mean_n"]) == ("press", False, None)
    assert not list(empty.iterdir()) and PressFollower().summary() == {"moves": {}}


def test_press_is_a_demo_task_whose_phases_are_the_trees_moves():
    tree = ElementTree.parse(REPO / "trees" / "franka_press.xml").getroot()
    moves = [n.get("name") for n in tree.iter() if n.tag in ("MoveToPose", "CompliantMove", "SwitchController")]
    assert list(PRESS.phases) == moves
    assert PRESS.grade_followed is grade_press and PRESS.follow is PressFollower and PRESS.timeout == 180.0
    assert PRESS.follow_topics == FOLLOW_TOPICS
    handled = {topic.topic for topic in FOLLOW_TOPICS}
    assert handled == {CONTACT, TIP, WRENCH, STATUS, *CURRENT_POSES, *TARGET_FRAMES}
    wrench_topic = next(topic for topic in FOLLOW_TOPICS if topic.topic == WRENCH)
    assert wrench_topic.best_effort             # the broadcaster publishes best effort
    with pytest.raises(TaskError, match="no disturbance"):
        PRESS.make_rule("drag")


def test_follow_topics_without_a_follower_are_refused_when_the_task_is_defined():
    with pytest.raises(TaskError, match="need a `follow`"):
        DemoTask(name="x", tree_id="X", phases=(), counted="", counted_as="", recoveries={}, make_rule=print,
                 grade=print, follow_topics=(FollowTopic("t", "std_msgs/msg/Empty"),))


def test_the_press_runs_in_the_one_runner_with_its_own_default_timeout(monkeypatch):
    import robot_tasks.demo.runner as runner
    from robot_tasks.demo.task_demo import run_task_demo

    seen = []
    monkeypatch.setattr(runner, "run_demo", lambda options, say, nodes: seen.append(options) or 0)
    assert run_task_demo("franka_press") == 0
    assert run_task_demo("franka_press", timeout=50.0) == 0
    assert run_task_demo("franka_stacking") == 0
    assert [(o.task.name, o.timeout) for o in seen] == [("franka_press", 180.0), ("franka_press", 50.0),
                                                        ("franka_stacking", 900.0)]
    assert seen[0].task is PRESS
