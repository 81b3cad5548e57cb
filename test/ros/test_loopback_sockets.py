"""A started node opens no socket on a non-loopback address.

What is asserted (the strongest statement that holds, measured on Kilted with
rmw_fastrtps 9.3.3 / Fast DDS 3.2.3): every UDP and TCP socket, IPv4 or IPv6, of
a node that publishes, subscribes and has discovered a peer is *bound* to
127.0.0.1, and any connected peer address is 127.0.0.1. Nothing is bound to
0.0.0.0 or to the host's LAN address, so the node cannot receive multicast or
unicast from the network, and a socket bound to 127.0.0.1 cannot send to
another host (Linux drops loopback-sourced packets to non-local addresses).

The control case shows the check can fail: with ROS_AUTOMATIC_DISCOVERY_RANGE=
LOCALHOST added to the same profile, rmw_fastrtps appends a wildcard unicast
locator and the participant binds sockets to 0.0.0.0 and the LAN address (still
no traffic leaves the host, but the guarantee is weaker). That is why
configure_loopback_dds() sets SYSTEM_DEFAULT and relies on the checked profile.

The profile must also be the one Fast DDS uses: a ``DEFAULT_FASTDDS_PROFILES.xml``
in a node's working directory is loaded too and its default participant profile
replaces ours, unless SKIP_DEFAULT_XML_FILE=1 (set by configure_loopback_dds()).
"""
from __future__ import annotations

import ipaddress
import socket
import sys

import pytest
from paths import SUPPORT
from raw_node_scripts import SPIN_UNTIL_STOPPED
from std_msgs.msg import String

from robot_tasks.ros.dds import find_profile_file
from robot_tasks.testing.launcher import NodeProcess
from robot_tasks.testing.procfs import inet_sockets_of

pytestmark = pytest.mark.ros
TEST_NODES = SUPPORT

# A pub/sub node started from a bare environment (it does not call
# configure_loopback_dds itself), for the control case.
RAW_PUBSUB = ("import rclpy, time\n"
              "from rclpy.node import Node\n"
              "from std_msgs.msg import String\n"
              "rclpy.init()\n"
              "node = Node('raw_pubsub')\n"
              "pub = node.create_publisher(String, 'in', 10)\n"
              "node.create_subscription(String, 'out', lambda m: None, 10)\n"
              + SPIN_UNTIL_STOPPED)


def not_loopback(sockets):
    """Sockets with a local or remote address that is not 127.0.0.1 / ::1.

    A remote of 0.0.0.0:0 / :::0 means "not connected" and is fine.
    """
    bad = []
    for s in sockets:
        local = ipaddress.ip_address(s.local_ip)
        remote = ipaddress.ip_address(s.remote_ip)
        if not local.is_loopback or not (remote.is_loopback or (remote.is_unspecified and s.remote_port == 0)):
            bad.append(s)
    return bad


def test_node_binds_every_socket_to_loopback(launcher, ros_node):
    echo = launcher.start_script(TEST_NODES / "echo_node.py", name="echo_sockets")
    ros_node.wait_for_node("echo_sockets")
    received = []
    ros_node.node.create_subscription(String, "out", lambda m: received.append(m.data), 10)
    pub = ros_node.node.create_publisher(String, "in", 10)
    # traffic in both directions first, so every endpoint and channel exists
    ros_node.wait_for(lambda: pub.publish(String(data="x")) or bool(received), "an echo", 5.0)

    sockets = inet_sockets_of(echo.pid)
    assert any(s.proto == "udp" for s in sockets), f"expected DDS UDP sockets, got {sockets}"
    bad = not_loopback(sockets)
    assert not bad, "sockets off loopback: " + ", ".join(map(str, bad))
    assert all(s.local_ip == "127.0.0.1" for s in sockets), [str(s) for s in sockets]


def test_check_detects_sockets_off_loopback(launcher, ros_node, ros_env):
    """Control: the same profile plus DISCOVERY_RANGE=LOCALHOST binds 0.0.0.0 and the LAN address."""
    raw = launcher.start([sys.executable, "-c", RAW_PUBSUB], name="raw_pubsub",
                         extra_env={"ROS_AUTOMATIC_DISCOVERY_RANGE": "LOCALHOST"})
    ros_node.wait_for_node("raw_pubsub")
    ros_node.wait_for_publisher("in")
    bad = not_loopback(inet_sockets_of(raw.pid))
    assert bad, ("expected rmw's wildcard locator to bind a non-loopback socket; if this "
                 "fails, rmw changed and LOCALHOST can be set again in dds.py")
    assert any(s.local_ip == "0.0.0.0" for s in bad), [str(s) for s in bad]


def _stray_profile_dir(tmp_path):
    """A working dir with a DEFAULT_FASTDDS_PROFILES.xml that is still loopback-only (so
    the check is safe) but puts user data on a port of its own; returns (dir, port)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))  # a port nobody uses right now
        port = probe.getsockname()[1]
    ours = "<defaultUnicastLocatorList>\n          <locator><udpv4><address>"
    text = find_profile_file().read_text()
    assert ours in text
    stray_dir = tmp_path / "cwd"
    stray_dir.mkdir()
    (stray_dir / "DEFAULT_FASTDDS_PROFILES.xml").write_text(
        text.replace(ours, ours.replace("<address>", f"<port>{port}</port><address>"))
            .replace("localhost_only_participant", "stray_participant"))
    return stray_dir, port


def _start_in(launcher, ros_env, cwd, name, extra_env=None) -> NodeProcess:
    """RAW_PUBSUB started in `cwd` (NodeLauncher.start always uses the repo root)."""
    proc = NodeProcess(name, [sys.executable, "-c", RAW_PUBSUB.replace("raw_pubsub", name)],
                       ros_env.subprocess_env(extra_env), launcher.log_dir / f"{name}.log", cwd=cwd)
    launcher.processes.append(proc)  # stopped and checked for leftovers like the others
    return proc


@pytest.mark.parametrize("skip, stray_used", [(None, False), ("0", True)],
                         ids=["skip_set_by_dds_py", "control_skip_off"])
def test_profile_in_working_dir_is_ignored(launcher, ros_node, ros_env, tmp_path, skip, stray_used):
    stray_dir, stray_port = _stray_profile_dir(tmp_path)
    name = f"stray_cwd_{'control' if stray_used else 'skip'}"
    proc = _start_in(launcher, ros_env, stray_dir, name,
                     extra_env=None if skip is None else {"SKIP_DEFAULT_XML_FILE": skip})
    ros_node.wait_for_node(name)
    ports = {s.local_port for s in inet_sockets_of(proc.pid)}
    assert (stray_port in ports) == stray_used, (
        f"stray profile port {stray_port} {'not ' if stray_used else ''}bound; node ports {sorted(ports)}")
