"""A pulled cable between the two test hosts: nothing crosses while it is out, all again after.

Shared memory would be the leak: the two namespaces share one kernel and /dev/shm, and Fast
DDS carries data over shared memory between participants it takes to be on one host. The
two-host environment turns it off (FASTDDS_BUILTIN_TRANSPORTS=UDPv4, two_host_dds); this test
proves the veth is the only path, with a fixed-size type (std_msgs/Int32, the kind Fast DDS
would also hand over by data-sharing) and a variable-size one (String).
"""
from __future__ import annotations

import subprocess
import sys
import time

import pytest

from robot_tasks.ros.domains import pick_free_domain_id
from robot_tasks.testing.isolation import check_routes
from robot_tasks.testing.link import plug, unplug, unplugged
from robot_tasks.testing.netns import MULTICAST_ROUTE, VETH, TwoHosts, ip, unavailable_reason
from robot_tasks.testing.two_host_dds import two_host_environment

NETNS_MISSING = unavailable_reason()
needs_netns = pytest.mark.skipif(NETNS_MISSING is not None, reason=f"two-host tests: {NETNS_MISSING}")

TALKER = ("import rclpy, sys, time\nfrom std_msgs.msg import Int32, String\n"
          "kind = Int32 if sys.argv[1] == 'Int32' else String\n"
          "rclpy.init(); n = rclpy.create_node('talker'); p = n.create_publisher(kind, 'chat', 10)\n"
          "t, i = time.monotonic(), 0\n"
          "try:\n"
          "    while time.monotonic() - t < 30:\n"
          "        i += 1; p.publish(kind(data=i if kind is Int32 else str(i))); rclpy.spin_once(n, timeout_sec=0.05)\n"
          "except KeyboardInterrupt: pass\n")
# prints the wall time (time.time: the same clock in both namespaces) of every message
LISTENER = ("import rclpy, sys, time\nfrom std_msgs.msg import Int32, String\n"
            "kind = Int32 if sys.argv[1] == 'Int32' else String\n"
            "rclpy.init(); n = rclpy.create_node('listener'); t = time.monotonic()\n"
            "n.create_subscription(kind, 'chat', lambda m: print(f'{time.time():.3f}', flush=True), 10)\n"
            "try:\n"
            "    while time.monotonic() - t < 30: rclpy.spin_once(n, timeout_sec=0.1)\n"
            "except KeyboardInterrupt: pass\n")


@needs_netns
def test_unplug_removes_the_path_and_plug_restores_routes():
    with TwoHosts() as hosts:
        unplug(hosts)
        assert "state DOWN" in ip("-n", hosts.ns("robot"), "link", "show", VETH)
        assert MULTICAST_ROUTE not in ip("-n", hosts.ns("robot"), "route")   # the kernel dropped it
        plug(hosts)
        for ns in hosts.names.values():
            assert MULTICAST_ROUTE in ip("-n", ns, "route")
        check_routes(hosts.names.values())


@pytest.mark.ros
@needs_netns
@pytest.mark.parametrize("kind", ["Int32", "String"])
def test_nothing_crosses_an_unplugged_cable(tmp_path, kind):
    with TwoHosts() as hosts:
        env = two_host_environment(hosts, pick_free_domain_id(), tmp_path / "ros_log")
        assert env["FASTDDS_BUILTIN_TRANSPORTS"] == "UDPv4"
        hosts.popen("robot", [sys.executable, "-c", TALKER, kind], env=env)
        listener = hosts.popen("task", [sys.executable, "-c", LISTENER, kind], env=env,
                               stdout=subprocess.PIPE, text=True)
        arrivals: list[float] = []
        _read_into(listener, arrivals)
        deadline = time.monotonic() + 15
        while not arrivals and time.monotonic() < deadline:   # discovered, messages flowing
            time.sleep(0.1)
        assert arrivals, "no message crossed the plugged-in cable"
        time.sleep(1.0)
        with unplugged(hosts):
            out_at = time.time()
            time.sleep(3.0)
            back_at = time.time()
        time.sleep(3.0)
        listener.send_signal(2)
        listener.wait(timeout=15)
    # 0.2 s: a message already in the listener's socket when the cable went out
    during = [t for t in arrivals if out_at + 0.2 < t < back_at]
    after = [t for t in arrivals if t > back_at]
    print(f"{kind}: {sum(t < out_at for t in arrivals)} before, {len(during)} while unplugged, "
          f"{len(after)} after (first {after[0] - back_at:.2f} s after the plug)" if after else "none after")
    assert during == [], f"{len(during)} messages crossed an unplugged cable"
    assert after and after[0] - back_at < 3.0


def _read_into(process: subprocess.Popen, arrivals: list[float]) -> None:
    import threading

    def pump():
        for line in process.stdout:
            if line.strip():
                arrivals.append(float(line))

    threading.Thread(target=pump, daemon=True).start()
