"""Fault scenarios on the whole franka_stacking node set: a node dies mid-goal, a goal storm.

Each function takes the bench's parsed arguments and returns (passed, what happened), as
the scenarios of bench/faults.py do. They run the trees of test/support/trees/faults.xml
(a server kept busy goal after goal) on a StackCell (bench/fault_cell.py): real nodes,
real PyBullet physics, loopback DDS. Kills are SIGKILL (a crash: nothing is cleaned up).
"""
from __future__ import annotations

import random
import threading
import time

import numpy as np
from fault_cell import StackCell

JOINT_STATES = "/panda/joint_states"
LEAF_TIMEOUT_S = 12.0   # a SIGKILLed server leaves the graph after the DDS lease (10 s, config/fastdds_localhost.xml)


class GoalStatusWatcher:
    """When each goal of one action server reached each status (its `_action/status` topic)."""

    def __init__(self, probe, action_name: str):
        from action_msgs.msg import GoalStatusArray
        from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

        self.lock = threading.Lock()
        self.reached: dict[tuple[bytes, int], float] = {}   # (goal uuid, status) -> wall time first seen
        qos = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL)
        probe.node.create_subscription(GoalStatusArray, f"/{action_name}/_action/status", self._on, qos)

    def _on(self, msg):
        now = time.monotonic()
        with self.lock:
            for status in msg.status_list:
                self.reached.setdefault((bytes(status.goal_info.goal_id.uuid), status.status), now)

    def first(self, status: int, after: float) -> float | None:
        """Earliest wall time after `after` at which some goal reached `status`."""
        with self.lock:
            times = [t for (_, s), t in self.reached.items() if s == status and t >= after]
        return min(times) if times else None


class JointClock:
    """Wall time of the latest joint_states message and the latest positions."""

    def __init__(self, probe, topic: str = JOINT_STATES):
        from rclpy.qos import qos_profile_sensor_data
        from sensor_msgs.msg import JointState

        self.last_wall = 0.0
        self.positions: dict[str, float] = {}
        self.velocities: dict[str, float] = {}
        probe.node.create_subscription(JointState, topic, self._on, qos_profile_sensor_data)

    def _on(self, msg):
        self.last_wall = time.monotonic()
        self.positions.update(zip(msg.name, msg.position))
        self.velocities.update(zip(msg.name, msg.velocity))

    def fresh(self, within_s: float = 0.5) -> bool:
        return time.monotonic() - self.last_wall < within_s


def _send_tree(cell, tree: str, payload: str):
    from robot_tasks_interfaces.action import ExecuteTree

    helper = cell.helpers["execute_tree"]
    handle, feedback = helper.send(ExecuteTree.Goal(target_tree=tree, payload=payload))
    return helper, handle, feedback


def _wait_running(cell, feedback, leaf_words: tuple[str, ...], timeout: float = 60.0) -> None:
    """Until the tree's feedback lists a RUNNING leaf whose path contains one of `leaf_words`."""
    cell.probe.wait_for(lambda: any(any(w in path for w in leaf_words) for _, f in feedback[-1:]
                                    for path in f.running_nodes), f"a running {leaf_words} leaf", timeout)


def sim_killed(args):
    """The sim dies while MoveToPose runs: the arm server aborts (NO_JOINT_STATES) within 2 s
    of the last joint_states, the tree ends FAILURE quoting it; the sim restarted, the next
    ExecuteTree succeeds with every server still the same process."""
    from action_msgs.msg import GoalStatus

    with StackCell() as cell:
        joints = JointClock(cell.probe)
        arm_status = GoalStatusWatcher(cell.probe, "move_to_pose")
        cell.probe.wait_for(joints.fresh, "joint_states", 30.0)
        servers = {n: p for n, p in cell.stack.pids().items() if n != "sim"}
        helper, handle, feedback = _send_tree(cell, "FaultArmSwing", "{cycles: -1}")
        _wait_running(cell, feedback, ("left", "right"))
        time.sleep(1.5)                                   # planned and moving
        cell.stack.kill("sim")
        last_js = joints.last_wall
        _, result = helper.result(handle, 30.0)
        tree_end = time.monotonic()
        aborted = arm_status.first(GoalStatus.STATUS_ABORTED, last_js)
        abort_s = (aborted - last_js) if aborted else float("inf")
        cell.stack.start("sim")
        cell.probe.wait_for(joints.fresh, "joint_states from the restarted sim", 60.0)
        again, again_s = cell.run_tree("FaultArmSwing", "{cycles: 1}", 120.0)
        same = {n: p for n, p in cell.stack.pids().items() if n != "sim"} == servers
    ok = (abort_s < 2.0 and result.node_status == "FAILURE" and "NO_JOINT_STATES" in result.return_message
          and again.node_status == "SUCCESS" and same and cell.leftovers is None)
    return ok, (f"arm goal aborted {abort_s:.2f} s after the last joint_states, tree {result.node_status} "
                f"{tree_end - last_js:.2f} s after it: '{result.return_message[:140]}'; after the restart "
                f"{again.node_status} in {again_s:.1f} s, servers unchanged: {same}; leftovers {cell.leftovers}")


KILLED_SERVERS = (  # node, its action, the tree that keeps it busy, that tree's leaves of it
    ("arm_server", "move_to_pose", "FaultArmSwing", ("left", "right")),
    ("gripper_server", "gripper_command", "FaultGripper", ("close", "open")),
    ("perception_server", "detect_objects", "FaultDetect", ("detect",)))


def server_killed(args):
    """Each server killed while one of its goals executes: the leaf fails with SERVER_UNREACHABLE
    or RESULT_LOST (or SEND_GOAL_TIMEOUT, when the kill lands between two goals of the loop,
    before the next one was accepted) within LEAF_TIMEOUT_S; once the dead server has left
    the graph it is restarted, and the same tree (one cycle) succeeds."""
    from action_msgs.msg import GoalStatus

    rng = random.Random(args.seed)
    lines, ok = [], True
    with StackCell() as cell:
        watchers = {action: GoalStatusWatcher(cell.probe, action) for _, action, _, _ in KILLED_SERVERS}
        for server, action, tree, leaves in KILLED_SERVERS:
            sent = time.monotonic()
            helper, handle, feedback = _send_tree(cell, tree, "{cycles: -1}")
            _wait_running(cell, feedback, leaves)
            cell.probe.wait_for(lambda: watchers[action].first(GoalStatus.STATUS_EXECUTING, sent) is not None,
                                f"a {action} goal executing", 60.0)
            time.sleep(rng.uniform(0.1, 0.3))
            killed = cell.stack.kill(server)
            _, result = helper.result(handle, LEAF_TIMEOUT_S + 20.0)
            took = time.monotonic() - killed
            code = next((c for c in CLEAR_LOSS_CODES if c in result.return_message), "")
            dead = cell.helpers[action].client
            cell.probe.wait_for(lambda: not dead.server_is_ready(), f"the killed {server} to leave the graph", 20.0)
            cell.stack.start(server)
            cell.wait_for_action(action, 60.0)
            again, again_s = cell.run_tree(tree, "{cycles: 1}", 120.0)
            ok &= result.node_status == "FAILURE" and bool(code) and took < LEAF_TIMEOUT_S \
                and again.node_status == "SUCCESS"
            lines.append(f"{server}: {result.node_status} {code or result.return_message[-80:]} after {took:.1f} s, "
                         f"restarted: {again.node_status} in {again_s:.1f} s")
    ok &= cell.leftovers is None
    return ok, "; ".join(lines) + f"; leftovers {cell.leftovers}"


CLEAR_LOSS_CODES = ("SERVER_UNREACHABLE", "RESULT_LOST", "SEND_GOAL_TIMEOUT")


STORM_GOALS = 100
STORM_S = 5.0


def move_to_pose_storm(args):
    """100 MoveToPose goals in 5 s, each preempting the last: every goal but the last ends
    PREEMPTED (or is refused), the last SUCCEEDS at its target, and the arm is still
    afterwards (no trajectory left running)."""
    from action_msgs.msg import GoalStatus
    from server_helpers import pose_goal

    from robot_tasks_interfaces.action import MoveToPose

    rng = random.Random(args.seed)
    with StackCell() as cell:
        joints = JointClock(cell.probe)
        move = cell.helpers["move_to_pose"]
        cell.probe.wait_for(joints.fresh, "joint_states", 30.0)
        targets = [(rng.uniform(0.35, 0.55), rng.uniform(-0.25, 0.25), rng.uniform(0.85, 1.05))
                   for _ in range(STORM_GOALS)]
        handles, start = [], time.monotonic()
        for i, target in enumerate(targets):
            handles.append(move.send(pose_goal(*target), 10.0)[0])
            time.sleep(max(0.0, start + (i + 1) * STORM_S / STORM_GOALS - time.monotonic()))
        sending_s = time.monotonic() - start
        outcomes = [move.result(h, 120.0) for h in handles]
        settled_q = dict(joints.positions)
        time.sleep(1.0)
        drift = max(abs(joints.positions[n] - q) for n, q in settled_q.items() if n.startswith("panda_joint"))
        speed = max(abs(v) for n, v in joints.velocities.items() if n.startswith("panda_joint"))
    last_status, last = outcomes[-1]
    earlier = [r.error_code for s, r in outcomes[:-1]]
    preempted = sum(code == MoveToPose.Result.PREEMPTED for code in earlier)
    reached = np.array([last.final_pose.pose.position.x, last.final_pose.pose.position.y,
                        last.final_pose.pose.position.z])
    miss_mm = float(np.linalg.norm(reached - np.array(targets[-1]))) * 1000
    ok = (last_status == GoalStatus.STATUS_SUCCEEDED and last.error_code == MoveToPose.Result.SUCCESS
          and preempted == STORM_GOALS - 1 and miss_mm < 10 and drift < 0.002 and sending_s < STORM_S + 2
          and cell.leftovers is None)
    return ok, (f"{STORM_GOALS} goals in {sending_s:.1f} s: {preempted} PREEMPTED, last "
                f"{MoveToPose.Result.SUCCESS == last.error_code and 'SUCCESS' or last.error_code} "
                f"{miss_mm:.1f} mm from its target; arm drift 1 s later {drift:.4f} rad (speed {speed:.3f} rad/s); "
                f"leftovers {cell.leftovers}")


SCENARIOS = {"sim_killed": sim_killed, "server_killed": server_killed, "move_to_pose_storm": move_to_pose_storm}
