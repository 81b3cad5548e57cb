"""A run's report: what one episode did, filled in as it happens, written once at its end.

Everyone who learns something about the run writes it into one `EpisodeReport`: the runner
(what was asked, the tree's result, the times, the disturbance), the session that runs the
nodes (how they ended, an error), a shared node set (which set, whether it restarted), the
task's grader (its items, under the task's own key: "cubes", "bins", "press") and follower
(its summary), and the recorders (images, trace, bag, the tree's logs). At the end
`write_report` turns it into report.json. What was asked (scene, tree, seed, disturb,
real_time_factor, ros_domain_id, success) is always in the file; any other field nobody set
(None) is left out, so `"error" in report` still means that something went wrong.

    report = EpisodeReport(scene="franka_stacking", tree="FrankaStacking", seed=3,
                           disturb="knock", real_time_factor=1.0)
    report.error = "node 'sim' exited with code -9 (see nodes.log)"
    report.graded("cubes", rows)
    write_report(run_dir / "report.json", report)
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from pathlib import Path

ALWAYS = ("scene", "tree", "seed", "disturb", "real_time_factor", "ros_domain_id", "success")


@dataclass
class EpisodeReport:
    # what was asked
    scene: str
    tree: str
    seed: int
    disturb: str | None
    real_time_factor: float
    object: str | None = None                 # the chosen object (banana_bowl: banana | lemon)
    ros_domain_id: int | None = None
    success: bool = False
    # how the nodes ran
    node_set: dict | None = None              # a shared set: its folder, start, episodes before this one
    node_set_restarted: dict | None = None    # {"exit_codes": ...} of the set this episode replaced
    node_exit_codes: dict | None = None       # name -> exit code, when the episode stopped its nodes
    error: str | None = None                  # why the run ended without the tree's result
    cancelled: str | None = None              # the status of a tree the runner gave up on and cancelled
    # the tree's run
    wall_time_s: float | None = None          # the whole episode, starting and stopping the nodes too
    sim_time_s: float | None = None           # from the goal to the tree's result
    tree_wall_time_s: float | None = None     # the same window in wall time
    tree_result: dict | None = None           # node_status, error_code, message, ticks
    disturbance: dict | None = None           # request, response, the rule's log
    recoveries: list = field(default_factory=list)
    task_log: list = field(default_factory=list)    # the tree executor's log lines
    phase_windows: dict = field(default_factory=dict)
    final_positions: dict | None = None       # every object's last ground-truth (x, y, z): where a lost one went
    # the grade and the follower's findings, under the task's own keys
    items: dict = field(default_factory=dict)       # {items key: rows} from the grader
    follower: dict = field(default_factory=dict)    # the follower's summary(), merged in
    # what was recorded
    images: list | str | None = None
    images_missing: list | None = None
    montage: str | None = None
    trace: dict | None = None
    bag: dict | None = None
    btlog: str | None = None                  # the .btlog for Groot2's Log Replay
    replay: str | None = None                 # the recording `robot-tasks replay` reads

    def graded(self, key: str, rows: list) -> None:
        """The grader's rows under the task's items key ("cubes", "bins", ...)."""
        self.items[key] = rows

    def as_json(self) -> dict:
        """report.json's content: every field that was set, items and findings at the top level."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("items", "follower"):
                out.update(value)
            elif value is not None or f.name in ALWAYS:
                out[f.name] = value
        return out


def write_report(path: Path, report: EpisodeReport) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report.as_json(), indent=2, sort_keys=False) + "\n")
    return path
