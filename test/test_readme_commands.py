"""Every command in the README runs as written.

The fenced shell blocks of README.md are read the way a user copies them (a trailing `\\`
joins lines, `#` starts a comment). Checked:

- every `robot-tasks ...` command parses with the CLI's own argparse (nothing runs: the
  demos take minutes);
- every goal (`ros2 action send_goal NAME TYPE "YAML"` and `robot-tasks send-goal`) fills
  the named action's Goal with the conversion `robot-tasks send-goal` uses (rosidl's
  set_message_fields rules; rosidl_runtime_py is not on PyPI), and ExecuteTree goals name
  a tree of trees/;
- the `/move_to_pose` goals, sent as written through `robot-tasks send-goal`, SUCCEED on
  the sim + arm_server of config/franka_stacking.yaml (its node set and parameters, over
  loopback DDS in the test's domain), and the same goal with `w` left out is refused.
"""
from __future__ import annotations

import shlex
import subprocess
import sys

import pytest
import yaml
from paths import REPO

from robot_tasks.cli import build_parser
from robot_tasks.ros.interface_types import import_action_type
from robot_tasks.ros.yaml_message import message_from_yaml

README = REPO / "README.md"
CLI = ("robot-tasks", ".venv/bin/robot-tasks")
ROS2_SEND_GOAL = ["ros2", "action", "send_goal"]


def shell_commands(text: str) -> list[list[str]]:
    """The commands of the README's fenced shell blocks, each split as a shell would."""
    commands, language, block = [], None, []
    for line in text.splitlines():
        if line.startswith("```"):
            if language is None:                     # an opening fence: ```bash, ```python ...
                language, block = line[3:].strip(), []
                continue
            if language in ("bash", "sh"):
                commands += _split("\n".join(block))
            language = None
        elif language is not None:
            block.append(line)
    return commands


def _split(block: str) -> list[list[str]]:
    commands = []
    for line in block.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        if words[:1] == ["eval"] and words[1].startswith("$(") and words[1].endswith(")"):
            words = shlex.split(words[1][2:-1])         # eval "$(robot-tasks env)"
        if words:
            commands.append(words)
    return commands


def goals(commands) -> list[tuple[str, str, str, list[str]]]:
    """(action name, type, YAML goal, the `robot-tasks send-goal` argv that sends it)."""
    found = []
    for words in commands:
        if words[:3] == ROS2_SEND_GOAL:
            args = words[3:]
        elif words[0] in CLI and words[1:2] == ["send-goal"]:
            args = words[2:]
        else:
            continue
        goal = args[2] if len(args) > 2 and not args[2].startswith("-") else ""
        found.append((args[0], args[1], goal, ["send-goal", *args]))
    return found


COMMANDS = shell_commands(README.read_text())
CLI_COMMANDS = [words for words in COMMANDS if words[0] in CLI]
GOALS = goals(COMMANDS)


def test_the_readme_has_the_commands_this_file_checks():
    assert len(CLI_COMMANDS) >= 15
    assert {name for name, *_ in GOALS} >= {"/execute_tree", "/move_to_pose", "/gripper_command"}


@pytest.mark.parametrize("words", CLI_COMMANDS, ids=[" ".join(w[1:3]) for w in CLI_COMMANDS])
def test_robot_tasks_command_parses(words):
    try:
        args = build_parser().parse_args(words[1:])
    except SystemExit:
        pytest.fail(f"README: `{shlex.join(words)}` does not parse (argparse's message above)")
    assert getattr(args, "func", None), shlex.join(words)


@pytest.mark.parametrize("name, action_type, goal, _argv", GOALS, ids=[g[0] for g in GOALS])
def test_goal_fills_the_actions_goal(name, action_type, goal, _argv):
    filled = message_from_yaml(import_action_type(action_type).Goal, goal, "goal")
    if name.endswith("execute_tree"):
        trees = "\n".join(p.read_text() for p in (REPO / "trees").glob("*.xml"))
        assert f'<BehaviorTree ID="{filled.target_tree}"' in trees


@pytest.mark.ros
@pytest.mark.sim
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_move_to_pose_goals_succeed_as_written(ros_env, launcher, action_clients, tmp_path):
    from robot_tasks.testing.stack import NodeStack
    from robot_tasks_interfaces.action import MoveToPose

    moves = [argv for name, _type, _goal, argv in GOALS if name == "/move_to_pose"]
    assert moves
    stack = NodeStack(launcher, REPO / "config" / "franka_stacking.yaml", tmp_path,
                      skip=("state_publisher", "gripper_server", "perception_server", "tree_executor"))
    stack.start_all()
    action_clients.wait_for_server(MoveToPose, "/move_to_pose", timeout=60.0)

    def send(argv):
        run = subprocess.run([sys.executable, "-m", "robot_tasks.cli", *argv], env=ros_env.subprocess_env(),
                             capture_output=True, text=True, timeout=120)
        return run, list(yaml.safe_load_all(run.stdout))[-1]

    for argv in moves:
        run, last = send(argv)
        assert run.returncode == 0, f"{shlex.join(argv)}\n{run.stdout}\n{run.stderr}"
        assert last["status"] == "SUCCEEDED" and last["result"]["position_error"] <= 0.005, last

    # the trap the example fell into: geometry_msgs/Quaternion's w defaults to 1
    unset_w = [word.replace("{x: 1.0, w: 0.0}", "{x: 1.0}") for word in moves[0]]
    run, last = send(unset_w)
    assert run.returncode == 1 and last["result"]["error_code"] == MoveToPose.Result.INVALID_GOAL
    assert "not normalized" in last["result"]["message"]
