"""`robot-tasks tree validate|show`, run as a real subprocess."""
import os
import subprocess
import sys

from paths import REPO

GOOD = """<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence name="pick">
      <Script code="tries := 0"/>
      <RetryUntilSuccessful num_attempts="3">
        <MoveTo goal="{target}" _onFailure="tries += 1"/>
      </RetryUntilSuccessful>
      <SubTree ID="Grasp" object="{target}"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Grasp">
    <Fallback><CloseGripper/><AlwaysFailure/></Fallback>
  </BehaviorTree>
  <TreeNodesModel>
    <Action ID="MoveTo"><input_port name="goal"/></Action>
    <Action ID="CloseGripper"/>
  </TreeNodesModel>
</root>
"""


def run(*args, extra_path=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), extra_path, env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "robot_tasks.cli", "tree", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def test_validate_good_file(tmp_path):
    path = tmp_path / "good.xml"
    path.write_text(GOOD)
    result = run("validate", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == f"{path}: OK (11 nodes)"


def test_validate_bad_files_lists_every_problem(tmp_path):
    good = tmp_path / "good.xml"
    good.write_text(GOOD)
    bad = tmp_path / "bad.xml"
    bad.write_text(GOOD.replace("<CloseGripper/>", "<CloseGriper/>").replace('num_attempts="3"', 'num_attempts="x"'))
    broken = tmp_path / "broken.xml"
    broken.write_text("<root BTCPP_format='4'>\n<BehaviorTree ID='M'>\n</root>")
    result = run("validate", str(good), str(bad), str(broken))
    assert result.returncode == 1
    lines = result.stdout.strip().splitlines()
    assert lines[0] == f"{good}: OK (11 nodes)"
    assert f"{bad}:12: [CloseGriper] unknown node type [CloseGriper] (did you mean 'CloseGripper'?)" in lines
    assert any(line.startswith(f"{bad}:5: [RetryUntilSuccessful] the port with name \"num_attempts\"")
               for line in lines)
    assert lines[-1].startswith(f"{broken}:3: malformed XML")


def test_validate_rejects_unknown_custom_leaf_without_model(tmp_path):
    path = tmp_path / "custom.xml"
    path.write_text('<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence>\n<Wave/>\n</Sequence>'
                    '</BehaviorTree></root>')
    result = run("validate", str(path))
    assert result.returncode == 1
    assert result.stdout.strip() == f"{path}:2: [Wave] unknown node type [Wave]"


def test_validate_with_plugin(tmp_path):
    (tmp_path / "my_nodes.py").write_text(
        "from robot_tasks.bt import NodeStatus, InputPort\n"
        "def register_nodes(factory):\n"
        "    factory.register_simple_action('Wave', lambda node: NodeStatus.SUCCESS,"
        " ports=[InputPort('times', int)])\n")
    path = tmp_path / "custom.xml"
    path.write_text('<root BTCPP_format="4"><BehaviorTree ID="M">\n<Wave times="two"/>\n</BehaviorTree></root>')
    result = run("validate", "--plugin", "my_nodes", str(path), extra_path=str(tmp_path))
    assert result.returncode == 1
    assert 'value "two" can not be converted to int' in result.stdout
    missing = run("validate", "--plugin", "no_such_module", str(path))
    assert missing.returncode == 2 and "can't import plugin module 'no_such_module'" in missing.stderr


def test_show_prints_indented_tree_with_ports(tmp_path):
    path = tmp_path / "good.xml"
    path.write_text(GOOD)
    result = run("show", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "BehaviorTree Main",
        '  Sequence "pick"',
        '    Script code="tries := 0"',
        '    RetryUntilSuccessful num_attempts="3"',
        '      MoveTo goal="{target}" _onFailure="tries += 1"',
        '    SubTree Grasp object="{target}"',
        "      Fallback",
        "        CloseGripper",
        "        AlwaysFailure",
    ]


def test_show_bad_file_exits_1(tmp_path):
    path = tmp_path / "bad.xml"
    path.write_text('<root BTCPP_format="4"><BehaviorTree ID="M"><Nope/></BehaviorTree></root>')
    result = run("show", str(path))
    assert result.returncode == 1
    assert result.stdout.startswith(f"{path}:1: [Nope] unknown node type [Nope]")
