"""Benchmark: what watching in Foxglove costs — the bridge's CPU and the sim's step rate.

    PYTHONPATH=. .venv/bin/python bench/foxglove_bridge.py [--seconds 5] [--repeats 2] [--rtf 0]

One run, on loopback DDS with a fresh ROS_DOMAIN_ID (robot_tasks.testing.launcher), of
the sim (franka_stacking, camera 320x240 at 5 Hz sim time as in the bringup YAML) and
the state_publisher, measured in three conditions, interleaved `--repeats` times:

  no bridge      the bridge process is not running
  bridge idle    the bridge runs, no client connected (it only watches the graph)
  bridge + client  a Foxglove protocol client (test/support/foxglove_client.py) is
                 subscribed to what the layout shows: /tf, /tf_static, joint states,
                 the camera image, object markers, the robot description (no
                 perception_server here, so no detection markers)

Per window of `--seconds`: the sim's step rate (sim time advanced per wall second x
240 Hz, from two /clock samples), CPU of the sim, state_publisher and bridge processes
(% of one core, from /proc/<pid>/stat), and the messages the client received.
With --rtf 0 (default) the sim steps as fast as it can, so any CPU the bridge takes
from it shows as a lower step rate; with --rtf 1 the rate stays 240 unless starved.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "test" / "support"))

from robot_tasks.testing.procfs import cpu_seconds  # noqa: E402

PHYSICS_HZ = 240.0
WATCHED = ["/tf", "/tf_static", "/panda/joint_states", "/camera/image_raw", "/object_markers",
           "/panda/robot_description"]


class ClockSampler:
    """One /clock message on demand (a short-lived best-effort subscription)."""

    def __init__(self, probe):
        self.probe = probe

    def sample(self) -> tuple[float, float]:
        from rclpy.qos import QoSProfile, ReliabilityPolicy
        from rosgraph_msgs.msg import Clock

        got = []
        sub = self.probe.node.create_subscription(
            Clock, "/clock", lambda m: got.append(m.clock.sec + m.clock.nanosec * 1e-9),
            QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT))
        try:
            self.probe.wait_for(lambda: got, "a /clock message", 10.0)
            return time.monotonic(), got[-1]
        finally:
            self.probe.node.destroy_subscription(sub)


class ClientThread:
    """A Foxglove client on its own asyncio loop, subscribed to WATCHED, counting messages."""

    def __init__(self, port: int):
        from foxglove_client import FoxgloveClient

        self.port, self.client_cls = port, FoxgloveClient
        self.client = None
        self.ready, self.stop = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self.thread.start()
        assert self.ready.wait(30.0), "the Foxglove client did not get its channels"

    async def _run(self) -> None:
        self.client = client = await self.client_cls.connect(self.port)
        await client.pump(lambda: set(WATCHED) <= set(client.channels), 20.0, "the watched channels")
        await client.settle()
        await client.subscribe({k + 1: topic for k, topic in enumerate(WATCHED)})
        self.ready.set()
        while not self.stop.is_set():
            try:
                await client.pump(lambda: self.stop.is_set(), 0.2, "")
            except AssertionError:
                pass
        await client.close()

    def received(self) -> int:
        return sum(len(v) for v in self.client.messages.values())

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10.0)


def measure(launcher_procs, sampler, seconds: float, client=None) -> dict:
    before = {name: cpu_seconds(p.pid) for name, p in launcher_procs.items()}
    received0 = client.received() if client else 0
    wall0, sim0 = sampler.sample()
    time.sleep(seconds)
    wall1, sim1 = sampler.sample()
    after = {name: cpu_seconds(p.pid) for name, p in launcher_procs.items()}
    elapsed = wall1 - wall0
    return {"steps_per_s": (sim1 - sim0) / elapsed * PHYSICS_HZ,
            "cpu": {name: 100.0 * (after[name] - before[name]) / elapsed for name in after},
            "messages_per_s": ((client.received() - received0) / elapsed) if client else 0.0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="window length (max 30)")
    parser.add_argument("--repeats", type=int, default=2, help="rounds of the three conditions (max 5)")
    parser.add_argument("--rtf", type=float, default=0.0, help="sim real_time_factor (default 0: flat out)")
    args = parser.parse_args()
    seconds, repeats = max(1.0, min(args.seconds, 30.0)), max(1, min(args.repeats, 5))

    from foxglove_client import bridge_port

    from robot_tasks.testing.launcher import NodeLauncher, RosTestEnv
    from robot_tasks.testing.ros_test_node import RosTestNode, wait_until

    work = Path(tempfile.mkdtemp(prefix="foxglove_bench_"))
    env = RosTestEnv.create(work)
    env.apply_to_current_process()
    launcher = NodeLauncher(env, work / "logs")
    sim = launcher.start_module("robot_tasks.nodes.sim", name="sim", params={
        "scene": "franka_stacking", "real_time_factor": args.rtf, "camera_rate": 5.0,
        "camera_width": 320, "camera_height": 240, "use_sim_time": False})
    state_publisher = launcher.start_module("robot_tasks.nodes.state_publisher", name="state_publisher",
                                            params={"use_sim_time": True})
    probe = RosTestNode("foxglove_bench", env, launcher=launcher)
    rows = []
    try:
        probe.wait_for_publisher("/clock", timeout=30.0)
        probe.wait_for_publisher("/tf", timeout=30.0)
        sampler = ClockSampler(probe)
        for round_ in range(repeats):
            base = {"sim": sim, "state_publisher": state_publisher}
            rows.append(("no bridge", measure(base, sampler, seconds)))
            bridge = launcher.start_module("robot_tasks.nodes.foxglove_bridge", name=f"foxglove_bridge_{round_}",
                                           params={"port": 0, "use_sim_time": True})
            wait_until(lambda: bridge_port(bridge.log_path.read_text()) is not None, "the bridge URL", 30.0,
                       [bridge])
            time.sleep(1.5)                                    # a discovery period: all channels made
            with_bridge = {**base, "bridge": bridge}
            rows.append(("bridge idle", measure(with_bridge, sampler, seconds)))
            client = ClientThread(bridge_port(bridge.log_path.read_text()))
            try:
                time.sleep(1.0)                                # its ROS subscriptions matched
                rows.append(("bridge + client", measure(with_bridge, sampler, seconds, client)))
            finally:
                client.close()
            bridge.stop()
    finally:
        probe.close()
        launcher.stop_all()

    print(f"foxglove bridge cost: sim franka_stacking, real_time_factor {args.rtf:g}, camera 320x240 @ 5 Hz, "
          f"{repeats} x {seconds:g} s windows per condition (ROS_DOMAIN_ID={env.domain_id})")
    print(f"{'condition':<17} {'sim steps/s':>12} {'sim CPU %':>10} {'state_pub CPU %':>16} "
          f"{'bridge CPU %':>13} {'client msgs/s':>14}")
    for condition in ("no bridge", "bridge idle", "bridge + client"):
        got = [r for c, r in rows if c == condition]
        med = lambda f: statistics.median(f(r) for r in got)          # noqa: E731
        bridge_cpu = med(lambda r: r["cpu"].get("bridge", 0.0)) if condition != "no bridge" else float("nan")
        print(f"{condition:<17} {med(lambda r: r['steps_per_s']):>12.0f} {med(lambda r: r['cpu']['sim']):>10.0f} "
              f"{med(lambda r: r['cpu']['state_publisher']):>16.0f} {bridge_cpu:>13.0f} "
              f"{med(lambda r: r['messages_per_s']):>14.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
