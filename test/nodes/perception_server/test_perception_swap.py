"""Swap test, camera part: perception_server fed by a fake camera that replays recorded
frames — no PyBullet in either process — finds what the recording's ground truth says.

Fake-camera/server pairs, each in its own namespace (under the module's `ns`):
  /replay  rgb8 + 32FC1, no pose topic: the pose comes from the `camera_pose` parameter
           (for the whole module)
  /bgr     bgr8 + 16UC1 millimetres, pose from the latched camera/pose topic (one test)
  /mono    mono8-labelled images: the server must say it cannot use them (one test)
"""
from __future__ import annotations

import os

import numpy as np
import pytest
from action_msgs.msg import GoalStatus
from perception_helpers import (
    FAKE_CAMERA,
    SERVER_MODULE,
    Detect,
    Result,
    by_label,
    detections_log,
    mapped_files,
    participant_ids,
    position_errors,
)

pytestmark = [pytest.mark.ros, pytest.mark.timeout(120)]
CUBES = ["blue_cube", "green_cube", "red_cube", "yellow_cube"]


@pytest.fixture(scope="module")
def recording(recorded_frames):
    data = np.load(recorded_frames)
    truth = {str(name): tuple(pos) for name, pos in zip(data["truth_names"], data["truth_positions"])}
    return {"path": str(recorded_frames), "camera_pose": [float(v) for v in data["camera_pose"]], "truth": truth}


def start_pair(launcher, probe, recording, namespace: str, camera_params: dict, server_params: dict):
    """A fake camera and a perception_server in `namespace`; returns (camera, server, client)."""
    remaps = {"__ns": namespace}
    camera = launcher.start_script(FAKE_CAMERA, name="fake_camera", remaps=remaps,
                                   params={"frames": recording["path"], "rate": 5.0, **camera_params})
    server = launcher.start_module(SERVER_MODULE, name="perception_server", remaps=remaps, params=server_params)
    client = Detect(probe, f"{namespace}/detect_objects")
    client.wait_ready(timeout=30.0)
    running = {f"{p.name} {p.pid}": p.pid for p in launcher.processes if p.is_running()}
    print(f"{namespace}: DDS participant ids", participant_ids({**running, "probe": os.getpid()}, probe.env.domain_id))
    return camera, server, client


@pytest.fixture(scope="module")
def replay(launcher, probe, recording, ns):
    """The main pair: rgb8 + 32FC1, no pose topic (pose from the camera_pose parameter)."""
    return start_pair(launcher, probe, recording, f"{ns}/replay",
                      {"encoding": "rgb8", "depth_encoding": "32FC1", "publish_pose": False},
                      {"camera_pose": recording["camera_pose"], "stream_rate": 2.0})


@pytest.fixture
def extra_pair(launcher, probe, recording, ns):
    """Start one more pair for a single test and stop it after: at most five DDS
    participants at a time (measured: with seven in one domain, some pairs of late
    processes never discovered each other)."""
    started = []

    def start(name: str, camera_params: dict):
        pair = start_pair(launcher, probe, recording, f"{ns}/{name}", camera_params, {"stream_rate": 0.0})
        started.extend(pair[:2])
        return pair

    yield start
    for proc in started:
        proc.stop()


def test_no_pybullet_in_the_camera_or_perception_process(replay):
    camera, server, client = replay
    client.call(timeout=5.0)                       # everything the server needs is loaded by now
    for proc in (camera, server):
        maps = mapped_files(proc.pid)
        assert "rclpy" in maps                     # the check looks at the right process
        assert "pybullet" not in maps, f"{proc.name} loaded pybullet"


def test_replayed_frames_give_the_recorded_ground_truth(replay, recording):
    result, status, _ = replay[2].call(timeout=5.0)
    assert status == GoalStatus.STATUS_SUCCEEDED, result.message
    assert sorted(o.label for o in result.objects) == CUBES
    errors = position_errors(result.objects, recording["truth"])
    assert max(errors.values()) <= 0.01, errors


def test_stream_matches_the_recorded_ground_truth(replay, probe, recording, ns):
    log = detections_log(probe, f"{ns}/replay/detections")
    probe.wait_for(lambda: log.latest() is not None, f"a message on {ns}/replay/detections", 10.0)
    msg = log.latest()
    assert msg.header.frame_id == "world"
    assert sorted(by_label(msg.objects)) == CUBES
    assert max(position_errors(msg.objects, recording["truth"]).values()) <= 0.01


def test_bgr8_and_16uc1_millimetre_depth_with_the_pose_topic(extra_pair, recording):
    _, _, client = extra_pair("bgr", {"encoding": "bgr8", "depth_encoding": "16UC1", "publish_pose": True})
    result, status, _ = client.call(timeout=5.0)
    assert status == GoalStatus.STATUS_SUCCEEDED, result.message
    assert sorted(o.label for o in result.objects) == CUBES
    # millimetre depth quantisation costs a little accuracy, not the 1 cm bound
    assert max(position_errors(result.objects, recording["truth"]).values()) <= 0.01


def test_unsupported_encoding_is_a_clear_processing_failure(extra_pair):
    _, _, client = extra_pair("mono", {"encoding": "mono8", "publish_pose": True})
    result, status, _ = client.call(timeout=5.0)
    assert status == GoalStatus.STATUS_ABORTED
    assert result.error_code == Result.PROCESSING_FAILED
    assert "mono8" in result.message and "rgb8" in result.message
