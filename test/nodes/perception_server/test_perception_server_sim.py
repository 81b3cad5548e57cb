"""perception_server against the real sim node (franka_stacking, camera on), over DDS.

The sim's ground truth (`objects`) is read here, in the test only, to judge the server;
one test checks that the server itself never subscribes to it.
"""
from __future__ import annotations

import math
import time

import numpy as np
import pytest
from action_msgs.msg import GoalStatus
from geometry_msgs.msg import Pose
from perception_helpers import (
    SERVER_MODULE,
    Detect,
    Result,
    TopicLog,
    by_label,
    detections_log,
    position,
    position_errors,
)

from robot_tasks.sim.scenes.common import TABLE_TOP_Z
from robot_tasks_interfaces.msg import ObjectStateArray
from robot_tasks_interfaces.srv import PerturbObject

pytestmark = [pytest.mark.ros, pytest.mark.sim, pytest.mark.timeout(120)]
CUBES = ["blue_cube", "green_cube", "red_cube", "yellow_cube"]


@pytest.fixture(scope="module")
def stack(launcher, probe, ns):
    """sim (franka_stacking seed 3, camera 5 Hz) + perception_server (stream 2 Hz, on the
    sim's /clock: image stamps are sim time, and the server must not care)."""
    launcher.start_module("robot_tasks.nodes.sim", name="sim", remaps={"__ns": ns},
                          params={"scene": "franka_stacking", "seed": 3, "camera_rate": 5.0})
    server = launcher.start_module(SERVER_MODULE, name="perception_server", remaps={"__ns": ns},
                                   params={"stream_rate": 2.0, "use_sim_time": True})
    truth = TopicLog(probe, ObjectStateArray, f"{ns}/objects")
    stream = detections_log(probe, f"{ns}/detections")
    detect = Detect(probe, f"{ns}/detect_objects")
    detect.wait_ready(timeout=30.0)
    probe.wait_for(lambda: truth.latest() is not None, "ground truth on /objects", 20.0)
    return {"server": server, "truth": truth, "stream": stream, "detect": detect}


def truth_positions(truth_log) -> dict:
    return {s.name: (s.pose.position.x, s.pose.position.y, s.pose.position.z)
            for s in truth_log.latest().objects}


def test_server_never_subscribes_to_ground_truth(stack, probe, ns):
    """While a goal holds the images (and for the linger after it), the server reads the
    camera topics and never the sim's ground truth (`objects`)."""
    stack["detect"].call(timeout=5.0)                  # idle, it subscribes to no images at all
    topics = dict(probe.node.get_subscriber_names_and_types_by_node("perception_server", ns))
    assert f"{ns}/camera/image_raw" in topics and f"{ns}/camera/depth/image_raw" in topics
    assert not [t for t in topics if t.endswith("/objects")], \
        f"perception_server reads the sim's ground truth: {sorted(topics)}"


def test_detect_objects_finds_the_four_cubes_within_1cm(stack):
    result, status, seconds = stack["detect"].call(timeout=5.0)
    assert status == GoalStatus.STATUS_SUCCEEDED, result.message
    assert result.error_code == Result.SUCCESS
    assert sorted(o.label for o in result.objects) == CUBES
    assert result.header.frame_id == "world" and result.header.stamp.sec + result.header.stamp.nanosec > 0
    errors = position_errors(result.objects, truth_positions(stack["truth"]))
    assert max(errors.values()) <= 0.01, errors
    assert all(0.0 < o.confidence <= 1.0 for o in result.objects)
    assert all(abs(o.size.x - 0.05) < 0.01 for o in result.objects)
    print(f"DetectObjects round trip {seconds * 1e3:.0f} ms; errors (mm): "
          + ", ".join(f"{k} {v * 1e3:.1f}" for k, v in sorted(errors.items())))


def test_result_comes_from_a_frame_newer_than_the_goal(stack):
    first, _, _ = stack["detect"].call()
    second, _, _ = stack["detect"].call()
    stamp = lambda r: r.header.stamp.sec * 10**9 + r.header.stamp.nanosec  # noqa: E731
    assert stamp(second) > stamp(first)


def test_labels_and_min_confidence_filter(stack):
    result, status, _ = stack["detect"].call(labels=["red_cube", "bin"])
    assert status == GoalStatus.STATUS_SUCCEEDED
    assert [o.label for o in result.objects] == ["red_cube"]
    assert result.objects[0].id == "red_cube"
    result, status, _ = stack["detect"].call(min_confidence=1.0)
    assert status == GoalStatus.STATUS_SUCCEEDED and result.error_code == Result.SUCCESS
    assert all(o.confidence >= 1.0 for o in result.objects)


def test_a_server_told_the_scenes_labels_finds_only_those_and_refuses_others(launcher, probe, ns):
    """`labels` (config/<scene>.yaml sets it): only those objects are looked for, and a goal
    asking for another label is refused, naming the ones this server knows."""
    launcher.start_module(SERVER_MODULE, name="perception_server_two_cubes", remaps={"__ns": ns},
                          params={"stream_rate": 0.0, "use_sim_time": True, "action_name": "detect_two_cubes",
                                  "labels": ["red_cube", "blue_cube"]})
    detect = Detect(probe, f"{ns}/detect_two_cubes")
    detect.wait_ready(timeout=30.0)
    result, status, _ = detect.call(timeout=5.0)
    assert status == GoalStatus.STATUS_SUCCEEDED, result.message
    assert sorted(o.label for o in result.objects) == ["blue_cube", "red_cube"]
    result, status, _ = detect.call(labels=["green_cube"])
    assert status == GoalStatus.STATUS_ABORTED and result.error_code == Result.INVALID_GOAL
    assert "green_cube" in result.message and "known labels: blue_cube, red_cube" in result.message


@pytest.mark.parametrize("goal, field", [
    (dict(labels=["red_cube", "unicorn"]), "labels"),
    (dict(min_confidence=1.5), "min_confidence"),
    (dict(min_confidence=math.nan), "min_confidence"),
    (dict(timeout=-1.0), "timeout"),
    (dict(timeout=math.inf), "timeout"),
])
def test_bad_goals_abort_with_invalid_goal(stack, goal, field):
    result, status, _ = stack["detect"].call(**goal)
    assert status == GoalStatus.STATUS_ABORTED
    assert result.error_code == Result.INVALID_GOAL
    assert field in result.message
    assert not result.objects


def _free_spot(truth: dict, clearance: float = 0.13) -> tuple[float, float]:
    """A table spot in the camera's view at least `clearance` from every cube."""
    for x in np.linspace(0.40, 0.60, 5):
        for y in np.linspace(-0.25, 0.25, 11):
            if all(math.hypot(x - p[0], y - p[1]) >= clearance for p in truth.values()):
                return float(x), float(y)
    raise AssertionError(f"no free spot among {truth}")


def test_stream_follows_a_dragged_cube(stack, probe, ns):
    stream = stack["stream"]
    probe.wait_for(lambda: stream.latest() is not None, "a message on /detections", 10.0)
    assert sorted(o.label for o in stream.latest().objects) == CUBES
    truth = truth_positions(stack["truth"])
    x, y = _free_spot(truth)                 # also away from red_cube itself: a real move
    target = Pose()
    target.position.x, target.position.y, target.position.z = x, y, TABLE_TOP_Z + 0.025
    probe.wait_for_service(PerturbObject, f"{ns}/perturb_object", 10.0)
    client = probe.node.create_client(PerturbObject, f"{ns}/perturb_object")
    response = probe.wait_future(client.call_async(
        PerturbObject.Request(object_name="red_cube", mode="DRAG", target=target)), 10.0, "perturb_object")
    assert response.success, response.message
    moved_at = time.monotonic()
    goal_xy = np.array([x, y])

    def red_seen_at_target() -> bool:
        for msg in stream.since(moved_at):
            red = by_label(msg.objects).get("red_cube")
            if red is not None and np.linalg.norm(position(red)[:2] - goal_xy) < 0.01:
                return True
        return False

    probe.wait_for(red_seen_at_target, f"red_cube streamed at the dragged-to spot {x:.3f}, {y:.3f}", 10.0)
    probe.node.destroy_client(client)
