"""`robot-tasks send-goal` against a real action server subprocess, over loopback DDS."""
from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest
import yaml
from paths import SUPPORT

from robot_tasks.cli import main as cli_main
from robot_tasks.testing.ros_test_node import wait_until
from robot_tasks_interfaces.action import MoveToPose

pytestmark = pytest.mark.ros
TEST_NODES = SUPPORT
MOVE = "robot_tasks_interfaces/action/MoveToPose"


def send_goal(ros_env, *args, timeout=30.0):
    """Run the CLI as a real process with the session's DDS environment."""
    return subprocess.run(
        [sys.executable, "-m", "robot_tasks.cli", "send-goal", *args],
        env=ros_env.subprocess_env(), capture_output=True, text=True, timeout=timeout)


def send_goal_then(ros_env, action, expect_rc=130, timeout=30.0) -> str:
    """Start `send-goal ... --feedback` with a goal that runs for a while, call `action(cli)`
    once the first feedback shows the goal running, and return the CLI's stderr."""
    cli = subprocess.Popen([sys.executable, "-m", "robot_tasks.cli", "send-goal", "/move_to_pose", MOVE,
                            "{}", "--feedback"], env=ros_env.subprocess_env(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert cli.stdout.readline() == "---\n"  # first feedback: the goal is running
        action(cli)
        _out, err = cli.communicate(timeout=timeout)
    finally:
        if cli.poll() is None:
            cli.kill()
    assert cli.returncode == expect_rc, err
    return err


@pytest.fixture
def move_server(launcher, ros_node):
    def start(name="move_to_pose", **params):
        proc = launcher.start_script(TEST_NODES / "fake_move_server.py", name=f"server_{name}",
                                     params={"action_name": name, **params})
        ros_node.wait_for_action_server(MoveToPose, name)
        return proc
    return start


def test_goal_succeeds_with_feedback_and_yaml_result(ros_env, move_server):
    move_server()
    run = send_goal(ros_env, "/move_to_pose", MOVE,
                    "{target: {header: {frame_id: world}, pose: {position: {x: 0.3, y: -0.2}}}, motion: 1}",
                    "--feedback")
    assert run.returncode == 0, run.stderr
    docs = list(yaml.safe_load_all(run.stdout))
    feedback = [d["feedback"] for d in docs if "feedback" in d]
    # ROS 2 actions do not guarantee the first feedback: the server may publish it
    # before its feedback publisher has matched the new client's subscription
    values = [f["distance_remaining"] for f in feedback]
    assert values and set(values) <= {3.0, 2.0, 1.0} and values == sorted(values, reverse=True), values
    final = docs[-1]
    assert final["status"] == "SUCCEEDED"
    assert final["result"]["error_code"] == MoveToPose.Result.SUCCESS
    # the server echoes the target: the goal crossed DDS intact
    assert final["result"]["final_pose"]["header"]["frame_id"] == "world"
    assert final["result"]["final_pose"]["pose"]["position"] == {"x": 0.3, "y": -0.2, "z": 0.0}
    assert "goal finished with status SUCCEEDED" in run.stderr


def test_without_feedback_flag_only_the_result_is_printed(ros_env, move_server):
    move_server()
    run = send_goal(ros_env, "move_to_pose", "robot_tasks_interfaces/MoveToPose")  # short type form
    assert run.returncode == 0, run.stderr
    docs = list(yaml.safe_load_all(run.stdout))
    assert len(docs) == 1 and docs[0]["status"] == "SUCCEEDED"


def test_aborted_goal_exits_1_with_the_error_code(ros_env, move_server):
    move_server()
    run = send_goal(ros_env, "/move_to_pose", MOVE, "{target: {header: {frame_id: camera}}}")
    assert run.returncode == 1, run.stderr
    final = list(yaml.safe_load_all(run.stdout))[-1]
    assert final["status"] == "ABORTED"
    assert final["result"]["error_code"] == MoveToPose.Result.INVALID_FRAME
    assert final["result"]["message"] == "unknown frame 'camera'"


def test_timeout_cancels_the_goal_on_the_server(ros_env, move_server, launcher):
    server = move_server(steps=200, step_s=0.05)  # a 10 s "motion"
    start = time.monotonic()
    run = send_goal(ros_env, "/move_to_pose", MOVE, "{}", "--timeout", "1.0")
    assert run.returncode == 1, run.stderr
    assert "timed out after 1 s; cancelling the goal" in run.stderr
    assert "goal cancel requested: accepted" in run.stderr
    assert time.monotonic() - start < 8.0
    wait_until(lambda: "goal canceled" in server.tail(), "the server to cancel the goal", 5.0)


def test_ctrl_c_cancels_the_goal_and_exits_130(ros_env, move_server):
    server = move_server(steps=200, step_s=0.05)
    err = send_goal_then(ros_env, lambda cli: cli.send_signal(signal.SIGINT), expect_rc=130)
    assert "interrupted; cancelling the goal" in err and "cancel requested: accepted" in err
    wait_until(lambda: "goal canceled" in server.tail(), "the server to cancel the goal", 5.0)


def test_a_server_that_goes_away_mid_goal_is_reported_lost(ros_env, move_server):
    """Measured when issue 16 was filed: send-goal kept its last feedback and waited forever."""
    server = move_server(steps=400, step_s=0.05)  # a 20 s "motion"
    gone = []

    def end_the_server(_cli):
        gone.append(time.monotonic())
        server.popen.send_signal(signal.SIGTERM)   # the server process ends, its goal unanswered

    err = send_goal_then(ros_env, end_the_server, expect_rc=1)
    assert "error: server lost: '/move_to_pose'" in err and "the goal's end is unknown" in err
    assert time.monotonic() - gone[0] < 10.0, "lost within seconds, not at the end of the motion"


def test_a_goal_whose_server_was_killed_and_restarted_ends_within_seconds(ros_env, move_server, ros_node):
    """Issue 31: SIGKILL leaves the old server's endpoints in the graph for the DDS lease, and
    a respawned server (bringup's, 2 s later) never knew the goal: send-goal used to wait out
    its whole timeout. Now it ends once the new server is in the graph."""
    server = move_server(steps=400, step_s=0.05)  # a 20 s "motion"
    ready = []

    def kill_and_restart(_cli):
        server.popen.send_signal(signal.SIGKILL)      # no goodbye: its endpoints stay in the graph
        server.popen.wait(timeout=5.0)
        move_server(name="move_to_pose", steps=400, step_s=0.05)   # waits until it serves
        ready.append(time.monotonic())

    err = send_goal_then(ros_env, kill_and_restart, expect_rc=1)
    took = time.monotonic() - ready[0]
    assert "error: server lost: '/move_to_pose'" in err, err
    # the new server says it does not know the goal, or (Fast DDS sometimes notices a dead
    # process on this host early) the killed one has left the graph first
    assert "does not know this goal" in err or "disappeared from the graph" in err, err
    print(f"send-goal ended {took:.2f} s after the restarted server was ready")
    assert took < 3.0, f"learnt {took:.1f} s after the new server came up"


def test_missing_server_fails_clearly_within_the_server_timeout(ros_env, ros_node):
    start = time.monotonic()
    run = send_goal(ros_env, "/nobody_home", MOVE, "{}", "--server-timeout", "0.5")
    assert run.returncode == 3
    assert "no action server '/nobody_home' after 0.5 s" in run.stderr
    assert time.monotonic() - start < 10.0  # process start + 0.5 s, not a hang
    assert run.stdout == ""


@pytest.mark.parametrize("args, message", [
    ([MOVE, "{target: {pose: {position: {x: abc}}}}"],
     "error: goal.target.pose.position.x: expected float, got 'abc'"),
    ([MOVE, "{velocity: 1}"], "error: goal.velocity: unknown field 'velocity'"),
    (["robot_tasks_interfaces/action/Nope", "{}"], "has no action named 'Nope'"),
    (["no_such_pkg/action/X", "{}"], "cannot import action type 'no_such_pkg/action/X'"),
    (["geometry_msgs/Pose", "{}"], "cannot import action type 'geometry_msgs/Pose'"),
    (["just_a_name", "{}"], "is not of the form package/action/Name"),
    ([MOVE, "{}", "--timeout", "0"], "--timeout must be > 0"),
])
def test_bad_input_exits_2_before_touching_ros(capsys, args, message):
    assert cli_main(["send-goal", "/x", *args]) == 2
    assert message in capsys.readouterr().err
