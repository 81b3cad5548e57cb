"""The arm server's trajectory clock (robot_tasks/nodes/arm_server/speed_scaling.py), no ROS."""
from std_msgs.msg import Float64

from robot_tasks.nodes.arm_server.speed_scaling import SpeedScaling, TrajectoryClock


def test_the_fraction_is_the_broadcast_percent_clamped_and_one_until_heard():
    scaling = SpeedScaling()
    assert scaling.fraction == 1.0
    scaling.on_percent(Float64(data=20.0))
    assert scaling.fraction == 0.2
    scaling.on_percent(Float64(data=float("nan")))       # ignored: the last good value stays
    assert scaling.fraction == 0.2
    scaling.on_percent(Float64(data=150.0))
    assert scaling.fraction == 1.0
    scaling.on_percent(Float64(data=-5.0))
    assert scaling.fraction == 0.0


def test_each_interval_counts_at_the_fraction_heard_during_it():
    clock = TrajectoryClock(10.0)
    assert clock.advance(11.0, 1.0) == 1.0
    assert clock.advance(13.0, 0.25) == 1.5              # 2 s at 25 %
    assert clock.advance(15.0, 0.0) == 1.5               # paused: trajectory time stands still
    assert clock.advance(14.0, 1.0) == 1.5               # a clock that steps back adds nothing
    assert clock.advance(15.5, 1.0) == 2.0
