"""The ROS-free parts of the stacking demo: grading, disturbance rules, montage."""
from __future__ import annotations

import json

import numpy as np
import pytest
from ground_truth import level

from robot_tasks.demo.montage import image_from_message_fields, keep_frame, write_montage
from robot_tasks.demo.report import EpisodeReport, write_report
from robot_tasks.tasks.stacking.disturbance import StackingDisturbanceRule
from robot_tasks.tasks.stacking.grade import judge_stack
from robot_tasks.tasks.table_spots import free_spot

STACK = {"red_cube": (0.5, 0.0, 0.65), "blue_cube": (0.505, 0.0, 0.70), "green_cube": (0.51, 0.004, 0.75),
         "yellow_cube": (0.515, 0.0, 0.80)}


def test_judge_stack_accepts_a_straight_stack_and_names_what_is_off():
    assert all(c["ok"] for c in judge_stack(STACK))
    knocked = dict(STACK, green_cube=(0.3, 0.2, 0.65))
    result = {c["cube"]: c for c in judge_stack(knocked)}
    assert not result["green_cube"]["ok"] and not result["yellow_cube"]["ok"]
    assert result["red_cube"]["ok"] and result["blue_cube"]["ok"]
    missing = judge_stack({k: v for k, v in STACK.items() if k != "blue_cube"})
    assert [c["ok"] for c in missing] == [True, False, False, True]   # yellow is still on green
    assert missing[1]["reason"] == "not in the scene"
    assert missing[2]["reason"] == "the cube below it is not in the scene"


def test_the_report_file_holds_what_was_set_with_items_and_findings_at_the_top():
    report = EpisodeReport(scene="franka_stacking", tree="FrankaStacking", seed=3, disturb=None, real_time_factor=0.0)
    report.graded("cubes", [{"cube": "red_cube", "ok": True}])
    report.follower = {"motion": {"span_s": 1.0}}
    report.tree_result = {"node_status": "SUCCESS"}
    content = report.as_json()
    assert content["cubes"] == [{"cube": "red_cube", "ok": True}] and content["motion"] == {"span_s": 1.0}
    assert content["disturb"] is None           # asked for: always there, even when None
    assert "error" not in content and "items" not in content and "follower" not in content
    assert content["success"] is False and content["recoveries"] == []


def test_write_report(tmp_path):
    report = EpisodeReport(scene="x", tree="X", seed=0, disturb="drag", real_time_factor=1.0)
    report.error = "node 'sim' exited with code -9 (see nodes.log)"
    path = write_report(tmp_path / "run" / "report.json", report)
    assert json.loads(path.read_text()) == report.as_json() and json.loads(path.read_text())["error"].startswith("node")


@pytest.mark.parametrize("mode, phase, stacked, expected_mode, cube", [
    ("drag", "pre_grasp", 1, "DRAG", "blue_cube"),
    ("drop", "transport", 2, "DROP", "green_cube"),
    ("knock", "transport", 2, "KNOCK", "blue_cube"),
])
def test_disturbance_rules_arm_on_their_phase_and_fire_once_after_the_delay(mode, phase, stacked, expected_mode,
                                                                           cube):
    rule = StackingDisturbanceRule(mode, delay_s=0.5)
    positions = {"red_cube": (0.5, 0.0, 0.65), "blue_cube": (0.5, 0.0, 0.70), "green_cube": (0.4, 0.2, 0.75),
                 "yellow_cube": (0.6, -0.2, 0.65)}
    rule.on_phase_start("lift", stacked, 10.0)
    rule.on_phase_start(phase, stacked - 1, 10.0)
    assert rule.due(20.0, level(positions)) is None        # not armed by other phases/counts
    rule.on_phase_start(phase, stacked, 10.0)
    assert rule.due(10.2, level(positions)) is None        # armed, delay not over
    request = rule.due(10.6, level(positions))
    assert request["mode"] == expected_mode and request["object_name"] == cube
    assert rule.due(11.0, level(positions)) is None        # once
    if mode == "drag":
        x, y, _ = request["target"]
        assert all(np.hypot(x - p[0], y - p[1]) >= 0.12 for n, p in positions.items() if n != "blue_cube")
    if mode == "knock":
        assert request["target"][1] != positions["blue_cube"][1]


@pytest.mark.parametrize("mode", ["drop", "knock"])
def test_drop_and_knock_wait_until_the_green_cube_is_carried_away_from_the_stack(mode):
    rule = StackingDisturbanceRule(mode)
    rule.on_phase_start("transport", 2, 10.0)
    base = {"red_cube": (0.5, 0.0, 0.65), "blue_cube": (0.5, 0.0, 0.70), "yellow_cube": (0.6, -0.2, 0.65)}
    assert rule.due(11.0, level({**base, "green_cube": (0.4, 0.2, 0.65)})) is None     # still on the table
    assert rule.due(11.0, level({**base, "green_cube": (0.52, 0.03, 0.80)})) is None   # over the stack
    assert rule.due(11.0, level(base)) is None                                         # not seen at all
    assert rule.due(11.0, level({**base, "green_cube": (0.42, 0.1, 0.72)})) is not None
    if mode == "drop":
        assert rule.log[-1] == "drop green_cube at (0.420, 0.100, 0.720)"     # where it fell from


def test_unknown_disturbance_is_refused():
    with pytest.raises(ValueError, match="not one of drag, drop, knock"):
        StackingDisturbanceRule("shake")


def test_free_spot_none_when_crowded():
    crowded = {f"c{i}{j}": (0.3 + 0.05 * i, -0.35 + 0.05 * j, 0.65) for i in range(9) for j in range(15)}
    assert free_spot(crowded.values(), (0.5, 0.0)) is None


def test_image_conversion_handles_padding_and_bgr():
    h, w = 2, 3
    rgb = np.arange(h * w * 3, dtype=np.uint8).reshape(h, w, 3)
    padded = np.zeros((h, w * 3 + 2), dtype=np.uint8)
    padded[:, : w * 3] = rgb.reshape(h, -1)
    assert np.array_equal(image_from_message_fields(w, h, w * 3 + 2, "rgb8", padded.tobytes()), rgb)
    bgr = rgb[:, :, ::-1].copy()
    assert np.array_equal(image_from_message_fields(w, h, w * 3, "bgr8", bgr.tobytes()), rgb)
    with pytest.raises(ValueError, match="not supported"):
        image_from_message_fields(w, h, w, "mono8", b"\0" * 6)
    with pytest.raises(ValueError, match="too short"):
        image_from_message_fields(w, h, w * 3, "rgb8", b"\0" * 5)


def test_a_full_montage_keeps_its_first_frames_and_the_latest():
    frames, pixels = [], np.zeros((2, 2, 3), np.uint8)
    for k in range(7):
        keep_frame(frames, (f"phase {k}", pixels), limit=4)
    assert [caption for caption, _ in frames] == ["phase 0", "phase 1", "phase 2", "phase 6"]
    with pytest.raises(ValueError, match="at least one"):
        keep_frame(frames, ("x", pixels), limit=0)


def test_montage_writes_a_grid(tmp_path):
    from PIL import Image

    frames = [(f"{i:02d} phase", np.full((24, 32, 3), i * 20, dtype=np.uint8)) for i in range(7)]
    path = write_montage(frames, tmp_path / "m.png", columns=3)
    image = Image.open(path)
    assert image.size == (3 * 32, 3 * (24 + 16))
    with pytest.raises(ValueError):
        write_montage([], tmp_path / "empty.png")


class _Nodes:
    """A supervisor's first_exit, for the waits' logic (the nodes themselves: the demos' e2e tests)."""
    def __init__(self, exited=None):
        self.exited = exited

    def first_exit(self):
        return self.exited


def test_wait_until_returns_when_ready_gives_up_at_the_deadline_and_stops_on_a_dead_node():
    import time

    from robot_tasks.demo.session import wait_until

    def fresh():
        return EpisodeReport(scene="x", tree="X", seed=0, disturb=None, real_time_factor=0.0)

    polls = iter([False, False, True])
    assert wait_until(lambda: next(polls), time.monotonic() + 5.0, _Nodes(), fresh(), period=0.001)
    assert not wait_until(lambda: False, time.monotonic() + 0.05, _Nodes(), fresh(), period=0.01)
    report = fresh()
    with pytest.raises(RuntimeError, match="node 'sim' exited with code 1"):
        wait_until(lambda: False, time.monotonic() + 5.0, _Nodes(("sim", 1)), report, period=0.01)
    assert report.error == "node 'sim' exited with code 1 (see nodes.log)"
