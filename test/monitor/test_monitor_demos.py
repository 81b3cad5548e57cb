"""The browser monitor watching real demo episodes in headless Chromium: `robot-tasks demo
franka_stacking` and `franka_pyramid` (sim, servers, perception and the ROS tree_executor
over loopback DDS). Issue 32's cases (a) a running stacking tree and (c) the pyramid's two
robots (one tree_executor ticks both PyramidRobot subtrees in one tree, so one publisher).

The demo's tree_executor serves its tree on the Groot2 port its bringup YAML names
(`tree_executor.groot2_port`); the test runs the demo with a copy of the package's YAML
whose port is a free pair, so it never meets another run on 1667. While the tree runs:
1. the page lists every node of the executor's FULLTREE, with its name and ID, and marks
   each port with its direction from FULLTREE's TreeNodesModel (← in, → out, ↔ inout);
2. the page's statuses follow the tree: three different STATUS replies of the publisher,
   each read by the test's own Groot2 client, are each shown by the page moments later
   (the tree moves on at 50 Hz, so "the same moment" is: before the publisher changes);
3. a breakpoint clicked on a node the tree ticks once per decision pauses the real tree
   there: the publisher's STATUS stops changing, the page shows exactly it, and that
   robot's arm (its joint_states, read by joint_probe.py) stands still;
4. while it stands still, the blackboard panel shows values the tree wrote, equal to the
   publisher's BLACKBOARD (asked before the episode could end: a stacking episode is
   ~30 s, and the executor closes its publisher when the tree ends); a click on ▶
   resumes it, the arm moves again, and the episode still ends in SUCCESS (graded by the
   demo on the sim's ground truth). In the pyramid a breakpoint in panda_2's subtree
   blocks the executor's one tick, so panda_1 waits too (an in-flight motion of its
   arm ends on its server; only panda_2's arm is checked for standing still).
Screenshots: /tmp/monitor_shots/<demo>_running.png, <demo>_paused.png.
"""
import json
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
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

pytestmark = [pytest.mark.ros, pytest.mark.sim, pytest.mark.slow, pytest.mark.timeout(1200)]


@dataclass(frozen=True)
class DemoCase:
    demo: str
    seed: int
    tree: str                      # the main tree's ID
    pause_at: str                  # registration ID of the node to break on ...
    pause_under: str | None        # ... inside this SubTree node (by name), or anywhere
    arms: tuple[str, ...]          # joint_states topics to watch
    still: str                     # the topic whose arm must stand still while paused
    written: dict                  # blackboard key -> what a value the tree wrote looks like
    timeout_s: float               # the demo's own --timeout


def is_count(value) -> bool:
    return type(value) is int and value >= 0


CASES = {
    "franka_stacking": DemoCase("franka_stacking", 2, "FrankaStacking", "SelectNextCube", None,
                                ("panda/joint_states",), "panda/joint_states",
                                {"spawns": bool, "grasps": is_count}, 300),
    "franka_pyramid": DemoCase("franka_pyramid", 1, "FrankaPyramid", "ReconcileOwnStack", "panda_2",
                               ("panda_1/joint_states", "panda_2/joint_states"), "panda_2/joint_states",
                               {"cubes": bool}, 600),
}


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


def page_port_dirs(browser) -> dict[int, dict]:
    """{uid: {port: direction}} as the page marks each node's ports."""
    raw = browser.evaluate(f"""JSON.stringify([...document.querySelectorAll({section(0) + ' li.node'!r})]
        .map(li => [Number(li.dataset.uid), Object.fromEntries([...li.querySelectorAll(':scope > .row .port')]
                    .filter(p => p.dataset.dir).map(p => [p.dataset.port, p.dataset.dir]))]))""")
    return {uid: dirs for uid, dirs in json.loads(raw)}


def find(item: dict, registration_id: str, under: str | None, inside: bool = False) -> int | None:
    """The uid of the first node `registration_id` (inside the SubTree node named `under`)."""
    inside = inside or under is None or (item["subtree"] is not None and item["name"] == under)
    if inside and item["id"] == registration_id:
        return item["uid"]
    for child in item["children"]:
        found = find(child, registration_id, under, inside)
        if found is not None:
            return found
    return None


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


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_running_demo_tree(name, tmp_path):
    reason = Browser.available()
    if reason:
        pytest.skip(reason)
    case = CASES[name]
    source = REPO / "config" / f"{case.demo}.yaml"
    port = free_port_pair()
    document = yaml.safe_load(source.read_text())
    document["tree_executor"]["ros__parameters"]["groot2_port"] = port
    config = tmp_path / source.name
    config.write_text(yaml.safe_dump(document, sort_keys=False))
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1"}
    demo = subprocess.Popen([sys.executable, "-m", "robot_tasks.cli", "demo", case.demo, "--seed", str(case.seed),
                             "--out", str(tmp_path / "runs"), "--timeout", str(case.timeout_s), "--config", str(config)],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said = Lines(demo.stdout)
    probes = []
    client = Groot2Client("127.0.0.1", port, timeout_ms=5000)   # behind a big BLACKBOARD dump, on a loaded machine
    try:
        said.wait_for(f"robot-tasks monitor 127.0.0.1:{port}", 60)    # the demo says where to watch
        domain = domain_of(demo.pid, 60)
        arms = {}
        for topic in case.arms:
            probes.append(subprocess.Popen([sys.executable, str(HERE / "joint_probe.py"), str(domain),
                                            str(tmp_path / "probe_log"), topic, str(case.timeout_s + 300)],
                                           cwd=REPO, env=env, stdout=subprocess.PIPE, text=True))
            arms[topic] = Lines(probes[-1].stdout)
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
            assert model["id"] == case.tree
            browser.wait_for(f"document.querySelectorAll({section(0) + ' li.node'!r}).length"
                             f" === {model['node_count']}", timeout_s=30)
            nodes = flat(model)
            shown = page_nodes(browser, 0)
            assert {uid: (n["name"], n["id"]) for uid, n in shown.items()} == \
                {uid: (item["name"], item["id"]) for uid, item in nodes.items()}
            # every port marked with the direction the node's model gives it (in / out / inout)
            assert page_port_dirs(browser) == {uid: item["port_dirs"] for uid, item in nodes.items()}
            assert any(d == "out" for item in nodes.values() for d in item["port_dirs"].values())

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
            assert any(s == 1 for s in matched[-1].values()), "no node RUNNING in the last matched STATUS"

            shot(browser, f"{case.demo}_running")

            # 3. a breakpoint clicked on the page pauses the tree at that node's next tick
            pause_uid = find(model["root"], case.pause_at, case.pause_under)
            assert pause_uid is not None, f"no {case.pause_at} under {case.pause_under} in the FULLTREE"
            row = f"{node_selector(0, pause_uid)} > .row"
            browser.click(f"{row} button.bp")
            browser.wait_for(f"document.querySelector({node_selector(0, pause_uid)!r})"
                             ".classList.contains('hook-breakpoint')")
            browser.wait_for(f"document.querySelector({section(0) + ' .paused-at'!r}).dataset.uid === '{pause_uid}'",
                             timeout_s=240)
            paused_at = time.monotonic()
            frozen = dict(client.status()[1])
            assert wait_statuses(browser, 0, frozen) == frozen

            # 4. the blackboard panel, while the tree stands still: values the tree wrote, as
            # the publisher has them (the main tree's board: one small dump, not all of them)
            board, written = model["boards"][0], {}
            for key, looks_written in case.written.items():
                value = jsonable(client.blackboards([board], timeout_ms=10_000)).get(board, {}).get(key)
                assert looks_written(value), f"{board}.{key} = {value!r}: not written by the tree yet"
                deadline = time.monotonic() + 10
                while board_value(browser, 0, board, key) != value:
                    assert time.monotonic() < deadline, f"the page shows {key} = {board_value(browser, 0, board, key)!r}"
                    time.sleep(0.2)
                written[key] = (board, value)
            time.sleep(max(0.0, paused_at + 3.0 - time.monotonic()))
            assert dict(client.status()[1]) == frozen, "the tree went on at a breakpoint set from the page"
            arm = arms[case.still]
            still = arm_samples(arm, paused_at + 0.5, time.monotonic())
            assert len(still) >= 10, f"{len(still)} joint_states samples while paused"
            assert spread(still) < 2e-3, f"the arm moved {spread(still):.4f} rad while the tree was paused"
            assert max(spread(arm_samples(a, 0.0, paused_at)) for a in arms.values()) > 0.05, \
                "no arm moved before the pause"
            shot(browser, f"{case.demo}_paused")
            browser.click(f"{row} button.resume")
            resumed = time.monotonic()
            deadline = resumed + 20
            while dict(client.status()[1]) == frozen:
                assert time.monotonic() < deadline, "the tree did not go on after resume"
                time.sleep(0.1)
            browser.click(f"{row} button.clear")     # the next decision must not pause again
            browser.wait_for(f"!document.querySelector({node_selector(0, pause_uid)!r})"
                             ".classList.contains('hook-breakpoint')")
            assert client.hooks() == []
            deadline = resumed + 120
            while spread(arm_samples(arm, resumed) + still[-1:]) < 0.05:
                assert time.monotonic() < deadline, "the arm did not move again after resume"
                time.sleep(0.2)
            pause_s = resumed - paused_at
        demo.wait(case.timeout_s + 120)
        assert demo.returncode == 0 and "demo: SUCCESS" in said.text(), said.text()[-3000:]
        print(f"{case.demo}: {model['node_count']} nodes; 3 STATUS replies matched; "
              + "; ".join(f"{board}.{key} = {str(value)[:60]}" for key, (board, value) in written.items())
              + f"; paused {pause_s:.1f} s at {case.pause_at} (uid {pause_uid}), arm still: {spread(still):.5f} rad")
    finally:
        client.close()
        stop_child(demo)
        for probe in probes:
            stop_child(probe, signal.SIGTERM, 10)
