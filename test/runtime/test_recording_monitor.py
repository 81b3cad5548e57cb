"""The executor's recording monitor: one recording per run, next to the .btlog; no DDS needed."""
from __future__ import annotations

import json

from robot_tasks.bt import BehaviorTreeFactory, NodeStatus
from robot_tasks.bt.recording import Replayer, read_recording
from robot_tasks.runtime.catalog import TreeCatalog
from robot_tasks.runtime.monitors import RunInfo, RunMonitors, btlog_monitor, recording_monitor
from robot_tasks.runtime.run import TreeRun

MAIN = """<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence name="seq">
      <Script name="count" code="seen := n + 1"/>
      <SubTree ID="Inner" name="inner" _autoremap="true"/>
    </Sequence>
  </BehaviorTree>
</root>"""
INNER = """<root BTCPP_format="4">
  <BehaviorTree ID="Inner">
    <Sleep name="nap" msec="20"/>
  </BehaviorTree>
</root>"""


def make_catalog(folder):
    (folder / "main.xml").write_text(MAIN)
    (folder / "inner.xml").write_text(INNER)
    catalog = TreeCatalog(BehaviorTreeFactory(), [folder])
    assert catalog.load_all() == []
    return catalog


def run_like_the_executor(catalog, monitors, target, payload):
    """What ExecuteTreeServer does around one run, without ROS."""
    tree, tree_id = catalog.create(target, payload)
    tree_file, subtree_files = catalog.sources(target, tree)
    run = TreeRun(tree, tree_id)
    monitors.open(tree, tree_id, RunInfo(target, tree_file, subtree_files, payload))
    status = NodeStatus.RUNNING
    while status is NodeStatus.RUNNING:
        if monitors.ticking:
            monitors.begin_tick(run.tick_count + 1, 100.0 + run.tick_count * 0.01)
        status = run.tick()
        run.take_changes()
        tree.sleep(0.005)
    run.close()
    monitors.close()
    return status, run.tick_count


def test_catalog_sources_name_the_file_and_the_subtrees_defined_elsewhere(tmp_path):
    catalog = make_catalog(tmp_path)
    tree, _ = catalog.create("Main", {"n": 1})
    assert catalog.sources("Main", tree) == (str(tmp_path / "main.xml"), {"Inner": str(tmp_path / "inner.xml")})
    tree, _ = catalog.create("Inner")
    assert catalog.sources("Inner", tree) == (str(tmp_path / "inner.xml"), {})


def test_each_run_is_recorded_next_to_its_btlog_and_replays_exactly(tmp_path):
    (tmp_path / "trees").mkdir()
    catalog = make_catalog(tmp_path / "trees")
    runs = tmp_path / "runs"
    monitors = RunMonitors([btlog_monitor(runs), recording_monitor(runs, ["my_plugin"], "test clock")])
    status, ticks = run_like_the_executor(catalog, monitors, "Main", {"n": 41})
    assert status is NodeStatus.SUCCESS and not monitors.ticking
    (path,) = runs.glob("Main_*.replay.jsonl")
    assert len(list(runs.glob("Main_*.btlog"))) == 1
    recording = read_recording(path)
    header = recording.header
    assert header["target"] == "Main" and header["tree_id"] == "Main" and header["plugins"] == ["my_plugin"]
    assert header["tree_file"] == str(tmp_path / "trees" / "main.xml")
    assert header["subtree_files"] == {"Inner": str(tmp_path / "trees" / "inner.xml")}
    assert set(header["files"]) == {header["tree_file"], header["subtree_files"]["Inner"]}
    assert header["payload"] == {"n": 41} and header["blackboard"] == {"n": 41} and header["clock"] == "test clock"
    assert recording.events[0] == {"tick": 1, "t": 100.0}
    end = recording.events[-1]
    assert end["end"] is True and end["ticks"] == ticks and end["process_cpu_s"] >= 0
    result = Replayer(recording).run()   # the Sleep is replayed: no waiting
    assert result.outcome == "exact" and result.ticks == ticks
    assert json.loads(path.read_text().splitlines()[1]) == {"tick": 1, "t": 100.0}


def test_a_recording_that_cannot_open_is_reported_and_the_run_goes_on(tmp_path):
    catalog = make_catalog(tmp_path)
    (tmp_path / "not_a_folder").write_text("")
    problems = []
    monitors = RunMonitors([recording_monitor(tmp_path / "not_a_folder", on_problem=problems.append)])
    status, _ = run_like_the_executor(catalog, monitors, "Main", {"n": 1})
    assert status is NodeStatus.SUCCESS
    assert len(problems) == 1 and problems[0].startswith("no recording for 'Main'")


def test_two_runs_in_one_second_keep_both_recordings(tmp_path):
    catalog = make_catalog(tmp_path)
    monitors = RunMonitors([recording_monitor(tmp_path / "runs")])
    for n in (1, 2):
        run_like_the_executor(catalog, monitors, "Main", {"n": n})
    recordings = sorted((tmp_path / "runs").glob("Main_*.replay.jsonl"))
    assert len(recordings) == 2   # the second one second-stamped alike gets a _2
    assert sorted(read_recording(p).header["payload"]["n"] for p in recordings) == [1, 2]
