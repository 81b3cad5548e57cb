"""`robot-tasks tree test FILE --mocks rules.json`, run as a real subprocess (no ROS is started)."""
import json
import os
import subprocess
import sys

from paths import REPO

MOCKS = REPO / "test" / "trees" / "mocks"
TREE = """<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence name="pick">
      <MoveTo name="approach" goal="{target}"/>
      <SubTree ID="Grasp" name="grasp"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Grasp">
    <Fallback name="close_or_fail"><CloseGripper name="close"/><AlwaysFailure/></Fallback>
  </BehaviorTree>
</root>
"""


def run(*args):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "robot_tasks.cli", "tree", "test", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def write(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(path)


def test_ur10_flip_routing_prints_every_transition_and_succeeds(tmp_path):
    init = write(tmp_path, "init.json", {"upside_down": True})
    result = run(str(REPO / "trees" / "ur10_palletizing.xml"), "--mocks", str(MOCKS / "ur10_palletizing.json"),
                 "--blackboard", init)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("mocked: 79 of 174 nodes, by 13 rules")
    assert lines[1].split() == ["0.000", "ur10_palletizing", "IDLE", "->", "RUNNING"]
    assert any(line.split()[1:] == ["FlipBin::71/flipping", "RUNNING", "->", "SUCCESS"] for line in lines)
    assert lines[-1].startswith("result: SUCCESS after ")


def test_failure_exits_1_and_notes_rules(tmp_path):
    rules = write(tmp_path, "rules.json", {
        "TestNodeConfigs": {"Moved": {"return_status": "SUCCESS", "async_delay": 5},
                            "Slips": {"return_status": "FAILURE"}},
        "SubstitutionRules": {"MoveTo": "Moved", "approach": "Moved", "close": "Slips", "nowhere/*": "Slips"}})
    result = run(write(tmp_path, "tree.xml", TREE), "--mocks", rules)
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout
    assert "note: [approach] matches the rules" in out and "(BT.CPP's rule order)" in out
    assert "note: the rule 'nowhere/*' matches no node of this tree" in out
    assert "approach" in out and "IDLE -> RUNNING" in out and "grasp/close" in out
    assert out.splitlines()[-1].startswith("result: FAILURE after ")


def test_leaves_neither_registered_nor_mocked_are_listed(tmp_path):
    rules = write(tmp_path, "rules.json", {"SubstitutionRules": {"approach": "AlwaysSuccess"}})
    result = run(write(tmp_path, "tree.xml", TREE), "--mocks", rules)
    assert result.returncode == 1
    assert "neither registered nor mocked" in result.stderr and "CloseGripper: grasp/close" in result.stderr
    assert "MoveTo" not in result.stderr


def test_a_bad_rules_file_is_named(tmp_path):
    rules = write(tmp_path, "bad.json", {"TestNodeConfigs": {"X": {"return_status": "DONE"}},
                                         "SubstitutionRules": {"close": "X"}})
    result = run(write(tmp_path, "tree.xml", TREE), "--mocks", rules)
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: {rules}: TestNodeConfigs.X.return_status: Cannot convert")
    broken = write(tmp_path, "broken.json", "{\"SubstitutionRules\": ")
    result = run(write(tmp_path, "tree.xml", TREE), "--mocks", broken)
    assert result.returncode == 1 and f"error: {broken}: not valid JSON" in result.stderr
    result = run(write(tmp_path, "tree.xml", TREE), "--mocks", str(tmp_path / "missing.json"))
    assert result.returncode == 1 and "can't read the rules file" in result.stderr


def test_unknown_config_keys_warn_and_a_bad_blackboard_is_named(tmp_path):
    rules = write(tmp_path, "rules.json", {"TestNodeConfigs": {"Ok": {"return_status": "SUCCESS", "post_scrip": "x"}},
                                           "SubstitutionRules": {"MoveTo": "Ok", "CloseGripper": "Ok"}})
    result = run(write(tmp_path, "tree.xml", TREE), "--mocks", rules)
    assert result.returncode == 0, result.stderr
    assert "TestNodeConfigs.Ok.post_scrip is not a TestNodeConfig field" in result.stderr
    board = write(tmp_path, "board.json", "[1, 2]")
    result = run(write(tmp_path, "tree.xml", TREE), "--mocks", rules, "--blackboard", board)
    assert result.returncode == 1 and f"error: {board}: the blackboard must be a JSON object" in result.stderr


def test_max_ticks_bounds_a_tree_that_never_ends(tmp_path):
    rules = write(tmp_path, "rules.json", {"TestNodeConfigs": {"Forever": {"return_status": "RUNNING"}},
                                           "SubstitutionRules": {"MoveTo": "Forever", "CloseGripper": "Forever"}})
    result = run(write(tmp_path, "tree.xml", TREE), "--mocks", rules, "--max-ticks", "5")
    assert result.returncode == 1
    assert result.stdout.splitlines()[-1].startswith("result: still RUNNING after 5 ticks")
    assert "approach" in result.stdout and "RUNNING -> IDLE" in result.stdout   # halted at the end
