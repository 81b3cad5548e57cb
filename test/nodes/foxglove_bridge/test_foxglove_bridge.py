"""The foxglove_bridge, checked by an independent client (support/foxglove_client.py:
`websockets` speaking the Foxglove protocol, `rosbags` decoding the CDR with the
schemas the bridge advertised) against the real sim, state_publisher and tree_executor.
"""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from foxglove_client import SUBPROTOCOL, FoxgloveClient, bridge_port

from robot_tasks.nodes.foxglove_bridge.assets import mesh_uris
from robot_tasks.testing.ros_test_node import wait_until

pytestmark = [pytest.mark.ros, pytest.mark.sim]

SIM_PARAMS = {"scene": "franka_stacking", "seed": 0, "real_time_factor": 1.0, "camera_rate": 2.0,
              "camera_width": 64, "camera_height": 48}
WATCHED = {1: "/tf", 2: "/panda/joint_states", 3: "/camera/image_raw", 4: "/tree_status"}


def listening_addresses(port: int) -> set[str]:
    """Local addresses of the TCP sockets listening on `port` (from /proc/net/tcp)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, port_hex = local.split(":")
        if state == "0A" and int(port_hex, 16) == port:
            found.add(".".join(str(int(address[i:i + 2], 16)) for i in (6, 4, 2, 0)))
    return found


def start_bridge(launcher):
    proc = launcher.start_module("robot_tasks.nodes.foxglove_bridge", name="foxglove_bridge",
                                 params={"port": 0, "use_sim_time": True})
    wait_until(lambda: bridge_port(proc.log_path.read_text()) is not None, "the bridge's URL in its log", 30.0,
               [proc])
    return bridge_port(proc.log_path.read_text())


def test_a_client_lists_subscribes_and_decodes_tf_joints_camera_and_tree_status(
        launcher, ros_node, start_executor, action_clients):
    from robot_tasks_interfaces.action import ExecuteTree

    launcher.start_module("robot_tasks.nodes.sim", name="sim", params=SIM_PARAMS)
    launcher.start_module("robot_tasks.nodes.state_publisher", name="state_publisher", params={"use_sim_time": True})
    start_executor()
    port = start_bridge(launcher)
    assert listening_addresses(port) == {"127.0.0.1"}

    async def session():
        client = await FoxgloveClient.connect(port)
        try:
            assert client.ws.subprotocol == SUBPROTOCOL
            await client.pump(lambda: set(WATCHED.values()) <= set(client.channels), 30.0,
                              f"channels {sorted(WATCHED.values())}")
            assert "assets" in client.server_info["capabilities"]
            await client.settle()
            await client.subscribe(WATCHED)
            # the tree executor publishes tree_status while a tree runs: run one (it fails fast)
            # after the bridge subscribed /tree_status (it does once a client subscribes); run
            # it again if that first status went out before the two had matched
            ros_node.wait_for_subscriber("/tree_status", timeout=10.0)
            goals = action_clients.create(ExecuteTree, "execute_tree")
            for _ in range(5):
                ros_node.run_on_executor(lambda: goals.send_goal_async(ExecuteTree.Goal(target_tree="StaleTopic")),
                                         "send the goal")
                try:
                    await client.pump(lambda: client.messages.get(4), 5.0, "a tree_status message")
                    break
                except AssertionError:
                    continue
            try:
                await client.pump(lambda: all(client.messages.get(i) for i in WATCHED), 30.0,
                                  "a message on every subscribed channel")
            except AssertionError as err:
                missing = [topic for i, topic in WATCHED.items() if not client.messages.get(i)]
                raise AssertionError(f"{err}; none on {missing}") from None
            decoded = {topic: client.decode(topic, client.messages[i][-1][1]) for i, topic in WATCHED.items()}

            # the meshes of the URDF come through the asset handler; other files do not
            await client.settle()
            await client.subscribe({9: "/panda/robot_description"})
            await client.pump(lambda: client.messages.get(9), 20.0, "the robot_description")
            urdf = client.decode("/panda/robot_description", client.messages[9][-1][1]).data
            mesh = sorted(mesh_uris(urdf))[0]
            await client.fetch_asset(mesh, 1)
            await client.fetch_asset("/etc/passwd", 2)
            await client.pump(lambda: {1, 2} <= set(client.assets), 20.0, "two fetchAsset answers")
            return decoded, mesh, client.assets
        finally:
            await client.close()

    decoded, mesh, assets = asyncio.run(session())
    tf = decoded["/tf"]
    assert tf.transforms and all(t.child_frame_id for t in tf.transforms)
    joints = decoded["/panda/joint_states"]
    assert list(joints.name)[:2] == ["panda_joint1", "panda_joint2"] and len(joints.position) == 9
    image = decoded["/camera/image_raw"]
    assert (image.width, image.height, image.encoding) == (64, 48, "rgb8") and len(image.data) == 64 * 48 * 3
    status = decoded["/tree_status"]
    assert status.__msgtype__ == "robot_tasks_interfaces/msg/TreeStatus"
    assert assets[1][0] == 0 and assets[1][2] == Path(mesh).read_bytes()
    assert assets[2][0] != 0 and assets[2][2] == b""


def test_a_configured_topic_list_serves_only_those_and_the_address_is_a_parameter(launcher):
    launcher.start_module("robot_tasks.nodes.sim", name="sim", params=SIM_PARAMS)
    proc = launcher.start_module("robot_tasks.nodes.foxglove_bridge", name="foxglove_bridge",
                                 params={"port": 0, "topics": ["/clock", "panda/joint_states"],
                                         "address": "127.0.0.1"})
    wait_until(lambda: bridge_port(proc.log_path.read_text()) is not None, "the bridge's URL", 30.0, [proc])

    async def session():
        client = await FoxgloveClient.connect(bridge_port(proc.log_path.read_text()))
        try:
            await client.pump(lambda: len(client.channels) >= 2, 30.0, "two channels")
            await asyncio.sleep(1.5)                 # a discovery period more: nothing else comes
            await client.pump(lambda: True, 1.0, "")
            return set(client.channels)
        finally:
            await client.close()

    assert asyncio.run(session()) == {"/clock", "/panda/joint_states"}


def test_a_bad_port_stops_the_bridge_naming_the_parameter(launcher):
    proc = launcher.start([sys.executable, "-m", "robot_tasks.nodes.foxglove_bridge", "--ros-args",
                           "-p", "port:=70000"], name="foxglove_bridge", may_exit=True)
    wait_until(lambda: not proc.is_running(), "the bridge to exit", 20.0)
    assert proc.popen.returncode == 2
    assert "foxglove_bridge: parameter 'port' must be an integer in [0, 65535], got 70000" in proc.tail()
