"""The camera subscriptions, held only while some work needs images (lazy, like image_transport).

A camera driver (the sim's camera, or a real one that honours subscriber counts) renders
and sends frames only while somebody subscribes. The perception server therefore
subscribes to rgb, depth and camera_info only while it has a reason to look:

* a DetectObjects goal is running (`hold()` when it starts, the goal waits for a frame
  newer than itself anyway, so subscribing at that moment costs no extra wait beyond
  the camera's next frame), or
* somebody subscribes to the detections stream.

When neither has been true for `linger_s` (wall clock), `update()` lets the images go,
and an idle cell renders nothing: in the stacking cell the sim's 320x240 frames at 5 Hz
were 70 % of its CPU with nobody looking. The camera pose (latched, sent once) stays
subscribed. The linger keeps the subscriptions across the short gaps between a tree's
goals, so DDS does not match and unmatch readers all the time.
"""
from __future__ import annotations

import time
from typing import Callable


class CameraSubscriptions:
    def __init__(self, subscribe: Callable[[], list], linger_s: float = 3.0, clock=time.monotonic):
        """`subscribe()` creates the image subscriptions and returns them (destroyed with
        `node.destroy_subscription` by the `destroy` callable given to `update`)."""
        self._subscribe, self.linger_s, self._clock = subscribe, float(linger_s), clock
        self._subscriptions: list = []
        self._needed_at = -float("inf")
        self.subscribe_count = 0

    @property
    def active(self) -> bool:
        return bool(self._subscriptions)

    def hold(self) -> None:
        """Images are needed now (subscribe if not yet)."""
        self._needed_at = self._clock()
        if not self._subscriptions:
            self._subscriptions = list(self._subscribe())
            self.subscribe_count += 1

    def update(self, needed: bool, destroy: Callable[[object], None]) -> None:
        """Called periodically: hold while `needed`, release after `linger_s` without need."""
        if needed:
            self.hold()
        elif self._subscriptions and self._clock() - self._needed_at > self.linger_s:
            for subscription in self._subscriptions:
                destroy(subscription)
            self._subscriptions = []
