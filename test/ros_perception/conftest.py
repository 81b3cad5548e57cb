"""Fixtures for the perception_server tests: real node processes over loopback DDS.

Module-scoped, so each test module starts its (slow) processes once:
- ``ros_env``   fresh ROS_DOMAIN_ID (one no other process uses now) + temp ROS_LOG_DIR
- ``launcher``  starts node subprocesses; stops them when the module ends and fails if a
                process or a /dev/shm/fastdds_* segment is left behind
- ``probe``     an in-test rclpy node spun in a thread (robot_tasks.ros.testing.RosTestNode)
- ``ns``        a namespace unique to this module's run (e.g. /pt1234_5678): every node is
                started in it, so a node of another test session that happens to use
                the same random ROS_DOMAIN_ID cannot answer our goals (seen once: a
                foreign `detect_objects` server replied before ours had started)
Session-scoped:
- ``recorded_frames``  an .npz of franka_stacking frames + ground truth, recorded with
                robot_tasks.sim into a temp dir (test/fake_camera/record_frames.py)
"""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))                                  # ros_perception_helpers
sys.path.insert(0, str(HERE.parent / "fake_camera"))           # record_frames

from robot_tasks.ros.testing import NodeLauncher, RosTestEnv, RosTestNode  # noqa: E402


def _bound_udp_ports() -> set[int]:
    ports = set()
    for table in ("/proc/net/udp", "/proc/net/udp6"):
        try:
            with open(table) as f:
                next(f)
                ports |= {int(line.split()[1].rsplit(":", 1)[1], 16) for line in f}
        except (OSError, StopIteration):
            pass
    return ports


def unused_domain_id(tries: int = 50) -> int:
    """A random ROS_DOMAIN_ID in 1..101 whose first RTPS discovery ports nobody has bound.

    Why: Fast DDS gives each participant on a host the lowest free participant id of
    its domain. When another test session shares our random domain, our processes get
    high ids, and measured here, two participants that both have id >= 4 may never
    discover each other (unicast discovery on loopback). A quiet domain keeps our ids low.
    """
    rng = random.SystemRandom()
    bound = _bound_udp_ports()
    for _ in range(tries):
        domain = rng.randint(1, 101)
        base = 7400 + 250 * domain
        if not any(base + 10 + 2 * pid in bound or base + 11 + 2 * pid in bound for pid in range(10)):
            return domain
    return rng.randint(1, 101)


@pytest.fixture(scope="module")
def ros_env(tmp_path_factory) -> RosTestEnv:
    env = RosTestEnv.create(tmp_path_factory.mktemp("ros"), domain_id=unused_domain_id())
    env.apply_to_current_process()
    return env


@pytest.fixture(scope="module")
def launcher(ros_env, tmp_path_factory):
    nodes = NodeLauncher(ros_env, tmp_path_factory.mktemp("logs"))
    yield nodes
    report = nodes.stop_all()
    print(f"ROS_DOMAIN_ID={ros_env.domain_id}; exits: {report.exits}")
    print(nodes.describe_all(lines=40))
    report.raise_if_dirty()


@pytest.fixture(scope="module")
def probe(ros_env, launcher, request):
    node = RosTestNode(f"probe_{request.module.__name__.rsplit('.', 1)[-1]}", ros_env, launcher=launcher)
    yield node
    node.close()


@pytest.fixture(scope="module")
def ns() -> str:
    return f"/pt{os.getpid()}_{random.SystemRandom().randrange(10**6)}"


@pytest.fixture(scope="session")
def recorded_frames(tmp_path_factory) -> Path:
    from record_frames import record

    return record(tmp_path_factory.mktemp("frames") / "franka_stacking_seed2.npz",
                  scene="franka_stacking", seed=2, frames=2)
