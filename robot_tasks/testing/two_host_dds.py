"""The DDS environment of a process on one of the two test hosts: a real deployment's.

Everywhere else in this project DDS is confined to loopback (robot_tasks.ros.dds); a test
of two computers must do the opposite and use what a user sets on two real machines:

``ROBOT_TASKS_DDS=system``
    the deployment opt-out: every entry point (node mains, `robot-tasks bringup`,
    `robot-tasks execute`) keeps the environment's DDS settings instead of the loopback profile;
``ROS_DOMAIN_ID``
    the same on both hosts (one per test run, so parallel runs do not meet);
default discovery
    no Fast DDS profile, no ``ROS_AUTOMATIC_DISCOVERY_RANGE`` (rmw's default, SUBNET), no
    ``ROS_STATIC_PEERS``: participants find each other by multicast (239.255.0.1) on the
    subnet, as ROS 2 does out of the box on a LAN. The loopback variables this test process
    itself runs with are removed so nothing of them leaks into the hosts.
``FASTDDS_BUILTIN_TRANSPORTS=UDPv4``
    the one setting two real machines do not need: the namespaces share one kernel and
    /dev/shm, and Fast DDS's default transports include shared memory, which carries data
    between participants it believes are on one host -- past a pulled cable. UDP only makes
    the veth the sole path, as a network is between two computers. (Measured on Fast DDS
    3.2: with the defaults nothing crossed the downed veth either -- the namespaces' host
    ids differ -- but that is Fast DDS's guess, not a guarantee; test_link.py checks it.)

This is the only place a test takes the opt-out, and it is handed out only for namespaces
that have just passed :func:`robot_tasks.testing.isolation.check_routes` -- no way out but
the veth between them.
"""
from __future__ import annotations

import os
from pathlib import Path

from robot_tasks.ros.dds import IGNORED_VARIABLE, OPT_OUT_VALUE, OPT_OUT_VARIABLE
from robot_tasks.testing.isolation import check_routes
from robot_tasks.testing.netns import TwoHosts

# Fast DDS >= 2.13 reads this when a participant is created; UDPv4 = UDP over IPv4 only, no SHM.
TRANSPORTS = {"FASTDDS_BUILTIN_TRANSPORTS": "UDPv4"}
# What robot_tasks.ros.dds sets for loopback, and a user's own discovery overrides.
LOOPBACK_VARIABLES = ("FASTDDS_DEFAULT_PROFILES_FILE", "SKIP_DEFAULT_XML_FILE", "ROS_AUTOMATIC_DISCOVERY_RANGE",
                      "ROS_STATIC_PEERS", IGNORED_VARIABLE)
REPO_ROOT = Path(__file__).resolve().parents[2]


def two_host_environment(hosts: TwoHosts, domain_id: int, log_dir: str | os.PathLike,
                         base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for processes started in `hosts` (both hosts get the same one)."""
    check_routes(hosts.names.values())
    env = {k: v for k, v in (os.environ if base is None else base).items() if k not in LOOPBACK_VARIABLES}
    Path(log_dir).mkdir(parents=True, exist_ok=True)
    env.update({OPT_OUT_VARIABLE: OPT_OUT_VALUE, "ROS_DOMAIN_ID": str(domain_id),
                "ROS_LOG_DIR": str(Path(log_dir).resolve()), "PYTHONUNBUFFERED": "1", **TRANSPORTS})
    paths = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if str(REPO_ROOT) not in paths:           # a source checkout is importable in the hosts too
        env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT), *paths])
    return env
