"""The camera as the perception server sees it: rgb+depth pairs matched by stamp, the
latest CameraInfo and the camera pose — filled by subscription callbacks, read by the
detection threads.

Pairing: an rgb and a depth image form a pair when their header stamps differ by at
most `tolerance_ns` (0 = identical stamps, as the sim and most RGB-D drivers with
aligned depth publish them). The nearest candidate wins; older unmatched images are
dropped, and at most `keep` unmatched images of each kind are buffered. Every new pair
gets the next sequence number, so "a frame newer than the goal" is "seq greater than
the seq when the goal arrived" — independent of which clock stamps the images
(sim time or wall time), which the server need not share with the camera.

Thread safety: callbacks (executor thread) and waiters (goal threads) share one
Condition; callbacks only store references and notify, so they stay short.
"""
from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable

import numpy as np


def stamp_ns(header) -> int:
    return int(header.stamp.sec) * 1_000_000_000 + int(header.stamp.nanosec)


@dataclass(frozen=True)
class FramePair:
    """One rgb and one depth image taken together. `stamp_ns` is the rgb image's stamp."""

    seq: int
    stamp_ns: int
    rgb: object     # sensor_msgs/Image (converted on the detection thread, not here)
    depth: object


@dataclass(frozen=True)
class CameraSnapshot:
    """Everything one detection needs, taken under the lock at one moment."""

    pair: FramePair
    info: object                 # sensor_msgs/CameraInfo
    pose: object                 # PoseStamped message, or a 4x4 array from the parameter


class CameraFeed:
    def __init__(self, tolerance_ns: int = 0, keep: int = 4, fallback_pose: np.ndarray | None = None):
        self.tolerance_ns = int(tolerance_ns)
        self.fallback_pose = fallback_pose
        self._cond = threading.Condition()
        self._rgb: deque = deque(maxlen=keep)
        self._depth: deque = deque(maxlen=keep)
        self._pair: FramePair | None = None
        self._info = None
        self._pose_msg = None
        self._closed = False
        self.counts = {"rgb": 0, "depth": 0, "camera_info": 0, "pose": 0}

    # --- callbacks (executor thread) --------------------------------------------------
    def add_rgb(self, msg) -> FramePair | None:
        return self._add(msg, "rgb")

    def add_depth(self, msg) -> FramePair | None:
        return self._add(msg, "depth")

    def set_info(self, msg) -> None:
        with self._cond:
            self._info = msg
            self.counts["camera_info"] += 1
            self._cond.notify_all()

    def set_pose(self, msg) -> None:
        with self._cond:
            self._pose_msg = msg
            self.counts["pose"] += 1
            self._cond.notify_all()

    def _add(self, msg, kind: str) -> FramePair | None:
        stamp = stamp_ns(msg.header)
        with self._cond:
            self.counts[kind] += 1
            mine, other = (self._rgb, self._depth) if kind == "rgb" else (self._depth, self._rgb)
            match = None
            for i, (other_stamp, _msg) in enumerate(other):
                gap = abs(other_stamp - stamp)
                if gap <= self.tolerance_ns and (match is None or gap < abs(other[match][0] - stamp)):
                    match = i
            if match is None:
                mine.append((stamp, msg))
                return None
            other_msg = other[match][1]
            # what came before the match can no longer pair with anything newer
            for _ in range(match + 1):
                other.popleft()
            while mine and mine[0][0] <= stamp:
                mine.popleft()
            rgb, depth = (msg, other_msg) if kind == "rgb" else (other_msg, msg)
            seq = self._pair.seq + 1 if self._pair else 1
            self._pair = FramePair(seq, stamp_ns(rgb.header), rgb, depth)
            self._cond.notify_all()
            return self._pair

    # --- readers (any thread) ---------------------------------------------------------
    @property
    def latest_seq(self) -> int:
        with self._cond:
            return self._pair.seq if self._pair else 0

    def snapshot(self) -> CameraSnapshot | None:
        """The newest pair with the current info and pose, or None if any is missing."""
        with self._cond:
            return self._snapshot_locked()

    def _snapshot_locked(self) -> CameraSnapshot | None:
        pose = self._pose_msg if self._pose_msg is not None else self.fallback_pose
        if self._pair is None or self._info is None or pose is None:
            return None
        return CameraSnapshot(self._pair, self._info, pose)

    def wait_newer(self, after_seq: int, deadline: float, stop: Callable[[], bool] = lambda: False
                   ) -> CameraSnapshot | None:
        """Block until a pair with seq > after_seq (plus info and pose) exists; return it.

        Returns None at `deadline` (time.monotonic() seconds), when `stop()` turns true
        (checked whenever :meth:`wake` is called) or after :meth:`close`.
        """
        with self._cond:
            while not self._closed and not stop():
                snap = self._snapshot_locked()
                if snap is not None and snap.pair.seq > after_seq:
                    return snap
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._cond.wait(remaining)
            return None

    def wake(self) -> None:
        """Make waiters re-check their stop condition (e.g. after a cancel request)."""
        with self._cond:
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def missing(self, after_seq: int) -> str:
        """Why wait_newer(after_seq) found nothing: for NO_IMAGE messages."""
        with self._cond:
            c = self.counts
            if c["rgb"] == 0 and c["depth"] == 0:
                return (f"no rgb or depth image received (camera_info messages: {c['camera_info']}, "
                        f"pose messages: {c['pose']})")
            if c["rgb"] == 0:
                return f"no rgb image received ({c['depth']} depth images)"
            if c["depth"] == 0:
                return f"no depth image received ({c['rgb']} rgb images)"
            if self._pair is None:
                newest = [f"{name} {s[-1][0] / 1e9:.3f} s" for name, s in (("rgb", self._rgb), ("depth", self._depth)) if s]
                return (f"rgb and depth images never had matching stamps within "
                        f"{self.tolerance_ns / 1e9:g} s (newest: {', '.join(newest)})")
            if self._info is None:
                return "no camera_info received"
            if self._pose_msg is None and self.fallback_pose is None:
                return "no camera pose: set parameter 'camera_pose' or publish the camera pose topic"
            if self._pair.seq <= after_seq:
                return f"no new frame since the goal arrived (last frame stamped {self._pair.stamp_ns / 1e9:.3f} s)"
            return "camera data incomplete"
