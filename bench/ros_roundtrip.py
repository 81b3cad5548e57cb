"""Benchmark: ROS action round trip and the tree_executor's tick-period jitter.

    PYTHONPATH=. .venv/bin/python bench/ros_roundtrip.py [--goals 200] [--seconds 5]

Starts its own processes on loopback DDS with a random ROS_DOMAIN_ID and stops them
at the end (robot_tasks.testing.launcher does both):

1. action round trip: a MoveToJoints test server that succeeds at once
   (test/support/joint_move_server.py, duration_s=0); the client here sends
   N goals one after the other and times send_goal -> result (accept + result).
   Target: median < 10 ms.
2. ExecuteTree round trip of a one-node tree (AlwaysSuccess): what a caller of the
   tree_executor waits for a trivial tree (includes up to one tick period).
3. tick jitter: the tree_executor (tick_frequency 100 Hz) runs a tree whose one
   leaf, TickProbe (registered by this file as a plugin), stamps every tick with
   time.monotonic() for --seconds; printed: median/p99 period and deviation from
   the nominal 10 ms.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from robot_tasks.bt import InputPort, NodeStatus, StatefulActionNode

REPO = Path(__file__).resolve().parents[1]
SERVER_SCRIPT = REPO / "test" / "support" / "joint_move_server.py"
TARGET_ROUNDTRIP_MS = 10.0
TICK_HZ = 100.0


# ---- the plugin the tree_executor loads (plugins:=['ros_roundtrip']) -------------------
class TickProbe(StatefulActionNode):
    """Stamps each tick with time.monotonic(); after `seconds` writes them to `output_file`."""

    @staticmethod
    def provided_ports():
        return [InputPort("seconds", float, default=5.0), InputPort("output_file", str)]

    def on_start(self) -> NodeStatus:
        self.stamps = [time.monotonic()]
        self.end = self.stamps[0] + self.get_input("seconds")
        return NodeStatus.RUNNING

    def on_running(self) -> NodeStatus:
        now = time.monotonic()
        self.stamps.append(now)
        if now < self.end:
            return NodeStatus.RUNNING
        Path(self.get_input("output_file")).write_text(json.dumps(self.stamps))
        return NodeStatus.SUCCESS

    def on_halted(self) -> None:
        pass


def register_nodes(factory) -> None:
    factory.register_node_type(TickProbe, "TickProbe")


# ---- measuring ---------------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100.0 * (len(ordered) - 1))))
    return ordered[index]


def spin_until(executor, future, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not future.done():
        if time.monotonic() > deadline:
            raise TimeoutError("no answer within %.1f s" % timeout)
        executor.spin_once(timeout_sec=0.05)


def round_trips(executor, client, make_goal, count: int) -> list[float]:
    """Milliseconds from send_goal_async to the result, `count` goals in a row."""
    times = []
    for _ in range(count):
        start = time.perf_counter()
        sent = client.send_goal_async(make_goal())
        spin_until(executor, sent, 5.0)
        handle = sent.result()
        if not handle.accepted:
            raise RuntimeError("goal rejected")
        result = handle.get_result_async()
        spin_until(executor, result, 5.0)
        times.append((time.perf_counter() - start) * 1000.0)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--goals", type=int, default=200, help="round trips to time (max 1000)")
    parser.add_argument("--seconds", type=float, default=5.0, help="tick-jitter window (max 30)")
    args = parser.parse_args()
    goals = max(10, min(args.goals, 1000))
    seconds = max(1.0, min(args.seconds, 30.0))

    from robot_tasks.testing.launcher import NodeLauncher, RosTestEnv

    work = Path(tempfile.mkdtemp(prefix="ros_roundtrip_"))
    env = RosTestEnv.create(work)
    env.apply_to_current_process()
    (work / "trees").mkdir()
    probe_file = work / "ticks.json"
    (work / "trees" / "bench.xml").write_text(f"""<root BTCPP_format="4">
  <BehaviorTree ID="Trivial"><AlwaysSuccess/></BehaviorTree>
  <BehaviorTree ID="TickProbeTree"><TickProbe seconds="{seconds}" output_file="{probe_file}"/></BehaviorTree>
</root>""")
    launcher = NodeLauncher(env, work / "logs")
    bench_path = str(Path(__file__).resolve().parent)
    pythonpath = os.pathsep.join([bench_path, str(REPO)] + [p for p in os.environ.get("PYTHONPATH", "").split(
        os.pathsep) if p])
    launcher.start_script(SERVER_SCRIPT, name="bench_move_server", params={"duration_s": 0.0, "event_log": ""})
    launcher.start_module("robot_tasks.nodes.tree_executor", name="bench_tree_executor",
                          params={"tree_dirs": [str(work / "trees")], "include_default_trees": False,
                                  "plugins": ["ros_roundtrip"], "tick_frequency": TICK_HZ},
                          extra_env={"PYTHONPATH": pythonpath})

    import rclpy
    from rclpy.action import ActionClient
    from rclpy.context import Context
    from rclpy.executors import SingleThreadedExecutor

    from robot_tasks_interfaces.action import ExecuteTree, MoveToJoints

    context = Context()
    rclpy.init(context=context, domain_id=env.domain_id)
    node = rclpy.create_node("bench_ros_roundtrip", context=context)
    executor = SingleThreadedExecutor(context=context)
    executor.add_node(node)
    move = ActionClient(node, MoveToJoints, "move_to_joints")
    execute = ActionClient(node, ExecuteTree, "execute_tree")
    code = 0
    try:
        deadline = time.monotonic() + 20.0
        while not (move.server_is_ready() and execute.server_is_ready()):
            launcher.check_alive("the bench servers")
            if time.monotonic() > deadline:
                raise TimeoutError("servers not discovered in 20 s:\n" + launcher.describe_all())
            executor.spin_once(timeout_sec=0.05)

        def move_goal():
            return MoveToJoints.Goal(joint_names=["j1"], positions=[0.0])

        round_trips(executor, move, move_goal, 10)  # warm-up
        action_ms = round_trips(executor, move, move_goal, goals)
        tree_ms = round_trips(executor, execute, lambda: ExecuteTree.Goal(target_tree="Trivial"),
                              max(10, goals // 4))

        sent = execute.send_goal_async(ExecuteTree.Goal(target_tree="TickProbeTree"))
        spin_until(executor, sent, 5.0)
        result = sent.result().get_result_async()
        spin_until(executor, result, seconds + 10.0)
        stamps = json.loads(probe_file.read_text())
        periods = [(b - a) * 1000.0 for a, b in zip(stamps, stamps[1:])]
        nominal = 1000.0 / TICK_HZ
        deviation = [abs(p - nominal) for p in periods]

        median_rt = statistics.median(action_ms)
        verdict = "PASS" if median_rt < TARGET_ROUNDTRIP_MS else "MISS"
        load = os.getloadavg()[0]
        print(f"ROS_DOMAIN_ID={env.domain_id}, loopback DDS, SingleThreadedExecutor everywhere; "
              f"load average {load:.1f} on {os.cpu_count()} CPUs (numbers grow with load)")
        print(f"action goal->result round trip (MoveToJoints, N={goals}): median {median_rt:.2f} ms, "
              f"p99 {percentile(action_ms, 99):.2f} ms, max {max(action_ms):.2f} ms  "
              f"[target median < {TARGET_ROUNDTRIP_MS:.0f} ms: {verdict}]")
        print(f"ExecuteTree round trip, one-node tree (N={len(tree_ms)}): median {statistics.median(tree_ms):.2f} ms, "
              f"p99 {percentile(tree_ms, 99):.2f} ms")
        print(f"tick period at {TICK_HZ:.0f} Hz over {seconds:.1f} s ({len(periods)} periods): "
              f"median {statistics.median(periods):.3f} ms, p99 {percentile(periods, 99):.3f} ms, "
              f"max {max(periods):.3f} ms; |period - {nominal:.0f} ms|: median {statistics.median(deviation):.3f} ms, "
              f"p99 {percentile(deviation, 99):.3f} ms; achieved {len(periods) / (stamps[-1] - stamps[0]):.1f} Hz")
        code = 0 if verdict == "PASS" else 1
    finally:
        executor.shutdown()
        move.destroy()
        execute.destroy()
        node.destroy_node()
        rclpy.try_shutdown(context=context)
        report = launcher.stop_all()
        if not report.clean:
            print(f"cleanup: {report.leftover_pids} {sorted(report.leftover_segments)}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
