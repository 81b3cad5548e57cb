"""Soak: back-to-back FrankaStacking episodes at --rtf 0 on ONE node set; nothing may grow.

The nodes of config/franka_stacking.yaml are started once (the sim as fast as it can,
real_time_factor 0). Each episode resets the scene (reset_scene, seed + episode: /clock
keeps counting), runs the FrankaStacking tree through ExecuteTree, and is graded on the
sim's ground truth (judge_stack, as the demo grades it). After each episode every node's
resident memory (RSS), open file descriptors and Fast DDS /dev/shm files are sampled.
The soak ends after `--soak-sim-s` s of sim time (default 3600, the issue's hour) or
`--soak-wall-s` of wall time, whichever comes first.

Passed when, comparing the last sample with the one after the first (warm-up) episode,
every node's RSS grew by at most 10 %, its fd count by at most FD_SLACK, and the set of
/dev/shm files our nodes hold did not grow — and every episode ended (success or not:
the stacking success rate is bench/stacking_success.py's business; it is printed here).
"""
from __future__ import annotations

import threading
import time

from fault_cell import StackCell

from robot_tasks.testing.procfs import open_fd_count, rss_kb

RSS_GROWTH = 0.10
FD_SLACK = 2          # a file being read at the moment of sampling
EPISODE_WALL_S = 900  # one episode at rtf 0 on a loaded 2-core machine takes 1-3 min


class SimClock:
    """The latest /clock reading, in sim seconds."""

    def __init__(self, probe):
        from rclpy.qos import QoSProfile, ReliabilityPolicy
        from rosgraph_msgs.msg import Clock

        self.now = 0.0
        self.lock = threading.Lock()
        probe.node.create_subscription(Clock, "/clock", self._on,
                                       QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT))

    def _on(self, msg):
        with self.lock:
            self.now = msg.clock.sec + msg.clock.nanosec * 1e-9


def sample(pids: dict[str, int]) -> dict:
    """{node: (RSS kB, open fds)} and the Fast DDS /dev/shm files they hold."""
    from robot_tasks.testing.procfs import fastdds_segments_of

    shm = set()
    for pid in pids.values():
        shm |= fastdds_segments_of(pid)
    return {"nodes": {name: (rss_kb(pid), open_fd_count(pid)) for name, pid in pids.items()}, "shm": shm}


def _reset(cell, seed: int) -> None:
    from robot_tasks_interfaces.srv import ResetScene

    client = cell.probe.run_on_executor(lambda: cell.probe.node.create_client(ResetScene, "/reset_scene"),
                                        "creating the reset_scene client")
    cell.probe.wait_for(client.service_is_ready, "the reset_scene service", 30.0)
    response = cell.probe.wait_future(client.call_async(ResetScene.Request(seed=seed)), 60.0, "reset_scene")
    cell.probe.run_on_executor(lambda: cell.probe.node.destroy_client(client), "destroying the reset client")
    if not response.success:
        raise RuntimeError(f"reset_scene failed: {response.message}")


def _graded(objects) -> bool:
    from robot_tasks.tasks.stacking.grade import judge_stack

    positions = {name: objects.position(name).tolist() for name in objects.objects}
    return all(c["ok"] for c in judge_stack(positions))


def soak(args):
    from server_helpers import ObjectWatcher

    wall_limit = args.soak_wall_s or 3 * args.soak_sim_s + 600
    episodes, stacked, wall_start = [], 0, time.monotonic()
    with StackCell(real_time_factor=0.0, seed=args.seed) as cell:
        clock, objects = SimClock(cell.probe), ObjectWatcher(cell.probe, "/objects")
        pids = cell.stack.pids()
        cell.probe.wait_for(lambda: clock.now > 0, "/clock", 30.0)
        sim_start = clock.now
        while clock.now - sim_start < args.soak_sim_s and time.monotonic() - wall_start < wall_limit:
            _reset(cell, args.seed + len(episodes))
            episode_sim = clock.now
            result, took = cell.run_tree("FrankaStacking", "", EPISODE_WALL_S)
            time.sleep(0.5)                                  # the last /objects of this episode
            ok = result.node_status == "SUCCESS" and _graded(objects)
            stacked += ok
            episodes.append({"sim_s": clock.now - episode_sim, "wall_s": took, "ok": ok, **sample(pids)})
            print(f"  soak episode {len(episodes)}: {result.node_status}, stacked {ok}, "
                  f"{episodes[-1]['sim_s']:.0f} sim s in {took:.0f} wall s, RSS "
                  + ", ".join(f"{n} {r // 1024} MB/{f} fds" for n, (r, f) in episodes[-1]["nodes"].items()),
                  flush=True)
        same_pids = cell.stack.pids() == pids
        sim_total = clock.now - sim_start
    if len(episodes) < 2:
        return False, f"only {len(episodes)} episode(s) in {sim_total:.0f} sim s: nothing to compare"
    warm, last = episodes[0], episodes[-1]
    grew = [f"{n} RSS {warm['nodes'][n][0]} -> {last['nodes'][n][0]} kB" for n in warm["nodes"]
            if last["nodes"][n][0] > warm["nodes"][n][0] * (1 + RSS_GROWTH)]
    grew += [f"{n} fds {warm['nodes'][n][1]} -> {last['nodes'][n][1]}" for n in warm["nodes"]
             if last["nodes"][n][1] > warm["nodes"][n][1] + FD_SLACK]
    if len(last["shm"]) > len(warm["shm"]):
        grew.append(f"/dev/shm files {len(warm['shm'])} -> {len(last['shm'])}")
    rss = ", ".join(f"{n} {warm['nodes'][n][0] // 1024}->{last['nodes'][n][0] // 1024} MB" for n in warm["nodes"])
    ok = not grew and same_pids and cell.leftovers is None
    return ok, (f"{len(episodes)} episodes, {sim_total:.0f} sim s in {time.monotonic() - wall_start:.0f} wall s, "
                f"{stacked} stacked; RSS after warm-up {rss}; /dev/shm {len(warm['shm'])}->{len(last['shm'])}; "
                f"grew: {grew or 'nothing'}; nodes restarted: {not same_pids}; leftovers {cell.leftovers}")


SCENARIOS = {"soak": soak}
