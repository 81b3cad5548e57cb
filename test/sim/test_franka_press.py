"""Hybrid force/motion on the 45° wall: 10 N along the normal while tracking in the plane."""
from __future__ import annotations

import numpy as np
import pytest

from robot_tasks.sim import World
from robot_tasks.sim.press_episode import run_press

pytestmark = pytest.mark.sim

WAYPOINTS = [(0.05, 0.0), (0.0, 0.06), (-0.04, -0.04)]    # wall-frame x, y (m)


@pytest.fixture(scope="module")
def press_log():
    with World(scene="franka_press") as world:
        assert world.physics_rate >= 500 and world.time_step == pytest.approx(1 / 240)
        yield run_press(world, WAYPOINTS, force=10.0)


@pytest.mark.parametrize("phase", [0, 1, 2])
def test_steady_normal_force_is_10_newton_at_every_pose(press_log, phase):
    a = press_log.arrays()
    settled = press_log.settled(phase, last=0.4)
    contact = a["contact_force"][settled]
    assert np.all(np.abs(contact - 10.0) < 1.0), f"contact force {contact.min():.2f}..{contact.max():.2f} N"
    sensed = a["sensed_force"][settled]           # what the controller reads agrees
    assert np.all(np.abs(sensed - 10.0) < 1.0), f"F/T normal force {sensed.min():.2f}..{sensed.max():.2f} N"


@pytest.mark.parametrize("phase", [0, 1, 2])
def test_in_plane_tracking_within_5_mm(press_log, phase):
    a = press_log.arrays()
    settled = press_log.settled(phase, last=0.4)
    error = np.linalg.norm(a["tip"][settled, :2] - a["target"][settled], axis=1)
    assert error.max() < 5e-3, f"in-plane error {error.max() * 1000:.2f} mm at pose {phase}"
    assert np.allclose(a["target"][settled][-1], WAYPOINTS[phase])


def test_the_tool_stays_on_the_wall_and_follows_while_sliding(press_log):
    """While the target glides, force stays near 10 N; the tip lags the moving target by
    about the impedance's time constant times the speed (2 ζ / √kp · v ≈ 5 mm here)."""
    a = press_log.arrays()
    sliding = (a["phase"] >= 0) & ~a["holding"]
    force = a["contact_force"][sliding]
    assert np.all(np.abs(force - 10.0) < 1.0), f"force {force.min():.2f}..{force.max():.2f} N"
    lag = np.linalg.norm(a["tip"][sliding, :2] - a["target"][sliding], axis=1)
    assert lag.max() < 10e-3, f"in-plane lag {lag.max() * 1000:.2f} mm while sliding"


def test_the_press_scene_sub_steps_its_physics_and_keeps_the_world_step():
    with World(scene="franka_press", time_step=1 / 240) as world:
        assert world.physics_substeps == 3 and world.physics_rate == pytest.approx(720)
        arm = world.robot("panda")
        assert arm.controllers.names() == ["joint_trajectory_controller", "joint_impedance", "osc",
                                           "hybrid_press"]
        assert arm.controllers.active == "joint_trajectory_controller"
        wall = world.landmarks["wall"]
        assert np.linalg.norm(np.array(arm.ee_pose()[0]) - wall[0]) < 0.05
    with World(scene="franka_press", time_step=1 / 1000) as world:
        assert world.physics_substeps == 1


def test_the_guarded_approach_touches_down_gently(press_log):
    """Gliding in at 2 cm/s under "osc": the touch-down spike stays small (flying in under
    the 10 N command alone hits at ~0.3 m/s with a 215 N spike)."""
    a = press_log.arrays()
    assert np.any(a["phase"] == -2) and a["contact_force"].max() < 60.0
