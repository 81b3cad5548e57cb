"""Trace assembly from per-step controller records, and the invariants it checks."""
from __future__ import annotations

import numpy as np
import pytest

from robot_tasks.demo.trace import StepRecord, Trace, TraceError, missing_steps

DT_NS = 4_166_667


def records(n: int, moving: bool = True, lag: float = 0.002, nan_at: int | None = None):
    arm, gripper = [], []
    for i in range(n):
        ref = np.full(7, 0.003 * i if moving else 0.1)
        fb = ref - (lag if moving and i > 0 else 0.0)
        if nan_at == i:
            fb = fb.copy()
            fb[2] = np.nan
        arm.append(StepRecord(i * DT_NS, tuple(ref), tuple(fb)))
        gripper.append(StepRecord(i * DT_NS, (0.0, 0.0), (0.02, 0.02)))
    return arm, gripper


def test_pairs_by_stamp_into_state_and_action_of_nine():
    arm, gripper = records(50)
    trace = Trace.from_records(arm, gripper[5:])        # the first 5 steps have no finger report
    assert len(trace) == 45 and trace.state.shape == trace.action.shape == (45, 9)
    assert trace.action[0, :7] == pytest.approx(np.full(7, 0.015))
    assert trace.state[0, 7:] == pytest.approx([0.02, 0.02]) and trace.action[0, 7:] == pytest.approx([0, 0])
    summary = trace.check()
    assert summary["shape"] == [45, 9] and summary["moving_steps"] == 44
    assert summary["max_command_state_gap_moving"] == pytest.approx(0.002) and summary["missing_steps"] == 0


def test_window_and_largest_arm_command_step():
    trace = Trace.from_records(*records(100))
    part = trace.window(10 * DT_NS * 1e-9, 20 * DT_NS * 1e-9)
    assert len(part) == 10 and part.max_arm_step() == pytest.approx(0.003)    # [10, 20): the end row is out


def test_a_step_lost_from_the_record_is_not_a_jump():
    """Nine control steps missing (seen under load: the recorder got no controller_state for
    37 ms): the command moved 9 x 0.003 rad across the gap, 0.003 per step the robot took."""
    arm, gripper = records(40)
    trace = Trace.from_records(arm[:20] + arm[29:], gripper)
    assert len(trace) == 31 and trace.check()["missing_steps"] == 9
    assert trace.max_arm_step() == pytest.approx(0.003)
    arm[25] = StepRecord(arm[25].stamp_ns, tuple(np.full(7, 0.2)), arm[25].feedback)    # a real jump is still one
    assert Trace.from_records(arm, gripper).max_arm_step() == pytest.approx(0.2 - 0.003 * 24)


def test_missing_steps_counts_the_periods_a_gap_spans():
    """The period is the median gap, so a few lost steps do not change it; stamps in any unit."""
    stamps = [i * DT_NS for i in (0, 1, 2, 5, 6, 7, 8, 12)]
    assert missing_steps(stamps) == 2 + 3
    assert missing_steps(np.array(stamps) * 1e-9) == 5
    assert missing_steps([]) == missing_steps([DT_NS]) == missing_steps(stamps[:3]) == 0


@pytest.mark.parametrize("make, message", [
    (lambda: Trace.from_records(*records(20, nan_at=7)), "NaN or inf"),
    (lambda: Trace.from_records(*records(20, moving=False)), "never changes"),
    (lambda: Trace.from_records(*records(20, lag=0.0)), "never differ while the arm moves"),
    (lambda: Trace.from_records([], []), "empty"),
    (lambda: Trace(np.arange(3.0), np.zeros((3, 9)), np.zeros((2, 9))), "lengths differ"),
    (lambda: Trace(np.arange(3.0), np.zeros((3, 8)), np.zeros((3, 8))), "shape"),
])
def test_a_broken_invariant_is_named(make, message):
    with pytest.raises(TraceError, match=message):
        make().check()


def test_save_and_load_round_trip(tmp_path):
    trace = Trace.from_records(*records(30))
    back = Trace.load(trace.save(tmp_path / "trace.npz"))
    assert np.array_equal(back.state, trace.state) and np.array_equal(back.stamps, trace.stamps)
