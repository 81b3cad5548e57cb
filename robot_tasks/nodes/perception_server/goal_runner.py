"""One DetectObjects goal from start to outcome, as plain blocking code on a goal thread.

    outcome = run_goal(request, feed, worker, detect, cancel, feedback)

1. waiting_for_image: wait for a camera frame newer than the goal (its seq is larger
   than `request.after_seq`, the newest seq when the goal arrived) until the deadline;
   none -> NO_IMAGE, saying what was missing.
2. segmenting: queue the detection on the worker thread and wait for it until the
   deadline; still running then -> TIMEOUT (the detection finishes in the background
   and is dropped).
3. localizing: keep the requested labels and confidences -> SUCCESS.

A cancel request sets `cancel` (a CancelToken), whose listeners wake the waits ->
CANCELLED at once, without polling. Nothing here touches ROS objects: the server turns
the outcome into a result on the executor thread.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from robot_tasks.nodes.perception_server.camera_feed import CameraFeed
from robot_tasks.nodes.perception_server.detection_msgs import keep
from robot_tasks.nodes.perception_server.detection_worker import DetectionWorker, FrameDetections
from robot_tasks_interfaces.action import DetectObjects

Result = DetectObjects.Result


@dataclass(frozen=True)
class GoalRequest:
    labels: tuple[str, ...]
    min_confidence: float
    deadline: float          # time.monotonic() seconds
    after_seq: int           # the feed's newest frame seq when the goal arrived


@dataclass
class GoalOutcome:
    error_code: int
    message: str
    stamp_ns: int = 0
    detections: list = field(default_factory=list)


class CancelToken:
    """A cancel flag that also calls listeners (to wake whatever the goal waits on)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._set = False
        self._listeners: list[Callable[[], None]] = []

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        with self._lock:
            self._set = True
            listeners, self._listeners = self._listeners, []
        for listener in listeners:
            listener()

    def add_listener(self, fn: Callable[[], None]) -> None:
        """Call `fn` on cancel (now, if already cancelled)."""
        with self._lock:
            if not self._set:
                self._listeners.append(fn)
                return
        fn()


def run_goal(request: GoalRequest, feed: CameraFeed, worker: DetectionWorker,
             detect: Callable[[object], FrameDetections], cancel: CancelToken,
             feedback: Callable[[str], None]) -> GoalOutcome:
    cancelled = GoalOutcome(Result.CANCELLED, "cancelled")
    feedback("waiting_for_image")
    cancel.add_listener(feed.wake)
    snap = feed.wait_newer(request.after_seq, request.deadline, cancel.is_set)
    if cancel.is_set():
        return cancelled
    if snap is None:
        return GoalOutcome(Result.NO_IMAGE, f"no fresh camera frame within the timeout: "
                                            f"{feed.missing(request.after_seq)}")
    feedback("segmenting")
    try:
        job = worker.submit(detect, snap)
    except RuntimeError as err:            # the worker is shut down: the node is stopping
        return GoalOutcome(Result.INTERNAL_ERROR, f"perception server is shutting down ({err})")
    done = threading.Event()
    job.add_done_callback(lambda _job: done.set())
    cancel.add_listener(done.set)
    done.wait(max(request.deadline - time.monotonic(), 0.0))
    if cancel.is_set():
        job.cancel()
        return cancelled
    if not job.done():
        job.cancel()                       # drops it if it has not started yet
        return GoalOutcome(Result.TIMEOUT, "images arrived, but detection did not finish "
                                           "before the goal's timeout (the server is busy or slow)")
    if job.cancelled():                    # dropped by the worker's shutdown
        return GoalOutcome(Result.INTERNAL_ERROR, "perception server is shutting down")
    error = job.exception()
    if isinstance(error, ValueError):      # conversion / camera model / perception input
        return GoalOutcome(Result.PROCESSING_FAILED, str(error))
    if error is not None:
        return GoalOutcome(Result.INTERNAL_ERROR, f"{type(error).__name__}: {error}")
    frame: FrameDetections = job.result()
    feedback("localizing")
    found = keep(frame.detections, request.labels, request.min_confidence)
    return GoalOutcome(Result.SUCCESS,
                       f"{len(found)} object(s) (of {len(frame.detections)} detected) in the frame "
                       f"stamped {frame.stamp_ns / 1e9:.3f} s; detection took {frame.seconds * 1e3:.0f} ms",
                       frame.stamp_ns, found)
