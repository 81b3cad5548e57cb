"""ResponseGrace counts wall time from the command it was started for (a stand-in clock)."""
from robot_tasks.ros.response_grace import ResponseGrace


def test_the_grace_is_over_only_once_its_wall_seconds_have_passed():
    now = [100.0]
    grace = ResponseGrace(0.25, clock=lambda: now[0])
    assert not grace.over() and grace.elapsed() == 0.0
    now[0] = 100.125
    assert not grace.over()
    now[0] = 100.25
    assert grace.over() and grace.elapsed() == 0.25
