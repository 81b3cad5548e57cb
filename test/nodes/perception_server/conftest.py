"""Fixtures for the perception_server tests: real node processes over loopback DDS.

Module-scoped, so each test module starts its (slow) processes once:
- ``ros_env``   fresh ROS_DOMAIN_ID (one no other process uses now, robot_tasks.ros.domains.
                pick_free_domain_id) + temp ROS_LOG_DIR (overrides the session one)
- ``launcher``  this folder's tests get ``module_launcher`` (test/conftest.py): stopped
                when the module ends, failing if a process or a /dev/shm/fastdds_*
                segment is left behind
- ``probe``     from test/conftest.py: an in-test rclpy node spun in a thread
- ``ns``        a namespace unique to this module's run (e.g. /pt1234_5678): every node is
                started in it, so a node of another test session that happens to use
                the same random ROS_DOMAIN_ID cannot answer our goals (seen once: a
                foreign `detect_objects` server replied before ours had started)
Session-scoped:
- ``recorded_frames``  an .npz of franka_stacking frames + ground truth, recorded with
                robot_tasks.sim into a temp dir (test/support/record_frames.py)
"""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from module_scoped import launcher, ros_env  # noqa: F401  (one domain and one process set per module)


@pytest.fixture(scope="module")
def ns() -> str:
    return f"/pt{os.getpid()}_{random.SystemRandom().randrange(10**6)}"


@pytest.fixture(scope="session")
def recorded_frames(tmp_path_factory) -> Path:
    from record_frames import record

    return record(tmp_path_factory.mktemp("frames") / "franka_stacking_seed2.npz",
                  scene="franka_stacking", seed=2, frames=2)
