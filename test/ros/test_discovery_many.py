"""Many processes in one domain: every pair must discover each other over the loopback profile.

Why this needs a test: with multicast off, a participant is found only through the
initial peer 127.0.0.1, which Fast DDS expands to the discovery ports of participant
indices 0..maxInitialPeersRange-1 of the domain (7400 + 250*domain + 10 + 2*index).
Each process takes the lowest free index on the host. With Fast DDS's default range
of 4, processes 5, 6, ... announce only to indices 0-3, so two of them never meet:
no data flows between them, while each still talks to indices 0-3. The demo runs
~6 processes per domain and tests several, so the profile sets a larger range.

A second effect of slow discovery on a loaded machine is covered too: a service
server sends a reply only once it has matched the client's reply reader, waiting at
most its reply writer's max_blocking_time, which the profile raises from 100 ms to 1 s.

Each peer node publishes its number on its own topic and subscribes to every other
peer's topic; it logs "got J" the first time data from peer J arrives. The control
case runs the same nodes with the range put back to 4 and shows the test can fail:
exactly the pairs of high-index peers stay silent.
"""
from __future__ import annotations

import re
import sys
import time

import pytest
from raw_node_scripts import SPIN_UNTIL_STOPPED
from rclpy.qos import DurabilityPolicy, QoSProfile
from std_srvs.srv import Trigger

from robot_tasks.ros.dds import DOMAIN_GAIN, PORT_BASE, find_profile_file
from robot_tasks.testing.procfs import inet_sockets_of
from robot_tasks.testing.ros_test_node import wait_until

pytestmark = pytest.mark.ros

# argv: own number, number of peers. Plain rclpy; the launcher gives it the loopback env.
PEER = ("import sys, rclpy\n"
        "from rclpy.node import Node\n"
        "from std_msgs.msg import String\n"
        "me, n = int(sys.argv[1]), int(sys.argv[2])\n"
        "rclpy.init()\n"
        "node = Node(f'peer{me}')\n"
        "pub = node.create_publisher(String, f'discovery_test/peer{me}', 10)\n"
        "seen = set()\n"
        "def on_data(msg):\n"
        "    if msg.data not in seen:\n"
        "        seen.add(msg.data)\n"
        "        print('got', msg.data, flush=True)\n"
        "subs = [node.create_subscription(String, f'discovery_test/peer{j}', on_data, 10)\n"
        "        for j in range(n) if j != me]\n"
        "node.create_timer(0.2, lambda: pub.publish(String(data=str(me))))\n"
        "print('ready', flush=True)\n"
        + SPIN_UNTIL_STOPPED)

STARTUP_S = 60.0    # 8 rclpy processes starting at once on 2 busy cores
DISCOVERY_S = 15.0  # announcements go out every 0.5 s; all pairs take ~3 s from start


def start_peers(launcher, count: int, extra_env: dict[str, str] | None = None) -> list:
    peers = [launcher.start([sys.executable, "-c", PEER, str(i), str(count)], name=f"peer{i}",
                            extra_env=extra_env)
             for i in range(count)]
    wait_until(lambda: all("ready" in p.tail(200) for p in peers), "every peer to start",
               STARTUP_S, peers)
    return peers


def received_from(peer) -> set[int]:
    return {int(j) for j in re.findall(r"^got (\d+)$", peer.tail(200), re.M)}


def missing_pairs(peers) -> list[tuple[int, int]]:
    """(receiver, sender) pairs with no data yet."""
    return [(i, j) for i, p in enumerate(peers) for j in range(len(peers))
            if j != i and j not in received_from(p)]


def participant_index(proc, domain_id: int) -> int:
    """The index of the process's participant, read from the discovery port it bound."""
    base = PORT_BASE + DOMAIN_GAIN * domain_id
    found = [(s.local_port - base - 10) // 2 for s in inet_sockets_of(proc.pid)
             if s.proto == "udp" and base + 10 <= s.local_port < base + DOMAIN_GAIN
             and (s.local_port - base) % 2 == 0]
    assert len(found) == 1, f"{proc.name}: expected one discovery port, got {found}"
    return found[0]


def wait_for_pairs(peers, wanted, timeout: float) -> None:
    """Poll the logs until no (receiver, sender) pair in `wanted` is missing, or timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and set(missing_pairs(peers)) & set(wanted):
        time.sleep(0.1)


def test_every_pair_of_eight_nodes_exchanges_data(launcher, ros_env):
    peers = start_peers(launcher, 8)
    index = [participant_index(p, ros_env.domain_id) for p in peers]
    everyone = [(i, j) for i in range(8) for j in range(8) if i != j]
    wait_for_pairs(peers, everyone, DISCOVERY_S)

    missing = missing_pairs(peers)
    assert not missing, (
        f"no data between {len(missing)} (receiver, sender) pairs after {DISCOVERY_S} s: "
        + ", ".join(f"peer{i}(index {index[i]})<-peer{j}(index {index[j]})" for i, j in missing))
    # the case that used to fail was really exercised: two or more peers above index 3
    assert sum(k >= 4 for k in index) >= 2, f"participant indices {index}"


def test_control_with_the_default_range_high_indices_never_meet(launcher, ros_env, tmp_path):
    """Same nodes, profile range back to Fast DDS's default 4: exactly the high pairs fail."""
    text = find_profile_file().read_text()
    assert "<maxInitialPeersRange>32</maxInitialPeersRange>" in text
    default_range = tmp_path / "range4.xml"
    default_range.write_text(text.replace("<maxInitialPeersRange>32<", "<maxInitialPeersRange>4<"))
    peers = start_peers(launcher, 6, extra_env={"FASTDDS_DEFAULT_PROFILES_FILE": str(default_range)})
    index = [participant_index(p, ros_env.domain_id) for p in peers]
    high = [i for i, k in enumerate(index) if k >= 4]
    assert len(high) >= 2, f"participant indices {index}: need two above 3 for the control"

    reachable = [(i, j) for i in range(6) for j in range(6)
                 if i != j and not (i in high and j in high)]
    wait_for_pairs(peers, reachable, DISCOVERY_S)
    assert not set(missing_pairs(peers)) & set(reachable), "pairs with a low index should work"
    time.sleep(2.0)  # four more announcement rounds: the high pairs still do not meet
    between_high = {(i, j) for i in high for j in high if i != j}
    assert set(missing_pairs(peers)) == between_high, f"indices {index}"


# A Trigger server that logs the (system-wide monotonic) time of every request it handles.
STAMPING_SERVER = ("import time, rclpy\n"
                   "from rclpy.node import Node\n"
                   "from std_srvs.srv import Trigger\n"
                   "rclpy.init()\n"
                   "node = Node('stamping_server')\n"
                   "def handle(request, response):\n"
                   "    print(f'request at {time.monotonic():.3f}', flush=True)\n"
                   "    response.success = True\n"
                   "    return response\n"
                   "node.create_service(Trigger, 'stamped_trigger', handle)\n"
                   + SPIN_UNTIL_STOPPED)


def test_service_reply_waits_up_to_a_second_for_the_client_reply_reader(launcher, ros_node):
    """The profile's "service" data_writer reaches rmw: a reply to a client whose reply
    reader never matches blocks the server ~1 s (the Fast DDS default is 0.1 s).

    The client asks for TRANSIENT_LOCAL: its request writer still matches the server's
    VOLATILE request reader, but its reply reader cannot match the VOLATILE reply writer,
    so every send_response waits the full max_blocking_time, one request after another.
    """
    server = launcher.start([sys.executable, "-c", STAMPING_SERVER], name="stamping_server")
    ros_node.wait_for_service(Trigger, "stamped_trigger")
    unmatched = QoSProfile(depth=10, durability=DurabilityPolicy.TRANSIENT_LOCAL)
    client = ros_node.node.create_client(Trigger, "stamped_trigger", qos_profile=unmatched)
    # not client.service_is_ready(): that needs the reply reader matched too. The
    # TRANSIENT_LOCAL request writer delivers the requests once it has matched.
    for _ in range(3):
        client.call_async(Trigger.Request())

    def stamps() -> list[float]:
        return [float(s) for s in re.findall(r"^request at ([\d.]+)$", server.tail(50), re.M)]

    ros_node.wait_for(lambda: len(stamps()) == 3, "three requests handled", timeout=15.0)
    gaps = [b - a for a, b in zip(stamps(), stamps()[1:])]
    # a lower bound only (the wait can end no sooner); 0.1 s would mean the profile was ignored
    assert min(gaps) >= 0.8, f"server blocked {gaps} s per reply, expected ~1 s"
    ros_node.node.destroy_client(client)
