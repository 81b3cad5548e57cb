"""`robot-tasks bringup` with real processes over loopback DDS, and the demo's rviz2
config (config/franka_stacking.rviz) and Foxglove layout (config/franka_stacking.foxglove.json)
checked against the live ROS graph.

Mostly only the sim is started here (the servers are tested by their own suites):
enough to see prefixed output, a clean Ctrl-C shutdown with nothing left behind and a
dying node taking the others down. For the viewers the nodes that feed them run
(sim, state_publisher, perception_server, tree_executor): every topic the rviz2
config and the Foxglove layout name is published, for rviz2 with a
QoS rviz2 can receive, and every frame it needs (the fixed frame, the RobotModel's
links under its TF Prefix, the frame_id of every image and marker) is on /tf.
"""
from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest
import yaml
from paths import REPO, SUPPORT

from robot_tasks.testing.procfs import fastdds_segments, fastdds_segments_of
from robot_tasks.testing.ros_test_node import RosTestNode

pytestmark = [pytest.mark.ros, pytest.mark.sim, pytest.mark.slow]

CONFIG = REPO / "config" / "franka_stacking.yaml"
RVIZ = REPO / "config" / "franka_stacking.rviz"
ONLY_SIM = ["--skip", "arm_server", "--skip", "gripper_server", "--skip", "perception_server",
            "--skip", "tree_executor", "--skip", "state_publisher", "--no-peer-watch"]
WHAT_VIEWERS_NEED = ["--skip", "arm_server", "--skip", "gripper_server"]
FOXGLOVE_LAYOUT = REPO / "config" / "franka_stacking.foxglove.json"
JOINT_MOVE_SERVER = SUPPORT / "joint_move_server.py"   # any node will do as a peer


# This module's own domain (overrides the session one); `launcher` stays test/conftest.py's.
from module_scoped import ros_env  # noqa: E402, F401, F811  (a fixture, used by name)


def bringup_argv(*extra):
    return [sys.executable, "-m", "robot_tasks.cli", "bringup", str(CONFIG), *extra]


def children_of(pid: int) -> list[int]:
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(entry))
    return kids


def wait_until(predicate, what, timeout):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def rviz_topics():
    """(display class, topic, reliability, durability) of every display that subscribes."""
    displays = yaml.safe_load(RVIZ.read_text())["Visualization Manager"]["Displays"]
    found = []
    for display in displays:
        for key in ("Topic", "Description Topic"):
            if isinstance(display.get(key), dict):
                topic = display[key]
                found.append((display["Class"], topic["Value"], topic["Reliability Policy"],
                              topic["Durability Policy"]))
    return found


def foxglove_layout_topics() -> set[str]:
    """Every topic the Foxglove layout's panels name (3D topics, image, plots, raw messages)."""
    import json

    topics = set()
    for panel in json.loads(FOXGLOVE_LAYOUT.read_text())["configById"].values():
        topics |= set(panel.get("topics", {}))
        topics |= {layer["topic"] for layer in panel.get("layers", {}).values() if "topic" in layer}
        topics |= {v for k, v in panel.get("imageMode", {}).items() if k.endswith("Topic")}
        topics |= {path["value"].split(".", 1)[0] for path in panel.get("paths", [])}
        if "topicPath" in panel:
            topics.add(panel["topicPath"].split(".", 1)[0])
    return topics


def rviz_displays() -> list[dict]:
    return yaml.safe_load(RVIZ.read_text())["Visualization Manager"]["Displays"]


def test_rviz_config_shows_tf_robot_markers_detections_and_camera():
    classes = sorted(d["Class"] for d in rviz_displays())
    assert classes == ["rviz_default_plugins/Grid", "rviz_default_plugins/Image",
                       "rviz_default_plugins/MarkerArray", "rviz_default_plugins/MarkerArray",
                       "rviz_default_plugins/RobotModel", "rviz_default_plugins/TF"]
    assert {t for _, t, *_ in rviz_topics()} == {"/panda/robot_description", "/object_markers",
                                                   "/detection_markers", "/camera/image_raw"}
    assert yaml.safe_load(RVIZ.read_text())["Visualization Manager"]["Global Options"]["Fixed Frame"] == "world"


def test_every_demo_bringup_has_an_rviz_config():
    for bringup in REPO.glob("config/*.yaml"):
        if "bringup" in (yaml.safe_load(bringup.read_text()) or {}):
            assert bringup.with_suffix(".rviz").is_file(), f"{bringup.name} has no rviz2 config beside it"


def assert_rviz_qos_can_receive(probe, display, topic, reliability, durability) -> None:
    probe.wait_for_publisher(topic, timeout=60.0)
    for info in probe.node.get_publishers_info_by_topic(topic):
        qos = info.qos_profile
        if reliability == "Reliable":
            assert qos.reliability.name == "RELIABLE", f"{display} {topic}: publisher is best effort"
        if durability == "Transient Local":
            assert qos.durability.name == "TRANSIENT_LOCAL", f"{display} {topic}: not latched"


def test_every_topic_and_frame_of_the_rviz_config_and_foxglove_layout_is_published(ros_env, launcher):
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    from sensor_msgs.msg import Image
    from std_msgs.msg import String
    from visualization_msgs.msg import MarkerArray

    from robot_tasks.control.frame_tree import FrameTransform, FrameTree, compose_frames
    from robot_tasks.nodes.state_publisher.tf_convert import frame_transform
    from tf2_msgs.msg import TFMessage

    launcher.start(bringup_argv(*WHAT_VIEWERS_NEED, "--set", "sim.camera_rate=2.0"), name="bringup")
    latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL)
    kinds = {"rviz_default_plugins/RobotModel": String, "rviz_default_plugins/MarkerArray": MarkerArray,
             "rviz_default_plugins/Image": Image}
    with RosTestNode("rviz_probe", ros_env, launcher=launcher) as probe:
        received: dict[str, list] = {}
        transforms: dict[str, FrameTransform] = {}

        def on_tf(msg):
            transforms.update({t.child_frame_id: frame_transform(t) for t in msg.transforms})

        probe.node.create_subscription(TFMessage, "/tf", on_tf, 100)
        probe.node.create_subscription(TFMessage, "/tf_static", on_tf, latched)
        for display, topic, reliability, durability in rviz_topics():
            assert_rviz_qos_can_receive(probe, display, topic, reliability, durability)
            qos = latched if durability == "Transient Local" else 10
            probe.node.create_subscription(kinds[display], topic,
                                           lambda m, t=topic: received.setdefault(t, []).append(m), qos)
        probe.wait_for(lambda: all(received.get(t) for _, t, *_ in rviz_topics()),
                       "a message on every topic of the rviz config", 90.0)

        # the frames: fixed frame, RobotModel links under its prefix, every message's frame_id
        needed = {"world"}
        for display in rviz_displays():
            if display["Class"] == "rviz_default_plugins/RobotModel":
                urdf = received[display["Description Topic"]["Value"]][-1].data
                prefix = display["TF Prefix"] + "/" if display["TF Prefix"] else ""
                needed |= {prefix + link for link in FrameTree.from_urdf_string(urdf).links}
        for topic, messages in received.items():
            msg = messages[-1]
            headers = [m.header for m in msg.markers] if isinstance(msg, MarkerArray) else \
                [msg.header] if hasattr(msg, "header") else []
            needed |= {h.frame_id for h in headers}
        probe.wait_for(lambda: needed <= set(compose_frames(list(transforms.values()), "world")),
                       f"every frame of {sorted(needed)} reachable from world on /tf", 30.0)

        layout_topics = foxglove_layout_topics()
        assert {"/panda/joint_states", "/camera/image_raw", "/tree_status", "/tf",
                "/panda/robot_description"} <= layout_topics
        for topic in sorted(layout_topics):
            probe.wait_for_publisher(topic, timeout=30.0)


def test_bringup_runs_the_sim_and_stops_cleanly_on_ctrl_c(ros_env, launcher):
    proc = launcher.start(bringup_argv(*ONLY_SIM, "--set", "sim.camera_rate=2.0"), name="bringup")
    with RosTestNode("bringup_probe", ros_env, launcher=launcher) as probe:
        for display, topic, reliability, durability in rviz_topics():
            if topic != "/detection_markers":           # the perception_server's, not started here
                assert_rviz_qos_can_receive(probe, display, topic, reliability, durability)
        kids = children_of(proc.pid)
        assert len(kids) == 1, f"bringup should run exactly the sim, runs {kids}"
        kid_segments = fastdds_segments_of(kids[0])
    assert proc.stop() == "SIGINT rc=0"
    log = proc.log_path.read_text()
    assert "bringup: starting sim (ROS_DOMAIN_ID=" in log
    assert any(line.startswith("[sim] ") for line in log.splitlines()), log[-2000:]
    assert "bringup: stopped (sim=0)" in log, log[-2000:]
    assert not any(Path(f"/proc/{k}").exists() for k in kids), "the sim outlived bringup"
    assert not (kid_segments & fastdds_segments()), "the sim left Fast DDS shared memory behind"


def test_a_node_that_dies_stops_the_others_and_bringup_exits_1(ros_env, launcher):
    argv = bringup_argv("--skip", "arm_server", "--skip", "gripper_server", "--skip", "perception_server",
                        "--set", "sim.scene=no_such_scene")
    proc = launcher.start(argv, name="bringup_fail", may_exit=True)
    wait_until(lambda: not proc.is_running(), "bringup to exit by itself", timeout=90.0)
    log = proc.log_path.read_text()
    assert proc.popen.returncode == 1, log[-2000:]
    assert "bringup: node 'sim' exited with code 2; stopping the others" in log
    assert "unknown scene 'no_such_scene'" in log
    assert "bringup: stopped (sim=2, state_publisher=0, tree_executor=" in log


def test_a_respawning_node_comes_back_after_it_exits(ros_env, launcher):
    """perception_server has `respawn: true, respawn_delay: 2.0` in the file (launch: respawn=...)."""
    only_perception = [a for name in ("sim", "state_publisher", "arm_server", "gripper_server", "tree_executor")
                       for a in ("--skip", name)] + ["--no-peer-watch"]
    proc = launcher.start(bringup_argv(*only_perception), name="bringup_respawn")
    wait_until(lambda: len(children_of(proc.pid)) == 1 and "perception_server" in proc.log_path.read_text(),
               "perception_server to start", 60.0)
    first = children_of(proc.pid)[0]
    # let it finish starting before it is stopped (its signal handling is installed by then;
    # a fixed sleep was too short on a loaded machine: SIGTERM killed it mid-import, rc -15)
    wait_until(lambda: "DetectObjects on" in proc.log_path.read_text(), "perception_server to be up", 60.0)
    os.kill(first, signal.SIGTERM)                   # it exits cleanly (code 0) ...
    wait_until(lambda: "bringup: respawned" in proc.log_path.read_text(), "the respawn", 30.0)
    log = proc.log_path.read_text()
    assert "[perception_server] bringup: exited with code 0; respawning in 2 s" in log, log[-2000:]
    second = children_of(proc.pid)
    assert len(second) == 1 and second[0] != first, second
    assert proc.is_running(), "a respawning node's exit does not stop bringup"
    assert proc.stop() == "SIGINT rc=0"
    assert not any(Path(f"/proc/{k}").exists() for k in second), "the respawned node outlived bringup"


def test_bringup_reports_its_peers_as_they_come_and_go(ros_env, launcher):
    """The nodes a bringup skips (and --peer ones) run elsewhere: peer_watch says when each
    appears in the ROS graph, leaves it and comes back (here a node that exits cleanly, which
    leaves the graph at once; a lost computer leaves it after the DDS lease)."""
    skips = [a for name in ("arm_server", "gripper_server", "perception_server", "tree_executor",
                            "state_publisher") for a in ("--skip", name)]
    proc = launcher.start(bringup_argv(*skips, "--peer", "/peer_target", "--set", "sim.camera_rate=2.0"),
                          name="bringup_peers")
    log = lambda: proc.log_path.read_text()  # noqa: E731
    wait_until(lambda: "watching for peers" in log(), "peer_watch to start", 60.0)
    assert "/arm_server, /gripper_server" in log() and "/peer_target" in log(), log()[-2000:]
    target = launcher.start_script(JOINT_MOVE_SERVER, name="peer_target")
    wait_until(lambda: "peer /peer_target is in the ROS graph" in log(), "the peer to be seen", 30.0)
    assert target.stop() == "SIGINT rc=0"
    gone = time.monotonic()
    wait_until(lambda: "peer /peer_target LOST" in log(), "the peer to be reported lost", 15.0)
    print(f"lost reported {time.monotonic() - gone:.1f} s after the peer stopped")
    launcher.start_script(JOINT_MOVE_SERVER, name="peer_target")
    wait_until(lambda: "peer /peer_target is back in the ROS graph" in log(), "the peer's return", 30.0)
    wait_until(lambda: "peer /arm_server not in the ROS graph 10 s after the start" in log(),
               "the never-seen peers to be reported", 30.0)
    assert proc.stop() == "SIGINT rc=0"
    assert "bringup: stopped (sim=0, peer_watch_" in log(), log()[-2000:]
