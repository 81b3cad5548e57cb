"""The browser monitor replaying a `.btlog` (BT.CPP's FileLogger2 format) in headless Chromium.

The file is written by our FileLogger2 while the Groot2 harness's tree ticks twice.
The page must list every node of the file's tree and, at each slider position k, show
every node's status after the first k transitions (a node back to IDLE as "IDLE after
its last status", 10 + s, as a live publisher reports it).
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cdp import Browser  # noqa: E402
from live_case import LEAVES, TREE  # noqa: E402
from monitor_session import Monitor, page_nodes, page_statuses, replayed, scrub, section, shot  # noqa: E402

from robot_tasks.bt.loggers import FileLogger2, read_btlog  # noqa: E402
from robot_tasks.monitor.tree_model import all_uids, parse_fulltree  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]


def write_btlog(path: Path) -> None:
    from difftest.engines import OurEngine
    from difftest.leaves import LeafSpec, Recorder, register_leaves
    engine = OurEngine()
    factory = engine.new_factory()
    register_leaves(factory, [LeafSpec(*leaf) for leaf in LEAVES], Recorder(10_000), engine)
    tree = factory.create_tree_from_text(TREE)
    logger = FileLogger2(tree, path)
    assert [engine.tick(tree, "once") for _ in range(3)] == ["RUNNING", "SUCCESS", "RUNNING"]
    logger.close()


def test_btlog_timeline(tmp_path):
    reason = Browser.available()
    if reason:
        pytest.skip(reason)
    path = tmp_path / "run.btlog"
    write_btlog(path)
    xml, _, transitions = read_btlog(path)
    tree = parse_fulltree(xml)
    uids = all_uids(tree)
    assert len(transitions) > 10
    with Monitor("--btlog", str(path)) as monitor, Browser() as browser:
        assert any("replaying run.btlog" in line for line in monitor.lines + [monitor.read_line(5) or ""])
        browser.navigate(monitor.url)
        browser.wait_for(f"document.querySelectorAll({section(0) + ' li.node'!r}).length === {len(uids)}")
        assert sorted(page_nodes(browser, 0)) == sorted(uids)
        slider = f"{section(0)} input.scrub"
        assert browser.evaluate(f"Number(document.querySelector({slider!r}).max)") == len(transitions)
        for upto in sorted({0, 1, 5, len(transitions) // 2, len(transitions) - 1, len(transitions)}):
            scrub(browser, 0, upto)
            assert page_statuses(browser, 0) == replayed(dict.fromkeys(uids, 0), transitions, upto), upto
            if upto == len(transitions) // 2:
                shot(browser, "btlog_middle")
        shot(browser, "btlog_end")
