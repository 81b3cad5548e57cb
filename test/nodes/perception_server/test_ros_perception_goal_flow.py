"""The perception_server's threading pieces without ROS processes: rgb/depth pairing by
stamp (CameraFeed), the single detection thread (DetectionWorker) and one goal's flow
(run_goal) on real recorded frames — every error code it can produce."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from sensor_msgs.msg import CameraInfo, Image

from robot_tasks.nodes.perception_server.camera_convert import pose_from_list
from robot_tasks.nodes.perception_server.camera_feed import CameraFeed
from robot_tasks.nodes.perception_server.detection_worker import DetectionWorker, detect_snapshot
from robot_tasks.nodes.perception_server.goal_runner import CancelToken, GoalRequest, run_goal
from robot_tasks.perception import Detector
from robot_tasks_interfaces.action import DetectObjects

Result = DetectObjects.Result
CUBES = ["blue_cube", "green_cube", "red_cube", "yellow_cube"]


def stamped(msg, ns: int):
    msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(ns, 10**9)
    return msg


def rgb_msg(ns: int, rgb=None, encoding="rgb8") -> Image:
    rgb = np.zeros((2, 2, 3), np.uint8) if rgb is None else rgb
    h, w = rgb.shape[:2]
    return stamped(Image(height=h, width=w, encoding=encoding, step=w * 3, data=rgb.tobytes()), ns)


def depth_msg(ns: int, depth=None) -> Image:
    depth = np.ones((2, 2), np.float32) if depth is None else depth
    h, w = depth.shape
    return stamped(Image(height=h, width=w, encoding="32FC1", step=w * 4, data=depth.astype("<f4").tobytes()), ns)


# --- CameraFeed ---------------------------------------------------------------------------
def test_pairs_form_on_equal_stamps_in_either_order():
    feed = CameraFeed()
    assert feed.add_rgb(rgb_msg(100)) is None
    pair = feed.add_depth(depth_msg(100))
    assert (pair.seq, pair.stamp_ns) == (1, 100)
    assert feed.add_depth(depth_msg(200)) is None
    pair = feed.add_rgb(rgb_msg(200))
    assert (pair.seq, pair.stamp_ns) == (2, 200) and feed.latest_seq == 2


def test_lost_image_drops_only_its_partner():
    feed = CameraFeed()
    feed.add_rgb(rgb_msg(100))                 # its depth is lost
    feed.add_rgb(rgb_msg(200))
    assert feed.add_depth(depth_msg(200)).stamp_ns == 200
    assert feed.add_depth(depth_msg(100)) is None   # too late: its rgb was dropped


def test_tolerance_pairs_nearest_stamp():
    feed = CameraFeed(tolerance_ns=10)
    feed.add_depth(depth_msg(95))
    feed.add_depth(depth_msg(103))
    pair = feed.add_rgb(rgb_msg(100))
    assert pair.depth.header.stamp.nanosec == 103 and pair.stamp_ns == 100
    assert feed.add_rgb(rgb_msg(300)) is None        # 95 was older than the match: gone


def test_snapshot_needs_info_and_a_pose():
    feed = CameraFeed()
    feed.add_rgb(rgb_msg(1))
    feed.add_depth(depth_msg(1))
    assert feed.snapshot() is None and "camera_info" in feed.missing(0)
    feed.set_info(CameraInfo())
    assert feed.snapshot() is None and "camera_pose" in feed.missing(0)
    fallback = pose_from_list([0, 0, 1, 0, 0, 0, 1])
    feed = CameraFeed(fallback_pose=fallback)
    feed.add_rgb(rgb_msg(1))
    feed.add_depth(depth_msg(1))
    feed.set_info(CameraInfo())
    assert feed.snapshot().pose is fallback
    topic_pose = object()
    feed.set_pose(topic_pose)
    assert feed.snapshot().pose is topic_pose          # the topic takes precedence


def test_missing_says_what_is_missing():
    feed = CameraFeed(fallback_pose=np.eye(4))
    assert feed.missing(0).startswith("no rgb or depth image received")
    feed.add_rgb(rgb_msg(1))
    assert "no depth image received" in feed.missing(0)
    feed.add_depth(depth_msg(5))
    assert "never had matching stamps" in feed.missing(0)


def test_wait_newer_returns_a_frame_added_later_or_none_at_the_deadline():
    feed = CameraFeed(fallback_pose=np.eye(4))
    feed.set_info(CameraInfo())
    assert feed.wait_newer(0, time.monotonic() + 0.05) is None
    ready = threading.Event()

    def camera():
        ready.wait()
        feed.add_rgb(rgb_msg(7))
        feed.add_depth(depth_msg(7))

    thread = threading.Thread(target=camera)
    thread.start()
    ready.set()
    snap = feed.wait_newer(0, time.monotonic() + 10.0)
    thread.join()
    assert snap is not None and snap.pair.stamp_ns == 7
    assert feed.wait_newer(snap.pair.seq, time.monotonic() + 0.05) is None   # not newer than itself


def test_close_releases_waiters():
    feed = CameraFeed()
    result = []
    thread = threading.Thread(target=lambda: result.append(feed.wait_newer(0, time.monotonic() + 60.0)))
    thread.start()
    feed.close()
    thread.join(10.0)
    assert not thread.is_alive() and result == [None]


# --- DetectionWorker ----------------------------------------------------------------------
def test_worker_survives_jobs_that_finish_at_once():
    worker = DetectionWorker()             # regression: an instant job used to deadlock submit()
    try:
        futures = [worker.submit(lambda i=i: i) for i in range(200)]
        assert [f.result(timeout=10.0) for f in futures] == list(range(200))
        failing = worker.submit(lambda: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            failing.result(timeout=10.0)
        assert not worker.busy
    finally:
        worker.shutdown()


def test_try_submit_refuses_while_a_detection_runs():
    worker = DetectionWorker()
    release = threading.Event()
    try:
        running = worker.submit(release.wait)
        assert worker.try_submit(lambda: "stream") is None
        release.set()
        running.result(timeout=10.0)
        assert worker.try_submit(lambda: "stream").result(timeout=10.0) == "stream"
    finally:
        release.set()
        worker.shutdown()


# --- run_goal on recorded frames -------------------------------------------------------------
@pytest.fixture(scope="module")
def recording(recorded_frames):
    data = np.load(recorded_frames)
    info = CameraInfo(width=int(data["width"]), height=int(data["height"]), k=[float(v) for v in data["k"]])
    truth = {str(n): np.array(p) for n, p in zip(data["truth_names"], data["truth_positions"])}
    return {"rgb": data["rgb"][0], "depth": data["depth"][0], "info": info,
            "pose": pose_from_list(data["camera_pose"]), "truth": truth}


@pytest.fixture
def setup(recording):
    feed = CameraFeed(fallback_pose=recording["pose"])
    feed.set_info(recording["info"])
    worker = DetectionWorker()
    detector = Detector()

    def detect(snap):
        return detect_snapshot(detector, snap, "world", None, {"rgb": "/cam/rgb", "depth": "/cam/depth"})

    def publish_frame(ns: int, encoding: str = "rgb8"):
        feed.add_rgb(rgb_msg(ns, recording["rgb"], encoding))
        feed.add_depth(depth_msg(ns, recording["depth"]))

    yield feed, worker, detect, publish_frame
    feed.close()
    worker.shutdown()


def request(labels=(), min_confidence=0.0, timeout=10.0, after_seq=0) -> GoalRequest:
    return GoalRequest(tuple(labels), min_confidence, time.monotonic() + timeout, after_seq)


def test_goal_succeeds_on_a_fresh_frame(setup, recording):
    feed, worker, detect, publish_frame = setup
    publish_frame(10**9)
    phases = []
    outcome = run_goal(request(), feed, worker, detect, CancelToken(), phases.append)
    assert outcome.error_code == Result.SUCCESS, outcome.message
    assert phases == ["waiting_for_image", "segmenting", "localizing"]
    assert sorted(d.label for d in outcome.detections) == CUBES and outcome.stamp_ns == 10**9
    for d in outcome.detections:
        assert np.linalg.norm(np.array(d.position) - recording["truth"][d.label]) <= 0.01


def test_goal_filters_labels(setup):
    feed, worker, detect, publish_frame = setup
    publish_frame(1)
    outcome = run_goal(request(["green_cube"]), feed, worker, detect, CancelToken(), lambda _p: None)
    assert [d.label for d in outcome.detections] == ["green_cube"]
    assert "1 object(s) (of 4 detected)" in outcome.message


def test_goal_ignores_frames_older_than_itself(setup):
    feed, worker, detect, publish_frame = setup
    publish_frame(1)
    outcome = run_goal(request(timeout=0.1, after_seq=feed.latest_seq), feed, worker, detect,
                       CancelToken(), lambda _p: None)
    assert outcome.error_code == Result.NO_IMAGE
    assert "no new frame since the goal arrived" in outcome.message


def test_no_camera_is_no_image(setup):
    feed, worker, detect, _ = setup
    outcome = run_goal(request(timeout=0.05), feed, worker, detect, CancelToken(), lambda _p: None)
    assert outcome.error_code == Result.NO_IMAGE
    assert "no rgb or depth image received" in outcome.message


def test_slow_detection_is_timeout(setup):
    feed, worker, _, publish_frame = setup
    release = threading.Event()
    publish_frame(1)
    try:
        outcome = run_goal(request(timeout=0.2), feed, worker, lambda snap: release.wait(), CancelToken(),
                           lambda _p: None)
    finally:
        release.set()
    assert outcome.error_code == Result.TIMEOUT


def test_cancel_while_waiting_for_an_image(setup):
    feed, worker, detect, _ = setup
    cancel = CancelToken()

    def feedback(phase):
        if phase == "waiting_for_image":
            threading.Thread(target=cancel.set).start()

    outcome = run_goal(request(timeout=60.0), feed, worker, detect, cancel, feedback)
    assert outcome.error_code == Result.CANCELLED


def test_cancel_while_detecting(setup):
    feed, worker, _, publish_frame = setup
    cancel, release = CancelToken(), threading.Event()
    publish_frame(1)

    def slow_detect(_snap):
        cancel.set()
        release.wait()

    try:
        outcome = run_goal(request(timeout=60.0), feed, worker, slow_detect, cancel, lambda _p: None)
    finally:
        release.set()
    assert outcome.error_code == Result.CANCELLED


def test_unusable_image_is_processing_failed_naming_the_topic(setup):
    feed, worker, detect, publish_frame = setup
    publish_frame(1, encoding="yuv422")
    outcome = run_goal(request(), feed, worker, detect, CancelToken(), lambda _p: None)
    assert outcome.error_code == Result.PROCESSING_FAILED
    assert "/cam/rgb" in outcome.message and "yuv422" in outcome.message


def test_a_bug_in_detection_is_internal_error(setup):
    feed, worker, _, publish_frame = setup
    publish_frame(1)

    def broken(_snap):
        raise KeyError("oops")

    outcome = run_goal(request(), feed, worker, broken, CancelToken(), lambda _p: None)
    assert outcome.error_code == Result.INTERNAL_ERROR and "KeyError" in outcome.message


def test_goal_after_shutdown_is_internal_error(setup):
    feed, worker, detect, publish_frame = setup
    publish_frame(1)
    worker.shutdown()
    outcome = run_goal(request(), feed, worker, detect, CancelToken(), lambda _p: None)
    assert outcome.error_code == Result.INTERNAL_ERROR and "shutting down" in outcome.message
