"""The franka_press demo's grading and plot, on a synthetic recording (no ROS, no physics)."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from robot_tasks.control.compliance import to_frame
from robot_tasks.sim.scenes.franka_press import wall_frame
from robot_tasks.tasks.press.episode import SLIDES, PressRecord, grade, press_log, write_press_csv
from robot_tasks.tasks.press.plot import draw_press

WALL = wall_frame()
TARGETS = [(0.05, 0.0), (0.0, 0.06), (-0.04, -0.04)]


def recording(force: float = 10.0, offset: float = 0.0002) -> PressRecord:
    """100 Hz samples: each slide glides 1 s to its target, then holds it 1 s."""
    record, rot, normal = PressRecord(), WALL.rotation, WALL.rotation[:, 2]
    here, t = np.zeros(2), 0.0
    for k, goal in enumerate(TARGETS):
        record.spans[SLIDES[k]] = [t, t + 2.0]
        begin = here
        for i in range(200):
            t = round(t + 0.01, 2)
            here = begin + min(1.0, (i + 1) / 100) * (np.array(goal) - begin)
            key = int(round(t * 1e9))
            target_world = WALL.position + rot @ np.array([*here, 0.0])
            tip_world = target_world + rot @ np.array([offset, 0.0, 0.0])
            record.contact[key] = tuple(force * normal)
            record.tip[key] = tuple(tip_world)
            record.sensed[key] = tuple(force * normal)
            record.compliant.add(key)
            record.targets[key - 3_000_000] = tuple(target_world)   # sent a little earlier
    return record


def test_a_press_on_target_passes_with_the_numbers_of_each_pose():
    log = press_log(recording(), WALL)
    assert np.allclose(to_frame(WALL, recording().tip[int(2e9)])[:2], [0.0502, 0.0], atol=1e-9)
    report = grade(log)
    assert report["ok"], report
    assert [t["target_in_wall_m"] for t in report["targets"]] == [list(g) for g in TARGETS]
    for target in report["targets"]:
        assert target["samples"] == 41                      # the last 0.4 s at 100 Hz, both ends
        assert target["force_mean_n"] == pytest.approx(10.0) and target["force_std_n"] == 0.0
        assert target["in_plane_error_max_mm"] == pytest.approx(0.2, abs=1e-6)
    assert report["steady_state"]["force_mean_n"] == pytest.approx(10.0)


@pytest.mark.parametrize("force, offset", [(11.5, 0.0002), (10.0, 0.006)])
def test_too_much_force_or_too_far_off_fails(force, offset):
    report = grade(press_log(recording(force, offset), WALL))
    assert not report["ok"] and not any(t["ok"] for t in report["targets"])


def test_a_step_takes_the_newest_target_sent_by_then_and_the_tool_under_trajectory_control():
    record = PressRecord()
    for ms in (10, 20, 30):
        key = ms * 1_000_000
        record.contact[key], record.sensed[key] = (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)
        record.tip[key] = tuple(WALL.position + WALL.rotation @ np.array([0.001 * ms, 0.0, 0.0]))
    record.compliant.update({10_000_000, 20_000_000})
    record.targets[15_000_000] = tuple(WALL.position)            # sent between the first two steps
    log = press_log(record, WALL).arrays()
    assert np.allclose(log["target"][0], log["tip"][0, :2]), "before any target: the tool"
    assert np.allclose(log["target"][1], [0.0, 0.0]), "the newest target sent by then"
    assert np.allclose(log["target"][2], log["tip"][2, :2]), "trajectory control: the tool"


def test_nothing_recorded_is_a_failure_not_a_crash():
    report = grade(press_log(PressRecord(), WALL))
    assert not report["ok"] and report["steady_state"]["force_mean_n"] is None


def test_the_plot_draws_three_panels(tmp_path):
    path = draw_press(press_log(recording(), WALL), tmp_path / "press.png")
    image = Image.open(path)
    assert image.size[0] == 960 and image.size[1] > 700
    pixels = np.asarray(image.convert("RGB")).reshape(-1, 3)
    assert ((pixels == (200, 40, 40)).all(axis=1)).sum() > 200   # the contact-force line is drawn


def test_the_recording_is_written_as_csv(tmp_path):
    path = write_press_csv(press_log(recording(), WALL), tmp_path / "press.csv")
    rows = np.loadtxt(path, delimiter=",", skiprows=1)
    assert rows.shape == (600, 10) and np.allclose(rows[:, 1], 10.0)
    assert path.read_text().splitlines()[0].startswith("time_s,contact_force_n,sensed_force_n")
