"""The two-host harness: two network namespaces joined only to each other, and its checks.

The namespace tests need root and `ip` (CI runs as root); elsewhere they skip and say why.
The frame classifier and the route rules are pure and always run.
"""
from __future__ import annotations

import signal
import struct
import subprocess
import sys
import time

import pytest

from robot_tasks.ros.dds import OPT_OUT_VARIABLE
from robot_tasks.ros.domains import domain_ports, pick_free_domain_id
from robot_tasks.testing.isolation import (
    IsolationError,
    TrafficWatch,
    _route_allowed,
    check_routes,
    classify,
    route_problems,
)
from robot_tasks.testing.netns import PREFIX, SUBNET, VETH, TwoHosts, ip, namespaces, unavailable_reason
from robot_tasks.testing.two_host_dds import two_host_environment

NETNS_MISSING = unavailable_reason()
needs_netns = pytest.mark.skipif(NETNS_MISSING is not None, reason=f"two-host tests: {NETNS_MISSING}")


# ---- pure: what counts as a DDS packet, which routes are allowed --------------------
def _ipv4_udp_frame(src: bytes, dst: bytes, sport: int, dport: int) -> bytes:
    ip_header = bytes([0x45, 0]) + struct.pack("!HHHBBH", 28, 0, 0, 64, 17, 0) + src + dst
    return b"\xff" * 12 + struct.pack("!H", 0x0800) + ip_header + struct.pack("!HHHH", sport, dport, 8, 0)


def test_classify_finds_the_domains_ports_and_the_subnet():
    ports = domain_ports(7)
    host, other = bytes([10, 0, 0, 5]), bytes([10, 0, 0, 6])
    assert classify(_ipv4_udp_frame(host, other, 40000, ports.start + 11), ports) == (True, False)
    assert classify(_ipv4_udp_frame(host, other, ports.start, 40000), ports) == (True, False)
    assert classify(_ipv4_udp_frame(host, other, 40000, 53), ports) == (False, False)
    assert classify(_ipv4_udp_frame(bytes([198, 51, 100, 1]), other, 1, 2), ports) == (False, True)
    assert classify(b"\x00" * 10, ports) == (False, False)


def test_route_rules_allow_only_the_cable():
    assert _route_allowed({"dst": "198.51.100.0/24", "dev": VETH, "protocol": "kernel"}, SUBNET, VETH)
    assert _route_allowed({"dst": "224.0.0.0/4", "dev": VETH}, SUBNET, VETH)
    assert _route_allowed({"type": "local", "dst": "198.51.100.1", "dev": VETH}, SUBNET, VETH)
    assert _route_allowed({"type": "local", "dst": "127.0.0.0/8", "dev": "lo"}, SUBNET, VETH)
    assert not _route_allowed({"dst": "default", "dev": VETH}, SUBNET, VETH)
    assert not _route_allowed({"dst": "10.0.0.0/8", "dev": VETH}, SUBNET, VETH)
    assert not _route_allowed({"dst": "198.51.100.0/24", "dev": "eth0"}, SUBNET, VETH)
    assert not _route_allowed({"dst": "203.0.113.0/24", "gateway": "198.51.100.9", "dev": VETH}, SUBNET, VETH)


@needs_netns
def test_traffic_watch_counts_dds_ports_it_sees():
    """The positive control, on loopback (the only interface a test may send on): a datagram
    to an unused port of the domain's block is counted, so a zero elsewhere means something."""
    import socket

    domain = pick_free_domain_id()
    port = domain_ports(domain).stop - 2
    with TrafficWatch(domain, interfaces=["lo"]) as watch:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
            for _ in range(3):
                sender.sendto(b"not rtps", ("127.0.0.1", port))
        time.sleep(0.5)
    assert watch.report.dds_packets >= 3
    with pytest.raises(IsolationError, match="DDS ports"):
        watch.check()


# ---- the namespaces ------------------------------------------------------------------
UDP_ECHO = ("import socket, sys\n"
            "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind((sys.argv[1], int(sys.argv[2])))\n"
            "s.settimeout(10); data, peer = s.recvfrom(100); s.sendto(data[::-1], peer)\n")
UDP_ASK = ("import socket, sys\n"
           "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(10)\n"
           "s.sendto(b'robot', (sys.argv[1], int(sys.argv[2]))); print(s.recvfrom(100)[0].decode())\n")


@needs_netns
def test_two_hosts_talk_only_to_each_other_and_vanish():
    domain = pick_free_domain_id()
    port = domain_ports(domain).start + 10           # a DDS discovery port of that domain
    with TrafficWatch(domain) as watch, TwoHosts() as hosts:
        robot, task = hosts.ns("robot"), hosts.ns("task")
        assert {robot, task} <= set(namespaces())
        for ns in (robot, task):
            links = ip("-n", ns, "-o", "link").split("\n")
            assert sorted(line.split(": ")[1].split("@")[0] for line in links if line) == ["lo", VETH]
        check_routes([robot, task])
        server = hosts.popen("robot", [sys.executable, "-c", UDP_ECHO, hosts.address("robot"), str(port)])
        time.sleep(0.3)
        asked = hosts.run("task", [sys.executable, "-c", UDP_ASK, hosts.address("robot"), str(port)])
        assert asked.stdout.strip() == "tobor"
        assert server.wait(timeout=10) == 0
    assert robot not in namespaces() and task not in namespaces()
    report = watch.check()
    assert report.interfaces, "no non-loopback interface to watch on this machine"
    print(report.describe())


@needs_netns
def test_route_check_finds_a_way_out():
    with TwoHosts() as hosts:
        ns = hosts.ns("task")
        ip("-n", ns, "route", "add", "default", "dev", VETH)
        assert any("default" in p for p in route_problems(ns))
        with pytest.raises(IsolationError, match="default"):
            check_routes([ns])
        with pytest.raises(IsolationError):
            two_host_environment(hosts, 5, "/tmp")   # no opt-out for a namespace with a way out


@needs_netns
def test_leftovers_of_a_dead_run_are_removed_a_live_runs_kept():
    dead = f"{PREFIX}999999999-robot"                 # above pid_max: that process cannot exist
    live = f"{PREFIX}1-task"                          # pid 1 always runs: a parallel run's, kept
    for ns in (dead, live):
        ip("netns", "add", ns)
    try:
        with TwoHosts():
            assert dead not in namespaces()
            assert live in namespaces()
    finally:
        for ns in (dead, live):
            ip("netns", "del", ns, check=False)


@needs_netns
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "ctrl-c"])
def test_namespaces_go_when_the_process_is_stopped(sig):
    tag = f"sig{int(sig)}"
    script = ("import sys, time; sys.path.insert(0, sys.argv[1])\n"
              "from robot_tasks.testing.netns import TwoHosts\n"
              f"with TwoHosts(tag='{tag}') as hosts:\n"
              "    print(hosts.ns('robot'), flush=True); time.sleep(60)\n")
    from robot_tasks.testing.two_host_dds import REPO_ROOT
    child = subprocess.Popen([sys.executable, "-c", script, str(REPO_ROOT)], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
    try:
        name = child.stdout.readline().strip()
        assert name == f"{PREFIX}{tag}-robot" and name in namespaces()
        child.send_signal(sig)                        # SIGINT: KeyboardInterrupt, as Ctrl-C
        assert child.wait(timeout=15) != 0
        assert name not in namespaces() and f"{PREFIX}{tag}-task" not in namespaces()
    finally:
        if child.poll() is None:
            child.kill()
        for host in ("robot", "task"):
            ip("netns", "del", f"{PREFIX}{tag}-{host}", check=False)


# ---- ROS 2 across the cable, with the deployment's DDS settings ----------------------
TALKER = ("import rclpy, time\nfrom std_msgs.msg import String\n"
          "rclpy.init(); n = rclpy.create_node('talker'); p = n.create_publisher(String, 'chat', 10)\n"
          "t = time.monotonic()\n"
          "try:\n"
          "    while time.monotonic() - t < 20:\n"
          "        p.publish(String(data='over the cable')); rclpy.spin_once(n, timeout_sec=0.1)\n"
          "except KeyboardInterrupt: pass\n")
LISTENER = ("import rclpy, time\nfrom std_msgs.msg import String\n"
            "rclpy.init(); n = rclpy.create_node('listener'); got = []; t = time.monotonic()\n"
            "n.create_subscription(String, 'chat', lambda m: got.append(time.monotonic() - t), 10)\n"
            "while not got and time.monotonic() - t < 15: rclpy.spin_once(n, timeout_sec=0.1)\n"
            "print(f'{got[0]:.2f}' if got else 'nothing'); n.destroy_node(); rclpy.shutdown()\n")


@pytest.mark.ros
@needs_netns
def test_ros_topic_crosses_the_cable_with_default_discovery(tmp_path):
    domain = pick_free_domain_id()
    with TrafficWatch(domain) as watch, TwoHosts() as hosts:
        env = two_host_environment(hosts, domain, tmp_path / "ros_log")
        assert env[OPT_OUT_VARIABLE] == "system" and "FASTDDS_DEFAULT_PROFILES_FILE" not in env
        talker = hosts.popen("robot", [sys.executable, "-c", TALKER], env=env)
        heard = hosts.run("task", [sys.executable, "-c", LISTENER], env=env, timeout=40)
        assert heard.stdout.strip() != "nothing", heard.stderr[-2000:]
        print(f"first message on the task host after {heard.stdout.strip()} s")
        talker.send_signal(2)
        assert talker.wait(timeout=10) == 0
    print(watch.check().describe())
