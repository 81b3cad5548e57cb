"""`robot-tasks replay`: exit codes 0 (exact), 1 (diverged), 2 (bad input), and what it prints (no ROS)."""
from __future__ import annotations

import json

import pytest

from robot_tasks.bt import BehaviorTreeFactory, InputPort, NodeStatus, OutputPort, StatefulActionNode
from robot_tasks.bt.recording import FileRecording
from robot_tasks.cli import main

TREE = """<root BTCPP_format="4" main_tree_to_execute="Pick">
  <BehaviorTree ID="Pick">
    <Sequence name="pick">
      <Script name="start" code="tries := 0"/>
      <RetryUntilSuccessful name="retry" num_attempts="3">
        <Sequence name="attempt">
          <Script name="count" code="tries += 1"/>
          <Grasp name="grasp" width="0.02" held="{held}"/>
        </Sequence>
      </RetryUntilSuccessful>
      <Grasp name="check" width="0.02" held="{held}"/>
    </Sequence>
  </BehaviorTree>
</root>
"""


class Grasp(StatefulActionNode):
    """RUNNING two ticks, then fails its first grasp and holds the cube after."""

    grasps = 0

    @staticmethod
    def provided_ports():
        return [InputPort("width", float), OutputPort("held")]

    def on_start(self):
        self.ticks = 2
        return NodeStatus.RUNNING

    def on_running(self):
        self.ticks -= 1
        if self.ticks:
            return NodeStatus.RUNNING
        Grasp.grasps += 1
        self.set_output("held", "red_cube" if Grasp.grasps > 1 else "")
        return NodeStatus.SUCCESS if Grasp.grasps > 1 else NodeStatus.FAILURE

    def on_halted(self):
        pass


@pytest.fixture
def run_folder(tmp_path):
    """A run folder as a demo leaves it: the tree, the recording, report.json naming it."""
    Grasp.grasps = 0
    tree_file = tmp_path / "pick.xml"
    tree_file.write_text(TREE)
    factory = BehaviorTreeFactory()
    factory.register_node_type(Grasp)
    tree = factory.create_tree_from_file(tree_file)
    folder = tmp_path / "run"
    recording = FileRecording(tree, folder / "Pick_20261205T000000Z.replay.jsonl", tree_file=tree_file)
    status, tick = NodeStatus.RUNNING, 0
    while status is NodeStatus.RUNNING:
        tick += 1
        recording.begin_tick(tick, 10.0 + tick / 50)
        status = tree.tick_exactly_once()
    recording.close()
    (folder / "report.json").write_text(json.dumps({"replay": recording.path.name}))
    return folder


def replay(capsys, *argv):
    code = main(["replay", *map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_run_folder_replays_exactly(run_folder, capsys):
    code, out, _ = replay(capsys, run_folder)
    assert code == 0
    assert "pick.xml [Pick]: the file the run used" in out
    assert "leaves:    2 replayed from the recording, 2 run as written" in out
    assert "result:    replayed exactly: 7 ticks" in out and "the tree returned SUCCESS" in out


def test_stop_at_a_node_and_print_the_blackboard_there(run_folder, capsys):
    code, out, _ = replay(capsys, run_folder, "--stop-at-node", "check", "--print-blackboard")
    assert code == 0
    assert "stopped in tick 5: leaf Pick/pick/check returned RUNNING (call 1)" in out
    assert 'blackboard where the replay stopped (tick 5):\n  held = "red_cube"\n  tries = 2\n' in out


def test_stop_after_a_tick(run_folder, capsys):
    code, out, _ = replay(capsys, run_folder / "Pick_20261205T000000Z.replay.jsonl", "--stop-at-tick", "3",
                          "--print-blackboard")
    assert code == 0 and "stopped after tick 3" in out
    assert '  held = ""\n  tries = 2\n' in out   # tick 3: the first grasp failed, the retry counted


def test_an_edited_tree_reports_its_first_divergence(run_folder, tmp_path, capsys):
    edited = tmp_path / "edited.xml"
    edited.write_text(TREE.replace('num_attempts="3"', 'num_attempts="1"'))
    code, out, _ = replay(capsys, run_folder, "--tree", edited)
    assert code == 1
    assert "differs from the file the run used" in out
    assert "result:    DIVERGED" in out and "diverged at tick 3 (t = 10.060 s)" in out
    assert "  node:   Pick/pick/retry/attempt\n" in out
    assert "  run:    Pick/pick/retry/attempt: IDLE -> RUNNING" in out
    assert "  replay: Pick/pick/retry: RUNNING -> FAILURE" in out


def test_an_edited_port_of_a_replayed_leaf_is_named(run_folder, tmp_path, capsys):
    edited = tmp_path / "edited.xml"
    edited.write_text(TREE.replace('name="grasp" width="0.02"', 'name="grasp" width="0.03"'))
    code, out, _ = replay(capsys, run_folder, "--tree", edited)
    assert code == 1 and "width: '0.02' in the run, '0.03' here" in out


@pytest.mark.parametrize("make_input, message", [
    (lambda folder: folder / "nowhere", "no such run folder or recording file"),
    (lambda folder: folder.parent, "no recording (*.replay.jsonl) in this folder"),
])
def test_bad_run_folders_exit_2_naming_them(run_folder, capsys, make_input, message):
    target = make_input(run_folder)
    code, out, err = replay(capsys, target)
    assert code == 2 and err.startswith(f"error: {target}: {message}") and out == ""


def test_a_broken_recording_exits_2_naming_file_and_line(run_folder, capsys):
    path = run_folder / "Pick_20261205T000000Z.replay.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:2] + ["{oops"] + lines[2:]) + "\n")
    code, _, err = replay(capsys, run_folder)
    assert code == 2 and f"error: {path}:3: not a JSON line" in err


def test_bad_options_exit_2(run_folder, tmp_path, capsys):
    code, _, err = replay(capsys, run_folder, "--tree", tmp_path / "missing.xml")
    assert code == 2 and "missing.xml: no such tree file (--tree)" in err
    code, _, err = replay(capsys, run_folder, "--stop-at-node", "nothing_like_this")
    assert code == 2 and "--stop-at-node nothing_like_this: no node of the tree" in err
    broken = tmp_path / "broken.xml"
    broken.write_text(TREE.replace("</Sequence>\n  </BehaviorTree>", "</Sequence>\n  </Behavior>"))
    code, _, err = replay(capsys, run_folder, "--tree", broken)
    assert code == 2 and f"{broken}" in err
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", str(run_folder), "--stop-at-tick", "x"])
    assert exit_info.value.code == 2
