"""One thread that runs all detections, off the executor thread.

Detection takes tens of milliseconds of numpy work; running it in a ROS callback would
stall every other callback of a SingleThreadedExecutor (cancel requests, images). One
worker thread, shared by goals and the stream, also keeps the node at one core:

* goals `submit()` and wait for their turn (their own deadline bounds the wait);
* the stream uses `try_submit()`, which refuses while anything is queued or running,
  so streaming skips frames instead of queueing up behind slow detections.

`detect_snapshot` is the job itself: messages -> arrays -> Detector -> detections.
"""
from __future__ import annotations

import concurrent.futures
import threading
import time
from dataclasses import dataclass

import numpy as np

from robot_tasks.nodes.perception_server.camera_convert import (
    intrinsics_from_camera_info,
    pose_matrix_from_pose_stamped,
)
from robot_tasks.nodes.perception_server.camera_feed import CameraSnapshot
from robot_tasks.nodes.perception_server.image_convert import depth_from_image, rgb_from_image
from robot_tasks.perception import Detector


@dataclass(frozen=True)
class FrameDetections:
    stamp_ns: int
    detections: list
    seconds: float        # time spent converting and detecting


def detect_snapshot(detector: Detector, snap: CameraSnapshot, world_frame: str,
                    support_height: float | None, sources: dict | None = None) -> FrameDetections:
    """Run the detector on one camera snapshot.

    `sources` names where each input came from ("rgb", "depth", "camera_info" -> topic),
    for error messages.

    Raises ImageConversionError / CameraModelError / PerceptionInputError (all
    ValueErrors) for input the detector cannot use, with a message naming the input.
    """
    start = time.perf_counter()
    sources = sources or {}
    rgb = rgb_from_image(snap.pair.rgb, f"rgb image on {sources.get('rgb', '?')}")
    depth = depth_from_image(snap.pair.depth, f"depth image on {sources.get('depth', '?')}")
    intrinsics = intrinsics_from_camera_info(snap.info)
    pose = snap.pose if isinstance(snap.pose, np.ndarray) else pose_matrix_from_pose_stamped(snap.pose, world_frame)
    found = detector.detect(rgb, depth, intrinsics, pose, support_height=support_height)
    return FrameDetections(snap.pair.stamp_ns, found, time.perf_counter() - start)


class DetectionWorker:
    def __init__(self):
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="detect")
        self._lock = threading.Lock()
        self._pending = 0

    def submit(self, fn, *args) -> concurrent.futures.Future:
        """Queue a job; returns its future (RuntimeError after shutdown)."""
        return self._submit(fn, args, only_if_idle=False)

    def try_submit(self, fn, *args) -> concurrent.futures.Future | None:
        """Queue a job only if the worker is idle; else None (the caller skips)."""
        return self._submit(fn, args, only_if_idle=True)

    @property
    def busy(self) -> bool:
        with self._lock:
            return self._pending > 0

    def _submit(self, fn, args, only_if_idle: bool) -> concurrent.futures.Future | None:
        with self._lock:
            if only_if_idle and self._pending:
                return None
            future = self._pool.submit(fn, *args)
            self._pending += 1
        # Outside the lock: a job that already finished runs _done right here, and
        # _done takes the lock.
        future.add_done_callback(self._done)
        return future

    def _done(self, _future) -> None:
        with self._lock:
            self._pending -= 1

    def shutdown(self) -> None:
        """Drop queued jobs, wait for the running one (at most one detection)."""
        self._pool.shutdown(wait=True, cancel_futures=True)
