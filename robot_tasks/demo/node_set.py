"""One node set for many episodes: start the nodes once, reset the scene between episodes.

Starting and stopping a cell's processes costs about 4 s of a 10.8 s stacking episode at
real-time factor 0. Episodes of one task at one real-time factor need nothing else from a
fresh start: the sim can rebuild its scene with the next episode's seed (its
`reset_scene` service, as bench/faults_soak.py uses it), so a bench keeps the nodes
running and resets between episodes (`run_demo(..., nodes=SharedNodes(...))`).

Why nothing of one episode reaches the next:

- sim: reset_scene rebuilds the World from the seed (robots home, objects respawned, the
  gripper open with nothing in it, a disturbance's effects gone) and aborts a running
  trajectory; /clock keeps counting forward, so no node with use_sim_time sees time jump
  back.
- tree_executor: every ExecuteTree goal builds a new tree, with its own blackboard.
- perception_server: a DetectObjects goal waits for a camera frame newer than the goal.
- arm and gripper servers keep only the goal they run. Before the reset no goal runs: the
  tree ended (which halts its leaves, and they cancel their goals), or the episode's goal
  was cancelled (a timeout, a stall) and its result came back.
- the demo's watcher (ground truth, tree status, the disturbance rule): made anew after the
  reset, so the first poses, counts and phases it sees are this episode's.

An episode that leaves doubt - a node exited, the reset failed, the goal never ran (no
server, no answer, rejected), or its cancel did not end within CANCEL_WAIT_S - marks the set
stale: it is stopped and a fresh one started before the next episode. Each set has its own folder (nodes.log, params, ros_log); an episode's run folder
gets its .btlog and recording moved in from there, and its report names the set
(report.node_set).
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from robot_tasks.demo.report import EpisodeReport
from robot_tasks.demo.session import check_nodes, prepare_run, run_stamp
from robot_tasks.process import Supervisor, child_environment

CANCEL_WAIT_S = 20.0      # wall s for a cancelled tree's result: longer means a server is stuck
RESET_WAIT_S = 60.0       # wall s for reset_scene (the sim answers after its stepping thread did it)
SETTLE_S = 0.5            # wall s after a cancelled run, for the leaves' own cancels to reach the drivers


class SharedNodes:
    """The node set of one task's config, started on first use and reset before each episode.

    `options` is a DemoOptions whose task, rtf, config and scene options every episode shares
    (its seed only seeds the sim's first start; each episode resets with its own).
    """

    def __init__(self, options, say: Callable[[str], None] = print):
        self.options, self.say = options, say
        self.run = self.supervisor = self.probe = self._nodes_log = self._reset_client = None
        self.stale = False
        self.starts = 0
        self.episodes_on_set = 0

    # ---- the set's life ----------------------------------------------------------------
    def start(self) -> None:
        from robot_tasks.ros.client import RosClient
        from robot_tasks_interfaces.srv import ResetScene

        o = self.options
        sim = {"seed": o.seed, "real_time_factor": o.rtf,
               **(o.task.scene_overrides(o) if o.task.scene_overrides else {})}
        self.starts += 1
        self.run = prepare_run(o.config or o.task.config, o.out,
                               f"{o.task.name}_nodes_{run_stamp()}_{self.starts}", {"sim": sim},
                               foxglove=o.foxglove, gui=o.gui)
        self._nodes_log = open(self.run.folder / "nodes.log", "w")
        self.supervisor = Supervisor(self.run.plan, self.run.params, child_environment(self.run.dds_settings),
                                     out=self._nodes_log)
        self.say(f"demo: starting {', '.join(s.name for s in self.run.plan.nodes)} once for several episodes "
                 f"({self.run.folder})")
        self.supervisor.start()
        # DDS: prepare_run has put this process on loopback with the set's domain
        self.probe = RosClient(f"{o.task.name}_node_set", configure_dds=False)
        self._reset_client = self.probe.node.create_client(ResetScene, "/reset_scene")
        self.probe.start_thread()
        self.episodes_on_set, self.stale = 0, False

    def close(self) -> dict:
        """Stop the nodes; their exit codes ({} when none ran)."""
        codes = {}
        if self.probe is not None:
            self.probe.close()
        if self.supervisor is not None:
            self.say("demo: stopping the shared nodes")
            codes = self.supervisor.stop_all()
            self._nodes_log.close()
        self.run = self.supervisor = self.probe = self._nodes_log = self._reset_client = None
        return codes

    def __enter__(self) -> "SharedNodes":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- one episode -------------------------------------------------------------------
    def run_episode(self, seed: int, folder: Path, report: EpisodeReport, make_watcher: Callable, body: Callable,
                    say: Callable[[str], None]):
        """Reset the scene with `seed`, `watcher = make_watcher(status_log)`, return
        `body(watcher, supervisor)` (None when it failed); a run left unfinished is
        cancelled, and a doubt marks the set for a restart."""
        if self.stale:
            say("demo: the last episode left doubt; restarting the node set")
            report.node_set_restarted = {"exit_codes": self.close()}
        if self.supervisor is None:
            self.start()
        report.ros_domain_id = self.run.domain
        report.node_set = {"folder": str(self.run.folder), "start": self.starts,
                           "episodes_before": self.episodes_on_set}
        self.episodes_on_set += 1
        result = watcher = None
        with open(folder / "tree_status.log", "w") as status_log:
            try:
                check_nodes(self.supervisor, report)
                say(f"demo: reset_scene seed {seed} on the running nodes")
                self._reset(seed)
                watcher = make_watcher(status_log)
                result = body(watcher, self.supervisor)
                if result is None:
                    self._end_unfinished(watcher, report, say)
            except RuntimeError as exc:   # a node died, a reset failed: the next episode starts afresh
                say(f"demo: {exc}")
                report.error = report.error or str(exc)
                self.stale = True
            finally:
                if watcher is not None:
                    watcher.close()
        self._move_tree_logs(folder)
        return result

    def _reset(self, seed: int) -> None:
        from robot_tasks_interfaces.srv import ResetScene

        client = self._reset_client    # made with the set: no client created or destroyed while spinning
        if not self.probe.wait_for(client.service_is_ready, RESET_WAIT_S):
            raise RuntimeError(f"no reset_scene service within {RESET_WAIT_S:g} s")
        future = client.call_async(ResetScene.Request(seed=seed))
        if not self.probe.wait_for(future.done, RESET_WAIT_S):
            raise RuntimeError(f"reset_scene(seed {seed}) did not answer within {RESET_WAIT_S:g} s")
        response = future.result()
        if not response.success:
            raise RuntimeError(f"reset_scene failed: {response.message}")

    def _end_unfinished(self, watcher, report: EpisodeReport, say) -> None:
        """The episode gave up on its goal (timeout, stall): cancel it and wait for its result,
        the sign that the tree was halted and its leaves cancelled their goals. A goal with
        no answer, or a cancel that does not end, leaves the servers in doubt: restart."""
        sent = watcher.state.goal
        if sent is None or sent.handle is None or sent.refused:
            self.stale = True      # no server, no answer or a rejection: the executor is in doubt
            return
        if sent.outcome() is None:
            sent.cancel()
            if not self.probe.wait_for(lambda: sent.outcome() is not None, CANCEL_WAIT_S):
                say(f"demo: the cancelled tree did not end within {CANCEL_WAIT_S:g} s")
                self.stale = True
                return
        report.cancelled = sent.outcome()[1].node_status
        say(f"demo: the unfinished tree was cancelled ({report.cancelled})")
        time.sleep(SETTLE_S)

    def _move_tree_logs(self, folder: Path) -> None:
        """The tree executor writes a .btlog and a recording per run into the set's folder:
        this episode's (the only ones there now) go to its run folder."""
        if self.run is None:
            return
        for path in list(self.run.folder.glob("*.btlog")) + list(self.run.folder.glob("*.replay.jsonl")):
            path.rename(folder / path.name)
