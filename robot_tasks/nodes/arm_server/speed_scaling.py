"""Goal timeouts that run on the trajectory's clock, so a slowed-down robot is not timed out.

A UR's speed slider (and the driver's safety scaling, e.g. a reduced-mode plane) makes the
controller advance along a trajectory at a fraction of its time: at 20 % a 3 s motion takes
15 s. Universal_Robots_ROS2_Driver (kilted branch) publishes that fraction, in *percent*, on
`speed_scaling_state_broadcaster/speed_scaling` (std_msgs/Float64, 100 Hz;
`ur_controllers/src/speed_scaling_state_broadcaster.cpp`).

A goal's `timeout` is meant as "this motion should have ended by now". Counted in wall or
sim time, it fires on a robot that is doing exactly what it was told, only slower, and the
server then stops it. So the arm server counts it in trajectory time: each interval of the
node clock adds `interval x fraction` (the last fraction heard). At 100 % that is the node
clock itself; at 0 % (the slider paused, a protective stop) the clock stands still and a
goal waits for the robot to resume -- the controller's own result, a cancel or a halted tree
still end it.

`speed_scaling_topic` names the topic ("" = no robot scaling: the fraction stays 1). The
sim's UR publishes it as the driver does (robot_tasks/nodes/sim/speed_scaling_io.py).
"""
from __future__ import annotations

import math


class SpeedScaling:
    """The last scaling fraction heard, in [0, 1]; 1 until the first message."""

    def __init__(self):
        self.fraction = 1.0

    def on_percent(self, msg) -> None:
        """A std_msgs/Float64 in percent, as the UR driver's broadcaster publishes it; a
        value that is not a finite number is ignored (the last good one stays)."""
        percent = float(msg.data)
        if math.isfinite(percent):
            self.fraction = min(max(percent / 100.0, 0.0), 1.0)


class TrajectoryClock:
    """Time along the trajectory: node-clock intervals, each times the fraction heard."""

    def __init__(self, start: float):
        self._last = float(start)
        self.elapsed = 0.0

    def advance(self, now: float, fraction: float) -> float:
        """Add the interval since the last call at `fraction`; return the time elapsed."""
        if now > self._last:
            self.elapsed += (now - self._last) * fraction
            self._last = now
        return self.elapsed
