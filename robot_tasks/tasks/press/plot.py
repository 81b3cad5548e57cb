"""The franka_press plot: normal force, the tip in the wall plane, and the in-plane error
against sim time, from a PressLog (robot_tasks.sim.press_episode) — the bench's library run
and the demo's ROS run draw the same three panels.
"""
from __future__ import annotations

import numpy as np

from robot_tasks.tasks.press.line_chart import Panel, Series, write_chart


def draw_press(log, path, title: str = "franka_press: hybrid force/motion, 10 N into a 45° wall, "
                                       "three in-plane poses"):
    a = log.arrays()
    t = a["time"]
    tip_mm, target_mm = a["tip"][:, :2] * 1000, a["target"] * 1000
    error_mm = np.linalg.norm(tip_mm - target_mm, axis=1)
    panels = [
        Panel("normal force into the wall (N)", [
            Series("contact points (ground truth)", t, a["contact_force"], (200, 40, 40)),
            Series("F/T sensor (what the controller reads)", t, a["sensed_force"], (40, 90, 200),
                   dashed=True)], reference=10.0),
        Panel("tip in the wall plane (mm)", [
            Series("x (up the slope)", t, tip_mm[:, 0], (30, 140, 60)),
            Series("x target", t, target_mm[:, 0], (140, 210, 150), dashed=True),
            Series("y (sideways)", t, tip_mm[:, 1], (150, 60, 170)),
            Series("y target", t, target_mm[:, 1], (210, 160, 220), dashed=True)]),
        Panel("in-plane error |tip - target| (mm)", [
            Series("error", t, error_mm, (90, 90, 90))], reference=5.0),
    ]
    return write_chart(panels, path, x_label="sim time (s)", title=title)
