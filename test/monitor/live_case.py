"""The live scenario, run the same way against our publisher and against BT.CPP's.

The tree is the Groot2 harness's (test/bt/groot2_harness/scenarios.py): a Sequence with
a Script writing `count`, `label`, `ratio`; a SubTree `work` whose Script writes
`note`; a stateful leaf `slow` (RUNNING, then SUCCESS) and `check` (FAILURE) under an
Inverter. So the main tree succeeds every second tick.

`check_live_tree` drives the page like a user and compares it with what the publisher
itself reports (read with the product's Groot2 client, independently of the monitor):
1. the page lists every FULLTREE node, with its name and ID;
2. after each scripted tick the page shows the STATUS buffer the publisher reports;
3. the blackboard panel shows `label` = "go" (main tree) and `note` = "inner" (subtree);
4. ⏸ on `check` then a tick: the tick blocks and the page says it is paused; ▶ lets it
   finish (SUCCESS: check ticked as usual);
5. ✓ (return SUCCESS) on `check`: the next cycle's result turns from SUCCESS to FAILURE.
`side` is a groot2_harness side (OurSide in this process, OracleSide in a forked child).
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "bt"))        # groot2_harness
sys.path.insert(0, str(HERE.parent / "support"))   # cdp, groot2_client

from groot2_harness.scenarios import CHECK_UID, LEAVES, TREE  # noqa: E402,F401
from monitor_session import board_value, node_selector, page_nodes, section, shot, wait_statuses  # noqa: E402

from robot_tasks.monitor.client import Groot2Client  # noqa: E402
from robot_tasks.monitor.tree_model import all_uids, parse_fulltree  # noqa: E402

PUB = 0


def tick_is_blocked(side, wait_s: float = 0.8) -> bool:
    """Whether a tick started with side.start_tick() is still inside the tree after wait_s."""
    if hasattr(side, "_thread"):
        side._thread.join(wait_s)
        return side._thread.is_alive()
    return not side._connection.poll(wait_s)


def expect_page_matches_publisher(browser, client) -> dict[int, int]:
    _, reported = client.status()
    expected = dict(reported)
    shown = wait_statuses(browser, PUB, expected)
    assert shown == expected, f"page {shown} != publisher {expected}"
    return expected


def check_live_tree(side, browser, url: str, port: int, shot_name: str) -> list[str]:
    """Run the scenario; AssertionError on the first difference. Returns notes of what happened."""
    notes = []
    client = Groot2Client("127.0.0.1", port)
    try:
        _, xml = client.fulltree()
        tree = parse_fulltree(xml)
        browser.navigate(url)
        browser.wait_for(f"document.querySelectorAll({section(PUB)!r} + ' li.node').length === {tree['node_count']}")
        nodes = page_nodes(browser, PUB)
        assert sorted(nodes) == sorted(all_uids(tree))
        flat, stack = {}, [tree["root"]]
        while stack:
            item = stack.pop()
            flat[item["uid"]] = item
            stack.extend(item["children"])
        for uid, item in flat.items():
            assert (nodes[uid]["name"], nodes[uid]["id"]) == (item["name"], item["id"]), uid
        notes.append(f"{len(nodes)} nodes shown: " + ", ".join(f"{n['name']}({n['id']})" for n in nodes.values()))

        results = []
        for _ in range(2):                       # RUNNING (slow runs), then SUCCESS
            results.append(side.tick("once"))
            expect_page_matches_publisher(browser, client)
        assert results == ["RUNNING", "SUCCESS"], results
        notes.append(f"ticks {results}: page statuses equal STATUS after each")

        browser.wait_for(f"{_board_js('Main', 'label')} === '\"go\"'")
        assert board_value(browser, PUB, "Main", "label") == "go"
        assert board_value(browser, PUB, "work", "note") == "inner"
        notes.append("blackboard panel: Main.label = 'go', work.note = 'inner'")

        # breakpoint from the page: the tick blocks until ▶
        browser.click(f"{node_selector(PUB, CHECK_UID)} > .row button.bp")
        browser.wait_for(f"document.querySelector({node_selector(PUB, CHECK_UID)!r}).classList.contains('hook-breakpoint')")
        assert side.tick("once") == "RUNNING"    # slow runs: check not reached yet
        side.start_tick("once")
        browser.wait_for(f"document.querySelector({section(PUB) + ' .paused-at'!r}).dataset.uid === '{CHECK_UID}'")
        assert tick_is_blocked(side), "the tick went on past a breakpoint set from the page"
        shot(browser, f"{shot_name}_paused")
        browser.click(f"{node_selector(PUB, CHECK_UID)} > .row button.resume")
        assert side.finish_tick() == "SUCCESS"   # check ticked as usual: FAILURE, inverted
        expect_page_matches_publisher(browser, client)
        assert browser.evaluate(f"document.querySelector({section(PUB) + ' .paused-at'!r}).textContent") == ""
        notes.append("breakpoint clicked on check: tick blocked, page showed it paused; resume clicked: SUCCESS")

        # fault injection from the page: check returns SUCCESS instead of FAILURE
        browser.click(f"{node_selector(PUB, CHECK_UID)} > .row button.ok")
        browser.wait_for(f"document.querySelector({node_selector(PUB, CHECK_UID)!r}).classList.contains('hook-inject')")
        assert side.tick("once") == "RUNNING"
        assert side.tick("once") == "FAILURE", "the injected SUCCESS did not change the tree's result"
        statuses = expect_page_matches_publisher(browser, client)
        assert statuses[CHECK_UID] == 12, statuses   # IDLE after SUCCESS: the injected result
        # an injection does not wait: the page must not call it a pause
        assert browser.evaluate(f"document.querySelector({section(PUB) + ' .paused-at'!r}).textContent") == ""
        assert not browser.evaluate(f"document.querySelector({node_selector(PUB, CHECK_UID)!r})"
                                    ".classList.contains('paused')")
        notes.append("inject SUCCESS clicked on check: the cycle's result turned SUCCESS -> FAILURE")
        shot(browser, f"{shot_name}_injected")
        browser.click(f"{node_selector(PUB, CHECK_UID)} > .row button.clear")
        browser.wait_for(f"!document.querySelector({node_selector(PUB, CHECK_UID)!r}).classList.contains('hook-inject')")
    finally:
        client.close()
    return notes


def _board_js(board: str, key: str) -> str:
    selector = f'{section(PUB)} table[data-board="{board}"] tr[data-key="{key}"] td.value'
    return f"(document.querySelector({selector!r}) || {{}}).textContent"
