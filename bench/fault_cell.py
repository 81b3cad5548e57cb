"""Where the fault bench's ROS scenarios run: a loopback domain, a launcher, a probe node.

:class:`Cell` is one fresh ROS_DOMAIN_ID (loopback DDS, robot_tasks.testing) with a
NodeLauncher and a probe node (RosTestNode); everything it started is stopped and
leak-checked on exit (`cell.leftovers` is None when nothing was left behind).
:class:`StackCell` adds the franka_stacking node set (robot_tasks.testing.stack.NodeStack:
every node killable and restartable by name) with the fault trees of
test/support/trees/faults.xml loaded in the tree executor, and an ExecuteTree client.
Also here: the /proc readings the scenarios sample (RSS, open fds).
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
for _path in (REPO, REPO / "test" / "support"):      # the stand-in servers and helpers the tests use
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

STACKING_YAML = REPO / "config" / "franka_stacking.yaml"
TEST_TREES = REPO / "test" / "support" / "trees"
ACTIONS = {"move_to_pose": "MoveToPose", "move_to_joints": "MoveToJoints", "gripper_command": "GripperCommand",
           "detect_objects": "DetectObjects", "execute_tree": "ExecuteTree", "compliant_move": "CompliantMove"}
STACKING_ACTIONS = ("move_to_pose", "move_to_joints", "gripper_command", "detect_objects", "execute_tree")


class Cell:
    """A loopback ROS domain with a launcher and a probe node (robot_tasks.testing)."""

    def __enter__(self):
        from robot_tasks.testing.launcher import NodeLauncher, RosTestEnv
        from robot_tasks.testing.ros_test_node import RosTestNode

        self.dir = Path(tempfile.mkdtemp(prefix="faults_"))
        self.env = RosTestEnv.create_applied(self.dir)
        self.launcher = NodeLauncher(self.env, self.dir / "logs")
        self.probe = RosTestNode("faults_probe", self.env, launcher=self.launcher)
        return self

    def executor(self, name="tree_executor"):
        from robot_tasks_interfaces.action import ExecuteTree

        proc = self.launcher.start_module("robot_tasks.nodes.tree_executor", name=name, params={
            "tree_dirs": [str(TEST_TREES)], "include_default_trees": False, "groot2_port": 0})
        self.probe.wait_for_action_server(ExecuteTree, "execute_tree", timeout=30.0)
        return proc

    def __exit__(self, *exc):
        self.probe.close()
        report = self.launcher.stop_all()
        self.env.release()
        self.leftovers = None if report.clean else str(report)


class StackCell(Cell):
    """A Cell running a bringup file's nodes (default config/franka_stacking.yaml, without
    state_publisher; no Groot2 sockets), the fault trees loaded in the tree executor;
    `helpers[action name]` are ready ActionHelpers for `actions`."""

    def __init__(self, real_time_factor: float = 1.0, seed: int = 0, config: Path = STACKING_YAML,
                 actions=STACKING_ACTIONS, skip=("state_publisher",)):
        self.real_time_factor, self.seed, self.skip = real_time_factor, seed, skip
        self.config, self.actions = config, actions

    def __enter__(self):
        from robot_tasks.testing.stack import NodeStack

        super().__enter__()
        try:
            self.stack = NodeStack(self.launcher, self.config, self.dir, skip=self.skip, overrides={
                "sim": {"real_time_factor": self.real_time_factor, "seed": self.seed},
                "tree_executor": {"tree_dirs": [str(TEST_TREES)], "groot2_port": 0}})
            self.stack.start_all()
            self.helpers = {}
            for name in self.actions:
                self.helpers[name] = self.wait_for_action(name)
        except BaseException:
            self.__exit__(*sys.exc_info())
            raise
        return self

    def wait_for_action(self, name: str, timeout: float = 90.0):
        """A new ActionHelper on action `name` (see ACTIONS), once its server is ready."""
        from server_helpers import ActionHelper

        import robot_tasks_interfaces.action as actions

        helper = ActionHelper(self.probe, getattr(actions, ACTIONS[name]), name)
        helper.wait_ready(timeout)
        return helper

    def run_tree(self, tree: str, payload: str = "", timeout: float = 120.0):
        """Run `tree` to its end; return (ExecuteTree result, seconds it took)."""
        from robot_tasks_interfaces.action import ExecuteTree

        start = time.monotonic()
        result, _, _ = self.helpers["execute_tree"].run(ExecuteTree.Goal(target_tree=tree, payload=payload), timeout)
        return result, time.monotonic() - start
