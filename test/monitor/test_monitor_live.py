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
