"""The browser monitor on the pyramid's two robots: two PyramidRobot trees (trees/franka_pyramid.xml)
sharing one blackboard, each with its own Groot2Publisher, ticked against the kinematic fake
cell of test/tasks/pyramid (no ROS, no physics). Checked, in headless Chromium:
- both trees drawn whole, side by side, with FULLTREE's names and IDs;
- after scripted rounds of ticks each section shows its own publisher's STATUS;
- the blackboard panel shows the shared board (exported as ROOT: the trees' root blackboards
  have it as parent) with a cube reservation the trees wrote, as the publisher reports it;
- a breakpoint clicked on panda_2's root pauses panda_2 while panda_1 keeps ticking; a click
  resumes it; an injected FAILURE on that root turns panda_2's tick result to FAILURE.
"""
import sys
import threading
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tasks" / "pyramid"))

from cdp import Browser  # noqa: E402
from monitor_session import Monitor, board_value, node_selector, page_nodes, section, shot, wait_statuses  # noqa: E402
from test_pyramid_two_trees import two_robot_cell  # noqa: E402

from robot_tasks.bt import NodeStatus  # noqa: E402
from robot_tasks.bt.groot2 import Groot2Publisher, free_port_pair  # noqa: E402
from robot_tasks.monitor.client import Groot2Client  # noqa: E402
from robot_tasks.monitor.tree_model import parse_fulltree  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]
ROBOTS = ("panda_1", "panda_2")


def flat(tree):
    out, stack = {}, [tree["root"]]
    while stack:
        item = stack.pop()
        out[item["uid"]] = item
        stack.extend(item["children"])
    return out


def test_the_pyramids_two_trees(tmp_path):
    reason = Browser.available()
    if reason:
        pytest.skip(reason)
    cell, shared, trees = two_robot_cell(0)
    ports = [free_port_pair() for _ in ROBOTS]
    publishers = [Groot2Publisher(trees[robot], port) for robot, port in zip(ROBOTS, ports)]
    clients = [Groot2Client("127.0.0.1", port) for port in ports]
    try:
        with Monitor(*[f"127.0.0.1:{port}" for port in ports]) as monitor, Browser() as browser:
            browser.navigate(monitor.url)
            models = [parse_fulltree(client.fulltree()[1]) for client in clients]
            for pub, model in enumerate(models):
                browser.wait_for(f"document.querySelectorAll({section(pub) + ' li.node'!r}).length"
                                 f" === {model['node_count']}", timeout_s=20)
                shown = page_nodes(browser, pub)
                assert {uid: (n["name"], n["id"]) for uid, n in shown.items()} == \
                    {uid: (item["name"], item["id"]) for uid, item in flat(model).items()}

            def check_both():
                for pub, client in enumerate(clients):
                    expected = dict(client.status()[1])
                    assert wait_statuses(browser, pub, expected) == expected, ROBOTS[pub]

            results = {}
            for round_ in range(1, 61):                 # scripted rounds: each robot ticks once
                for robot in ROBOTS:
                    results[robot] = trees[robot].tick_exactly_once()
                cell.after_tick()
                if round_ in (1, 20, 60):
                    check_both()
            assert set(results.values()) == {NodeStatus.RUNNING}, results

            reserved = {k: v for k, v in shared.items() if k.startswith("cube_state:") and v.startswith("reserved:")}
            assert reserved, "no cube reserved after 60 rounds"
            key, value = next(iter(reserved.items()))
            deadline = time.monotonic() + 10
            while board_value(browser, 0, "ROOT", key) != value and time.monotonic() < deadline:
                time.sleep(0.1)
            assert board_value(browser, 0, "ROOT", key) == value
            assert clients[0].blackboards(models[0]["boards"])["ROOT"][key] == value

            # a breakpoint on panda_2's root: panda_2's tick blocks, panda_1 goes on
            root = models[1]["root"]["uid"]
            browser.click(f"{node_selector(1, root)} > .row button.bp")
            browser.wait_for(f"document.querySelector({node_selector(1, root)!r}).classList.contains('hook-breakpoint')")
            done = {}
            ticking = threading.Thread(target=lambda: done.setdefault("status", trees["panda_2"].tick_exactly_once()),
                                       daemon=True)
            ticking.start()
            browser.wait_for(f"document.querySelector({section(1) + ' .paused-at'!r}).dataset.uid === '{root}'")
            for _ in range(5):
                assert trees["panda_1"].tick_exactly_once() is NodeStatus.RUNNING
            ticking.join(0.5)
            assert ticking.is_alive(), "panda_2 ticked through a breakpoint set from the page"
            shot(browser, "pyramid_paused")
            browser.click(f"{node_selector(1, root)} > .row button.resume")
            ticking.join(10)
            assert not ticking.is_alive() and done["status"] is NodeStatus.RUNNING

            # fault injection on the same root: panda_2's result turns to FAILURE
            browser.click(f"{node_selector(1, root)} > .row button.fail")
            browser.wait_for(f"document.querySelector({node_selector(1, root)!r}).classList.contains('hook-inject')")
            browser.wait_for(f"document.querySelector({node_selector(1, root)!r}).classList.contains('hook-inject')")
            assert trees["panda_2"].tick_exactly_once() is NodeStatus.FAILURE
            check_both()
            shot(browser, "pyramid_injected", full_page=False)
            browser.click(f"{node_selector(1, root)} > .row button.clear")
            browser.wait_for(f"!document.querySelector({node_selector(1, root)!r}).classList.contains('hook-inject')")
            print(f"pyramid: {models[0]['node_count']} + {models[1]['node_count']} nodes; {key} = {value}")
    finally:
        for client in clients:
            client.close()
        for publisher in publishers:
            publisher.close()
