"""The browser monitor watching a real stacking episode: `robot-tasks demo franka_stacking`
(sim, servers, perception and the ROS tree_executor over loopback DDS), in headless Chromium.

The demo's tree_executor serves its tree on the Groot2 port its bringup YAML names
(`tree_executor.groot2_port`); the test runs the demo with a copy of the package's YAML
whose port is a free pair, so it never meets another run on 1667. While the tree runs:
1. the page lists every node of the executor's FULLTREE, with its name and ID;
2. the page's statuses follow the tree: three different STATUS replies of the publisher,
   each read by the test's own Groot2 client, are each shown by the page moments later
   (the tree moves on at 50 Hz, so "the same moment" is: before the publisher changes);
3. the blackboard panel shows values the tree wrote (`cube`, the decision; `layout`);
4. a breakpoint clicked on SelectNextCube pauses the real tree at its next decision: the
   publisher's STATUS stops changing, the page shows exactly it, and the arm (its
   joint_states, read by joint_probe.py) stands still; a click on ▶ resumes it, the arm
   moves again, and the episode still ends in SUCCESS (graded by the demo on the sim's
   ground truth).
Screenshots: /tmp/monitor_shots/stacking_running.png, stacking_paused.png.
"""
import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cdp import Browser  # noqa: E402
from monitor_session import REPO, Monitor, board_value, node_selector, page_nodes, section, shot, wait_statuses  # noqa: E402

from robot_tasks.bt.groot2 import free_port_pair  # noqa: E402
from robot_tasks.monitor.client import Groot2Client, PublisherUnreachable  # noqa: E402
from robot_tasks.monitor.tree_model import parse_fulltree  # noqa: E402
from robot_tasks.monitor.values import jsonable  # noqa: E402

pytestmark = [pytest.mark.ros, pytest.mark.sim, pytest.mark.slow, pytest.mark.timeout(900)]
CONFIG = REPO / "config" / "franka_stacking.yaml"
ARM = [f"panda_joint{i}" for i in range(1, 8)]
SEED = 2


class Lines:
    """Every line of a child's output, read in a thread (a full pipe would block the child)."""

    def __init__(self, stream):
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.append(line.rstrip("\n"))

    def text(self) -> str:
        return "\n".join(self.lines)

    def wait_for(self, text: str, timeout_s: float) -> str:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if text in line:
                    return line
            time.sleep(0.1)
        raise AssertionError(f"never printed {text!r}:\n{self.text()[-3000:]}")


def domain_of(pid: int, timeout_s: float) -> int:
    """The ROS_DOMAIN_ID the demo `pid` gave its nodes (read from a child's environment:
    the demo picks a free one per run and says it only at the end, in report.json)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            children = []
        for child in children:
            try:
                environ = Path(f"/proc/{child}/environ").read_bytes().split(b"\0")
            except OSError:
                continue
            for entry in environ:
                if entry.startswith(b"ROS_DOMAIN_ID="):
                    return int(entry.split(b"=", 1)[1])
        time.sleep(0.2)
    raise AssertionError(f"the demo (pid {pid}) started no node with a ROS_DOMAIN_ID in {timeout_s} s")


def flat(tree: dict) -> dict[int, dict]:
    out, stack = {}, [tree["root"]]
    while stack:
        item = stack.pop()
        out[item["uid"]] = item
        stack.extend(item["children"])
    return out


def arm_samples(probe: Lines, start: float, end: float = float("inf")) -> list[list[float]]:
    rows = [json.loads(line) for line in list(probe.lines) if line.startswith("[")]
    return [positions for t, positions in rows if start <= t <= end]


def spread(samples: list[list[float]]) -> float:
    """The largest change of any joint across the samples (rad)."""
    return max(max(column) - min(column) for column in zip(*samples)) if samples else 0.0


def stop_child(process: subprocess.Popen, first=signal.SIGINT, wait_s: float = 60.0) -> None:
    """Stop our own child by its pid: SIGINT first (the demo stops its nodes on it), then kill."""
    if process.poll() is not None:
        return
    process.send_signal(first)
    try:
        process.wait(wait_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


def test_a_running_stacking_tree(tmp_path):
    reason = Browser.available()
    if reason:
        pytest.skip(reason)
    port = free_port_pair()
    document = yaml.safe_load(CONFIG.read_text())
    document["tree_executor"]["ros__parameters"]["groot2_port"] = port
    config = tmp_path / CONFIG.name
    config.write_text(yaml.safe_dump(document, sort_keys=False))
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1"}
    demo = subprocess.Popen([sys.executable, "-m", "robot_tasks.cli", "demo", "franka_stacking", "--seed", str(SEED),
                             "--out", str(tmp_path / "runs"), "--timeout", "300", "--config", str(config)],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said = Lines(demo.stdout)
    probe = None
    client = Groot2Client("127.0.0.1", port, timeout_ms=2000)
    try:
        said.wait_for(f"robot-tasks monitor 127.0.0.1:{port}", 60)    # the demo says where to watch
        domain = domain_of(demo.pid, 60)
        probe = subprocess.Popen([sys.executable, str(HERE / "joint_probe.py"), str(domain), str(tmp_path / "probe_log"),
                                  "panda/joint_states", "600", *ARM],
                                 cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
        arm = Lines(probe.stdout)
        with Monitor(f"127.0.0.1:{port}") as monitor, Browser() as browser:
            browser.navigate(monitor.url)
            # 1. the executor's tree, whole: its publisher opens when the goal arrives
            deadline = time.monotonic() + 180
            while True:
                try:
                    _, xml = client.fulltree()
                    break
                except PublisherUnreachable:
                    assert demo.poll() is None and time.monotonic() < deadline, said.text()[-3000:]
            model = parse_fulltree(xml)
            assert model["id"] == "FrankaStacking"
            browser.wait_for(f"document.querySelectorAll({section(0) + ' li.node'!r}).length"
                             f" === {model['node_count']}", timeout_s=30)
            nodes = flat(model)
            shown = page_nodes(browser, 0)
            assert {uid: (n["name"], n["id"]) for uid, n in shown.items()} == \
                {uid: (item["name"], item["id"]) for uid, item in nodes.items()}

            # 2. statuses as the publisher reports them, three different moments of the run
            matched: list[dict] = []
            deadline = time.monotonic() + 120
            while len(matched) < 3 and time.monotonic() < deadline and demo.poll() is None:
                expected = dict(client.status()[1])
                if expected in matched:
                    time.sleep(0.3)
                    continue
                if wait_statuses(browser, 0, expected, timeout_s=1.5) == expected:
                    matched.append(expected)
            assert len(matched) == 3, f"the page matched only {len(matched)} STATUS replies"
            running = [uid for uid, s in matched[-1].items() if s == 1]
            assert running, "no node RUNNING in the last matched STATUS"

            # 3. the blackboard panel: values the tree wrote
            board = model["boards"][0]
            deadline = time.monotonic() + 120
            while True:
                values = jsonable(client.blackboards([board])).get(board, {})
                cube = values.get("cube")
                if isinstance(cube, str) and cube.endswith("_cube") and board_value(browser, 0, board, "cube") == cube:
                    break
                assert time.monotonic() < deadline, f"the page never showed cube; the publisher has {values.get('cube')}"
                time.sleep(0.2)
            assert board_value(browser, 0, board, "layout") == values["layout"]
            shot(browser, "stacking_running")

            # 4. a breakpoint on SelectNextCube pauses the tree at its next decision
            select = next(uid for uid, item in nodes.items() if item["id"] == "SelectNextCube")
            row = f"{node_selector(0, select)} > .row"
            browser.click(f"{row} button.bp")
            browser.wait_for(f"document.querySelector({node_selector(0, select)!r}).classList.contains('hook-breakpoint')")
            browser.wait_for(f"document.querySelector({section(0) + ' .paused-at'!r}).dataset.uid === '{select}'",
                             timeout_s=180)
            paused_at = time.monotonic()
            frozen = dict(client.status()[1])
            assert wait_statuses(browser, 0, frozen) == frozen
            time.sleep(3.0)
            assert dict(client.status()[1]) == frozen, "the tree went on at a breakpoint set from the page"
            assert dict(client.status()[1])[select] == frozen[select]
            still = arm_samples(arm, paused_at + 0.5, time.monotonic())
            assert len(still) >= 10, f"{len(still)} joint_states samples while paused"
            assert spread(still) < 2e-3, f"the arm moved {spread(still):.4f} rad while the tree was paused"
            assert spread(arm_samples(arm, 0.0, paused_at)) > 0.05, "the arm never moved before the pause"
            shot(browser, "stacking_paused")
            browser.click(f"{row} button.resume")
            resumed = time.monotonic()
            deadline = resumed + 20
            while dict(client.status()[1]) == frozen:
                assert time.monotonic() < deadline, "the tree did not go on after resume"
                time.sleep(0.1)
            browser.click(f"{row} button.clear")     # the next decision must not pause again
            browser.wait_for(f"!document.querySelector({node_selector(0, select)!r}).classList.contains('hook-breakpoint')")
            assert client.hooks() == []
            deadline = resumed + 90
            while spread(arm_samples(arm, resumed) + still[-1:]) < 0.05:
                assert time.monotonic() < deadline, "the arm did not move again after resume"
                time.sleep(0.2)
            pause_s = resumed - paused_at
        demo.wait(420)
        assert demo.returncode == 0 and "demo: SUCCESS" in said.text(), said.text()[-3000:]
        print(f"stacking: {model['node_count']} nodes; 3 STATUS replies matched; cube = {cube}; "
              f"paused {pause_s:.1f} s at SelectNextCube (uid {select}), arm still: {spread(still):.5f} rad")
    finally:
        client.close()
        stop_child(demo)
        if probe is not None:
            stop_child(probe, signal.SIGTERM, 10)
