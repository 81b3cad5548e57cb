"""CameraSubscriptions: images subscribed while needed, released after the linger (a fake clock)."""
from __future__ import annotations

from robot_tasks.nodes.perception_server.camera_subscriptions import CameraSubscriptions


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def make(linger_s: float = 3.0):
    clock, made, destroyed = FakeClock(), [], []

    def subscribe():
        made.append(["rgb", "depth", "info"])
        return made[-1]

    return CameraSubscriptions(subscribe, linger_s, clock), clock, made, destroyed


def test_starts_unsubscribed_and_subscribes_once_while_held():
    camera, _clock, made, _ = make()
    assert not camera.active and made == []
    camera.hold()
    camera.hold()
    assert camera.active and len(made) == 1


def test_released_only_after_the_linger_without_need():
    camera, clock, made, destroyed = make(linger_s=3.0)
    camera.update(True, destroyed.append)
    clock.now = 2.9
    camera.update(False, destroyed.append)
    assert camera.active and destroyed == [], "a short gap between goals keeps the images"
    clock.now = 3.1
    camera.update(False, destroyed.append)
    assert not camera.active and destroyed == ["rgb", "depth", "info"]


def test_need_renews_the_linger_and_resubscribes_after_release():
    camera, clock, made, destroyed = make(linger_s=1.0)
    camera.hold()
    clock.now = 0.8
    camera.update(True, destroyed.append)
    clock.now = 1.5
    camera.update(False, destroyed.append)
    assert camera.active, "the need at 0.8 s holds the images until 1.8 s"
    clock.now = 2.0
    camera.update(False, destroyed.append)
    assert not camera.active
    camera.hold()
    assert camera.active and len(made) == 2 and camera.subscribe_count == 2
