"""The browser monitor watching live trees, in a real headless Chromium (test/support/cdp.py).

- our Groot2Publisher, in this process (live_case.py says what is checked);
- a publisher that does not answer: the page and the terminal say so, nothing crashes.
BT.CPP's own publisher is in test_monitor_btcpp.py (it must run in a network namespace).
"""
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cdp import Browser  # noqa: E402
from live_case import LEAVES, TREE, check_live_tree  # noqa: E402
from monitor_session import Monitor, section, shot  # noqa: E402

from robot_tasks.bt.groot2 import free_port_pair  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]


@pytest.fixture
def browser():
    reason = Browser.available()
    if reason:
        pytest.skip(reason)
    with Browser() as b:
        yield b


def test_our_publisher_in_the_browser(browser):
    from groot2_harness.sides import OurSide
    port = free_port_pair()
    side = OurSide(TREE, LEAVES, port)
    try:
        with Monitor(f"127.0.0.1:{port}") as monitor:
            notes = check_live_tree(side, browser, monitor.url, port, "ours")
            shot(browser, "ours")
            assert monitor.process.poll() is None
    finally:
        side.close()
    print("\n".join(notes))


def test_dead_publisher_is_said_not_crashed(browser):
    port = free_port_pair()    # nothing listens there
    with Monitor(f"127.0.0.1:{port}") as monitor:
        browser.navigate(monitor.url)
        text = browser.wait_for(f"(() => {{ const c = document.querySelector('{section(0)} .conn');"
                                " return c && c.classList.contains('error') && c.textContent; })()", timeout_s=10)
        assert f"127.0.0.1:{port}" in text and "no Groot2 publisher answers" in text
        line = monitor.wait_stderr("no Groot2 publisher answers")
        assert str(port) in line
        shot(browser, "dead_publisher")
        time.sleep(1.5)
        assert monitor.process.poll() is None, "the monitor exited"


def test_two_publishers_side_by_side(browser):
    """Two trees at once (two executors, or the pyramid's two robots): each section shows
    its own publisher's statuses, and a click in one section reaches only that publisher."""
    from groot2_harness.sides import OurSide
    from live_case import CHECK_UID, tick_is_blocked
    from monitor_session import node_selector, wait_statuses

    from robot_tasks.monitor.client import Groot2Client

    ports = [free_port_pair(), free_port_pair()]
    sides = [OurSide(TREE, LEAVES, port) for port in ports]
    clients = [Groot2Client("127.0.0.1", port) for port in ports]
    try:
        with Monitor(*[f"127.0.0.1:{port}" for port in ports]) as monitor:
            browser.navigate(monitor.url)
            for pub in (0, 1):
                browser.wait_for(f"document.querySelectorAll({section(pub) + ' li.node'!r}).length === 9")
            assert sides[0].tick("once") == "RUNNING"
            assert [sides[1].tick("once") for _ in range(2)] == ["RUNNING", "SUCCESS"]
            for pub in (0, 1):
                expected = dict(clients[pub].status()[1])
                assert wait_statuses(browser, pub, expected) == expected
            assert dict(clients[0].status()[1]) != dict(clients[1].status()[1])
            browser.click(f"{node_selector(1, CHECK_UID)} > .row button.bp")
            browser.wait_for(f"document.querySelector({node_selector(1, CHECK_UID)!r})"
                             ".classList.contains('hook-breakpoint')")
            assert clients[0].hooks() == [] and [h["uid"] for h in clients[1].hooks()] == [CHECK_UID]
            assert sides[0].tick("once") == "SUCCESS"          # publisher 0 is not paused
            assert sides[1].tick("once") == "RUNNING"
            sides[1].start_tick("once")
            assert tick_is_blocked(sides[1])
            shot(browser, "two_publishers")
            browser.click(f"{node_selector(1, CHECK_UID)} > .row button.resume")
            assert sides[1].finish_tick() == "SUCCESS"
            browser.wait_for(f"document.querySelector({section(1) + ' .paused-at'!r}).textContent === ''")
            browser.click(f"{node_selector(1, CHECK_UID)} > .row button.clear")
            browser.wait_for(f"!document.querySelector({node_selector(1, CHECK_UID)!r})"
                             ".classList.contains('hook-breakpoint')")
    finally:
        for client in clients:
            client.close()
        for side in sides:
            side.close()


def big_tree_xml(chunks: int, leaves: int) -> str:
    """A main Sequence of `chunks` SubTrees, each a Sequence of `leaves` Scripts."""
    body = "".join(f'<Script name="step{i}" code="n{i} := {i}"/>' for i in range(leaves))
    calls = "".join(f'<SubTree ID="Chunk" name="chunk{c}"/>' for c in range(chunks))
    return (f'<root BTCPP_format="4" main_tree_to_execute="Main"><BehaviorTree ID="Main"><Sequence name="all">'
            f'{calls}</Sequence></BehaviorTree><BehaviorTree ID="Chunk"><Sequence>{body}</Sequence>'
            f'</BehaviorTree></root>')


def test_a_500_node_tree(browser):
    """No node limit: a 521-node tree (Groot2's free edition stops at 20) is drawn whole and
    its statuses follow a tick; the time to draw and to update is printed."""
    from monitor_session import node_selector, wait_statuses

    from robot_tasks.bt import BehaviorTreeFactory
    from robot_tasks.bt.groot2 import Groot2Publisher
    from robot_tasks.monitor.client import Groot2Client

    tree = BehaviorTreeFactory().create_tree_from_text(big_tree_xml(10, 50))
    port = free_port_pair()
    with Groot2Publisher(tree, port), Monitor(f"127.0.0.1:{port}") as monitor:
        client = Groot2Client("127.0.0.1", port)
        try:
            count = len(dict(client.status()[1]))
            assert count == 1 + 10 * 52
            started = time.monotonic()
            browser.navigate(monitor.url)
            browser.wait_for(f"document.querySelectorAll({section(0) + ' li.node'!r}).length === {count}")
            drawn = time.monotonic() - started
            assert tree.tick_once().name == "SUCCESS"
            started = time.monotonic()
            expected = dict(client.status()[1])
            assert wait_statuses(browser, 0, expected) == expected
            updated = time.monotonic() - started
        finally:
            client.close()
        chunk0 = node_selector(0, 2)
        browser.click(f"{chunk0} > .row .toggle")   # collapse the first subtree
        browser.wait_for(f"document.querySelector({chunk0!r}).classList.contains('collapsed')")
        browser.evaluate("window.scrollTo(0, 0)")
        shot(browser, "big_tree", full_page=False)
    print(f"{count} nodes: drawn in {drawn:.2f} s, a tick's statuses shown in {updated:.2f} s")
    assert updated < 10.0


def test_a_breakpoint_nobody_watches_lets_go(browser):
    """While the page is open the monitor's polling is the publisher's heartbeat, so a
    breakpoint holds longer than the heartbeat delay; once the last page is closed the
    monitor goes quiet and the publisher disables its hooks (BT.CPP's rule): the tree
    goes on by itself."""
    from groot2_harness.sides import OurSide
    from live_case import CHECK_UID, tick_is_blocked
    from monitor_session import node_selector

    heartbeat_s = 1.0
    port = free_port_pair()
    side = OurSide(TREE, LEAVES, port, heartbeat_s=heartbeat_s)
    try:
        with Monitor(f"127.0.0.1:{port}") as monitor:
            browser.navigate(monitor.url)
            browser.click(f"{node_selector(0, CHECK_UID)} > .row button.bp")
            browser.wait_for(f"document.querySelector({node_selector(0, CHECK_UID)!r})"
                             ".classList.contains('hook-breakpoint')")
            assert side.tick("once") == "RUNNING"
            side.start_tick("once")
            assert tick_is_blocked(side, 3 * heartbeat_s), "the breakpoint did not hold while watched"
            browser.navigate("about:blank")             # the last page goes away
            started = time.monotonic()
            assert side.finish_tick() == "SUCCESS"
            released = time.monotonic() - started
            assert released < heartbeat_s + 5.0, released   # loose: a loaded machine is slow, not wrong
    finally:
        side.close()


def test_a_new_run_on_the_same_port(browser):
    """The tree_executor opens a publisher per run on the same port: when one run's publisher
    goes away the page says so, and the next run's tree (a new tree UUID) replaces it."""
    from groot2_harness.scenarios import TREE_DETAILS
    from groot2_harness.sides import OurSide

    port = free_port_pair()
    first = OurSide(TREE, LEAVES, port)
    with Monitor(f"127.0.0.1:{port}") as monitor:
        try:
            browser.navigate(monitor.url)
            browser.wait_for(f"document.querySelectorAll({section(0) + ' li.node'!r}).length === 9")
        finally:
            first.close()
        browser.wait_for(f"document.querySelector({section(0) + ' .conn'!r}).classList.contains('error')")
        second = OurSide(TREE_DETAILS, LEAVES, port)
        try:
            count = len(second.tree.nodes)
            browser.wait_for(f"document.querySelectorAll({section(0) + ' li.node'!r}).length === {count}"
                             f" && document.querySelector({section(0) + ' .conn'!r}).classList.contains('ok')")
            assert side_names(browser) >= {"second", "Auto"}
        finally:
            second.close()


def side_names(browser) -> set:
    return set(browser.evaluate(f"[...document.querySelectorAll({section(0) + ' li.node > .row > .name'!r})]"
                                ".map(e => e.textContent)"))


def test_live_timeline(browser, tmp_path):
    """The monitor records a live publisher's transitions (Groot2's "r"/"t" requests); the
    page's slider scrubs back through them. A FileLogger2 on the same tree, started before,
    sees the same transitions: at every slider position the page must show what that
    .btlog replays to; the "live" button returns to the publisher's own STATUS."""
    from groot2_harness.sides import OurSide
    from monitor_session import page_statuses, replayed, scrub, wait_statuses

    from robot_tasks.bt.loggers import FileLogger2, read_btlog
    from robot_tasks.monitor.client import Groot2Client

    port = free_port_pair()
    side = OurSide(TREE, LEAVES, port)
    logger = FileLogger2(side.tree, tmp_path / "same.btlog")
    client = Groot2Client("127.0.0.1", port)
    try:
        with Monitor(f"127.0.0.1:{port}") as monitor:
            browser.navigate(monitor.url)
            browser.wait_for(f"document.querySelector({section(0)!r})?.dataset.recorded === '0'")   # before hello: null
            assert [side.tick("once") for _ in range(3)] == ["RUNNING", "SUCCESS", "RUNNING"]
            logger.close()
            _, _, transitions = read_btlog(tmp_path / "same.btlog")
            browser.wait_for(f"document.querySelector({section(0)!r}).dataset.recorded === '{len(transitions)}'")
            base = {uid: 0 for uid in page_statuses(browser, 0)}
            for upto in sorted({0, 3, len(transitions) // 2, len(transitions) - 1}):
                scrub(browser, 0, upto)
                assert browser.evaluate(f"document.querySelector({section(0)!r}).dataset.scrubbing") == "yes"
                assert page_statuses(browser, 0) == replayed(base, transitions, upto), upto
                if upto == len(transitions) // 2:
                    shot(browser, "live_timeline_scrubbed")
            assert side.tick("once") == "SUCCESS"       # recorded while scrubbing; the view stays put
            assert page_statuses(browser, 0) == replayed(base, transitions, len(transitions) - 1)
            browser.click(f"{section(0)} .timeline button.to-live")
            expected = dict(client.status()[1])
            assert wait_statuses(browser, 0, expected) == expected
            assert browser.evaluate(f"document.querySelector({section(0)!r}).dataset.scrubbing") == "no"
    finally:
        client.close()
        logger.close()
        side.close()


def test_step(browser):
    """⇥ at a breakpoint lets that node tick and pauses at the next node that ticks, in tick
    order (into the subtree and out); ▶ then finishes the tick, and no one-shot hook is left."""
    from groot2_harness.sides import OurSide
    from live_case import tick_is_blocked
    from monitor_session import node_selector

    from robot_tasks.monitor.client import Groot2Client

    paused_at = f"document.querySelector({section(0) + ' .paused-at'!r}).dataset.uid"
    port = free_port_pair()
    side = OurSide(TREE, LEAVES, port)
    client = Groot2Client("127.0.0.1", port)
    try:
        with Monitor(f"127.0.0.1:{port}") as monitor:
            browser.navigate(monitor.url)
            browser.click(f"{node_selector(0, 2)} > .row button.bp")          # the first Script
            browser.wait_for(f"document.querySelector({node_selector(0, 2)!r}).classList.contains('hook-breakpoint')")
            side.start_tick("once")
            browser.wait_for(f"{paused_at} === '2'")
            visited = [2]
            for _ in range(4):                 # Script -> SubTree work -> Fallback -> ScriptCondition -> Script
                browser.click(f"{node_selector(0, visited[-1])} > .row button.step")
                browser.wait_for(f"{paused_at} && {paused_at} !== '{visited[-1]}'")
                visited.append(int(browser.evaluate(paused_at)))
                assert tick_is_blocked(side, 0.2)
            assert visited == [2, 3, 4, 5, 6]
            shot(browser, "step")
            browser.click(f"{node_selector(0, 6)} > .row button.resume")
            assert side.finish_tick() == "RUNNING"
            assert [hook["uid"] for hook in client.hooks()] == [2]   # the user's breakpoint only
    finally:
        client.close()
        side.close()
