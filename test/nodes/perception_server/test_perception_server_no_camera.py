"""perception_server with no camera at all: goals end NO_IMAGE within their timeout,
cancel works while waiting, and bad parameters stop the node with a clear message."""
from __future__ import annotations

import sys
import time

import pytest
from action_msgs.msg import GoalStatus
from perception_helpers import SERVER_MODULE, Detect, Result, detections_log

from robot_tasks.process import ros_args
from robot_tasks.testing.ros_test_node import wait_until

pytestmark = [pytest.mark.ros, pytest.mark.timeout(90)]


@pytest.fixture(scope="module")
def detect(launcher, probe, ns):
    launcher.start_module(SERVER_MODULE, name="perception_server", remaps={"__ns": ns},
                          params={"default_timeout": 1.0, "stream_rate": 2.0})
    client = Detect(probe, f"{ns}/detect_objects")
    client.wait_ready()
    return client


def test_no_camera_gives_no_image_within_the_timeout(detect):
    result, status, seconds = detect.call(timeout=0.8)
    assert status == GoalStatus.STATUS_ABORTED
    assert result.error_code == Result.NO_IMAGE
    assert "no rgb or depth image received" in result.message
    assert 0.8 <= seconds < 0.8 + 3.0, seconds     # ends at the deadline, not much later


def test_goal_timeout_zero_uses_the_default_timeout(detect):
    result, status, seconds = detect.call(timeout=0.0)
    assert result.error_code == Result.NO_IMAGE
    assert 1.0 <= seconds < 1.0 + 3.0, seconds


def test_cancel_while_waiting_for_an_image(detect, probe):
    handle = detect.send(timeout=30.0)
    probe.wait_for(lambda: "waiting_for_image" in detect.feedback, "feedback 'waiting_for_image'", 5.0)
    start = time.monotonic()
    probe.wait_future(handle.cancel_goal_async(), 5.0, "cancel response")
    response = probe.wait_future(handle.get_result_async(), 5.0, "cancelled goal's result")
    assert response.status == GoalStatus.STATUS_CANCELED
    assert response.result.error_code == Result.CANCELLED
    assert time.monotonic() - start < 5.0


def test_stream_publishes_nothing_without_a_camera(detect, probe, ns):
    log = detections_log(probe, f"{ns}/detections")
    probe.wait_for_publisher(f"{ns}/detections", 5.0)
    time.sleep(1.2)                                  # more than two stream periods
    assert log.latest() is None


@pytest.mark.parametrize("params, named", [
    ({"camera_pose": [1.0, 2.0, 3.0]}, "camera_pose"),
    ({"camera_pose": [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]}, "camera_pose"),
    ({"stream_rate": -1.0}, "stream_rate"),
    ({"min_confidence": 2}, "min_confidence"),
    ({"support_height": "table"}, "support_height"),
    ({"labels": ["red_cube", "unicorn"]}, "unicorn"),        # the message names the label, and the known ones
])
def test_bad_parameter_exits_with_code_2_naming_it(launcher, ns, params, named):
    argv = [sys.executable, "-m", SERVER_MODULE] + ros_args("bad_perception_server", params, {"__ns": ns})
    proc = launcher.start(argv, name=f"bad_{named}", may_exit=True)
    wait_until(lambda: not proc.is_running(), "the misconfigured server to exit", 20.0)
    assert proc.popen.returncode == 2
    assert named in proc.tail()
