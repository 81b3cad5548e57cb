"""`gui:=true` (robot-tasks sim/demo --gui): the sim in PyBullet's own window, under Xvfb.

The window is real (PyBullet's OpenGL GUI on a private X server, Mesa's software
renderer): the test waits for the node to run, takes a screenshot of the X display and
checks it shows a rendered scene; the PNG is kept in the test's folder. "Everything
else unchanged": the camera image of the GUI sim equals the headless sim's, pixel for
pixel, for the same scene, seed and sim time (both render with the TinyRenderer).
"""
from __future__ import annotations

import shutil

import numpy as np
import pytest
from sensor_msgs.msg import Image
from xvfb import XServer

pytestmark = [pytest.mark.ros, pytest.mark.sim, pytest.mark.slow]

SIM_PARAMS = {"scene": "franka_stacking", "seed": 0, "real_time_factor": 1.0, "camera_rate": 5.0,
              "camera_width": 160, "camera_height": 120}
UNAVAILABLE = XServer.available()


def first_frames(ros_node, topic: str, count: int = 3) -> dict:
    """{sim stamp: rgb array} of the first `count` camera frames on `topic`."""
    frames = {}

    def keep(msg: Image) -> None:
        if len(frames) < count:
            frames[(msg.header.stamp.sec, msg.header.stamp.nanosec)] = \
                np.frombuffer(bytes(msg.data), np.uint8).reshape(msg.height, msg.width, 3)

    ros_node.node.create_subscription(Image, topic, keep, 10)
    return frames


@pytest.mark.skipif(UNAVAILABLE is not None, reason=str(UNAVAILABLE))
def test_the_gui_sim_opens_a_window_and_its_camera_matches_headless(launcher, ros_node, tmp_path):
    from PIL import ImageGrab

    with XServer() as x:
        gui_sim = launcher.start_module("robot_tasks.nodes.sim", name="sim_gui", params={**SIM_PARAMS, "gui": True},
                              remaps={"camera/image_raw": "gui/camera/image_raw"},
                              extra_env={"DISPLAY": x.display})
        launcher.start_module("robot_tasks.nodes.sim", name="sim_headless", params=SIM_PARAMS,
                              remaps={"camera/image_raw": "headless/camera/image_raw",
                                      "/clock": "/headless_clock"})
        gui, headless = first_frames(ros_node, "/gui/camera/image_raw"), \
            first_frames(ros_node, "/headless/camera/image_raw")
        ros_node.wait_for(lambda: len(gui) >= 3 and len(headless) >= 3, "three camera frames from each sim", 120.0)
        shot = ImageGrab.grab(xdisplay=x.display)
        assert gui_sim.stop() == "SIGINT rc=0"           # Ctrl-C closes the window cleanly
    shot.save(tmp_path / "pybullet_gui.png")
    shutil.copy(tmp_path / "pybullet_gui.png", launcher.log_dir / "pybullet_gui.png")

    pixels = np.asarray(shot.convert("RGB"), dtype=np.int16)
    window = pixels[:700, :1000]                       # PyBullet's window (top left)
    assert window.std() > 20, "the screenshot is blank: no window was drawn"
    assert len(np.unique(window.reshape(-1, 3), axis=0)) > 500, "too few colours for a rendered 3D scene"
    common = sorted(set(gui) & set(headless))
    assert common, f"no frame at the same sim time: {sorted(gui)} vs {sorted(headless)}"
    for stamp in common:
        assert np.array_equal(gui[stamp], headless[stamp]), f"camera frames at {stamp} differ"


def test_gui_without_a_display_is_a_clear_configuration_error(launcher):
    import sys

    proc = launcher.start([sys.executable, "-m", "robot_tasks.nodes.sim", "--ros-args", "-p", "gui:=true"],
                          name="sim_no_display", may_exit=True, extra_env={"DISPLAY": ""})
    from robot_tasks.testing.ros_test_node import wait_until

    wait_until(lambda: not proc.is_running(), "the sim to exit", 30.0)
    assert proc.popen.returncode == 2
    assert "gui: no X display (DISPLAY is not set)" in proc.tail()
