"""The four loggers on the status-change hook; the .btlog compared with BT.CPP's FileLogger2.

behaviortreepy 0.1.4's `FileLogger` is BT.CPP 4.8.2's FileLogger2. For the same tree
and ticks both files must agree in layout (magic, protocol byte, XML length prefix,
8-byte start time, 9-byte transitions) and in the (uid, status) sequence of
transitions. The embedded XML is the FULLTREE text, whose differences are the ones
listed in test_groot2_publisher.py (layout, TryCatch/SubTree models, port type names).
"""
import io
import json
import sqlite3
import time

import behaviortreepy
import defusedxml.ElementTree as SafeET
import pytest

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
from robot_tasks.bt.loggers import FileLogger2, MinitraceLogger, SqliteLogger, StdCoutLogger, read_btlog

pytestmark = pytest.mark.timeout(60)

XML = """<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence>
      <Script code="n := 1"/>
      <Fallback><AlwaysFailure/><SubTree ID="Sub"/></Fallback>
      <Inverter><AlwaysFailure/></Inverter>
      <ReactiveSequence><ScriptCondition code="n == 1"/><AlwaysSuccess/></ReactiveSequence>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Sub"><ForceSuccess><AlwaysFailure name="deep"/></ForceSuccess></BehaviorTree>
</root>"""


def ours():
    return BehaviorTreeFactory().create_tree_from_text(XML)


def observed_changes(tree, ticks=2):
    changes = []
    with tree.subscribe_status_changes(lambda node, prev, new: changes.append((node.uid, new.value))):
        for _ in range(ticks):
            tree.tick_once()
    return changes


def test_console_logger_lines():
    tree = ours()
    out = io.StringIO()
    with StdCoutLogger(tree, stream=out):
        tree.tick_once()
    lines = out.getvalue().splitlines()
    assert len(lines) == len(observed_changes(ours(), ticks=1))
    assert lines[0].endswith("Sequence                  IDLE -> RUNNING") and lines[0].startswith("[")
    assert "\033[" not in out.getvalue()  # no colour on a non-terminal
    out = io.StringIO()
    logger = StdCoutLogger(tree, stream=out, colour=True)
    logger.show_transition_to_idle = False
    tree.tick_once()
    logger.enabled = False
    tree.tick_once()
    logger.close()
    text = out.getvalue()
    assert "\033[32mSUCCESS\033[0m" in text and "-> \033[36mIDLE" not in text
    assert len(text.splitlines()) == sum(1 for _, status in observed_changes(ours(), 1) if status != 0)


def test_btlog_round_trip(tmp_path):
    path = tmp_path / "run.btlog"
    tree = ours()
    before = time.time_ns() // 1000
    with FileLogger2(tree, path):
        tree.tick_once()
        tree.tick_once()
    xml, start, records = read_btlog(path)
    assert before <= start <= time.time_ns() // 1000
    assert [(uid, status) for _, uid, status in records] == observed_changes(ours())
    assert all(a[0] <= b[0] for a, b in zip(records, records[1:]))
    root = SafeET.fromstring(xml)
    assert [tree.get("_fullpath") for tree in root.findall("BehaviorTree")] == ["", "Sub::5"]
    with pytest.raises(Exception, match="btlog"):
        FileLogger2(ours(), tmp_path / "run.log")


def test_btlog_layout_matches_btcpp(tmp_path):
    mine, theirs = tmp_path / "ours.btlog", tmp_path / "btcpp.btlog"
    tree = ours()
    with FileLogger2(tree, mine):
        tree.tick_once()
        tree.tick_once()
    factory = behaviortreepy.BehaviorTreeFactory()
    oracle_tree = factory.create_tree_from_text(XML)
    logger = behaviortreepy.FileLogger(oracle_tree, str(theirs))
    oracle_tree.tick_once()
    oracle_tree.tick_once()
    time.sleep(0.1)  # its writer thread drains every 10 ms; a logger deleted at once loses the queue
    logger.flush()
    del logger
    a, b = mine.read_bytes(), theirs.read_bytes()
    assert a[:19] == b[:19] == b"BTCPP4-FileLogger2\x01"
    xml_a, start_a, records_a = read_btlog(mine)
    xml_b, start_b, records_b = read_btlog(theirs)
    assert len(a) == 19 + 4 + len(xml_a.encode()) + 8 + 9 * len(records_a)
    assert len(b) == 19 + 4 + len(xml_b.encode()) + 8 + 9 * len(records_b)
    assert abs(start_a - start_b) < 60_000_000  # both microseconds since the epoch
    assert [r[1:] for r in records_a] == [r[1:] for r in records_b]
    uids = lambda xml: sorted(int(e.get("_uid")) for e in SafeET.fromstring(xml).iter() if e.get("_uid"))  # noqa: E731
    assert uids(xml_a) == uids(xml_b)


def test_sqlite_logger_sessions_and_durations(tmp_path):
    path = tmp_path / "runs.db3"
    factory = BehaviorTreeFactory()
    factory.register_simple_stateful_action("Slow", lambda n: NodeStatus.RUNNING,
                                            lambda n: (time.sleep(0.002), NodeStatus.SUCCESS)[1])
    slow = factory.create_tree_from_text('<root BTCPP_format="4"><BehaviorTree ID="M"><Slow name="arm"/>'
                                         '</BehaviorTree></root>')
    with SqliteLogger(slow, path) as logger:
        slow.tick_once()
        slow.tick_once()
    first = logger.session_id
    tree = ours()
    with SqliteLogger(tree, path) as logger:
        tree.tick_once()
        tree.tick_once()
    with sqlite3.connect(path) as db:
        sessions = [row[0] for row in db.execute("SELECT session_id FROM Definitions ORDER BY session_id")]
        assert sessions == [first, logger.session_id] and logger.session_id == first + 1
        count = db.execute("SELECT COUNT(*) FROM Transitions WHERE session_id = ?", (logger.session_id,)).fetchone()
        assert count[0] == len(observed_changes(ours()))
        rows = db.execute("SELECT timestamp, state, duration FROM Transitions JOIN Nodes USING (session_id, node_uid) "
                          "WHERE session_id = ? AND fullpath = 'arm' ORDER BY timestamp", (first,)).fetchall()
        assert [state for _, state, _ in rows] == [1, 2, 0]
        assert rows[0][2] == 0 and rows[1][2] >= 2000 and rows[1][2] == rows[1][0] - rows[0][0]
        stamps = [row[0] for row in db.execute("SELECT timestamp FROM Transitions ORDER BY rowid")]
        assert stamps == sorted(set(stamps))  # strictly increasing: the primary key
        paths = dict(db.execute("SELECT node_uid, fullpath FROM Nodes WHERE session_id = ?", (logger.session_id,)))
        assert paths[7] == "Sub::5/deep"
    with SqliteLogger(tree, path, append=False):
        pass
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM Definitions").fetchone()[0] == 1
    with pytest.raises(Exception, match="db3"):
        SqliteLogger(tree, tmp_path / "runs.sqlite")


def test_minitrace_is_balanced_chrome_trace(tmp_path):
    path = tmp_path / "trace.json"
    factory = BehaviorTreeFactory()
    factory.register_simple_stateful_action("Slow", lambda n: NodeStatus.RUNNING, lambda n: NodeStatus.RUNNING)
    tree = factory.create_tree_from_text('<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence>'
                                         '<AlwaysSuccess/><Slow/></Sequence></BehaviorTree></root>')
    with MinitraceLogger(tree, path):
        tree.tick_once()
        tree.halt_tree()
    events = json.loads(path.read_text())
    assert [(e["name"], e["ph"]) for e in events] == [
        ("Sequence", "B"), ("AlwaysSuccess", "B"), ("AlwaysSuccess", "E"), ("Slow", "B"),
        ("Slow", "E"), ("Sequence", "E")]
    assert events[4]["args"] == {"status": "HALTED"} and events[2]["args"] == {"status": "SUCCESS"}
    assert all(a["ts"] <= b["ts"] for a, b in zip(events, events[1:]))
    assert events[0]["cat"] == "Control" and events[0]["args"]["path"] == "Sequence::1"  # BT.CPP fullPath()


def test_loggers_detach_on_close(tmp_path):
    tree = ours()
    loggers = [StdCoutLogger(tree, stream=io.StringIO()), FileLogger2(tree, tmp_path / "a.btlog"),
               SqliteLogger(tree, tmp_path / "a.db3"), MinitraceLogger(tree, tmp_path / "a.json")]
    tree.tick_once()
    for logger in loggers:
        logger.close()
        logger.close()  # twice is fine
    assert not tree._status_observers
    assert all("_unobserved_class" not in type(node).__dict__ for node in tree.nodes)
