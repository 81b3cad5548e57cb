"""Seeded banana_bowl episodes, one after the other: for a dataset of demonstrations and for
the success bench.

An episode is a full `robot-tasks demo banana_bowl` run (real processes over loopback DDS,
by default one node set for all of them, the scene reset with each episode's seed):
its run folder holds report.json (the two-part success check), trace.npz (state/action per
control step), bag/ (rosbag2, MCAP storage) and images/. `record_dataset` keeps only the
successful episodes, each under DIR/episode_NNNN/, and writes DIR/index.json:

    {"task": "banana_bowl", "episodes": [{"episode": 0, "seed": 7, "object": "banana",
      "success": {"within_footprint": true, "inside_bowl": true, "success": true},
      "length": 1646, "duration_s": 6.85, "files": {"trace": "episode_0000/trace.npz", ...}}],
     "attempted": 12, "kept": 10, "skipped": [{"seed": 3, "why": "inside_bowl false"}]}

The trace's rows are the episode's time steps: state_t and action_t aligned in time, the
episode's boundaries are its first and last row; the bag holds the same run's topics
(images at the chosen rate) on the same sim clock.
"""
from __future__ import annotations

import json
import re
import shutil
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from robot_tasks.demo.node_set import SharedNodes
from robot_tasks.demo.runner import DemoOptions, run_demo, run_folder_prefix
from robot_tasks.tasks.banana_bowl.episode import BANANA_BOWL

COMPONENTS = ("within_footprint", "inside_bowl")
_FAILED_LEAF = re.compile(r"last failed leaf: (?:\S+/)?(\w+) .*?error_code \d+ (\w+)")


@dataclass(frozen=True)
class Episode:
    seed: int
    pick_object: str
    exit_code: int
    folder: Path | None
    report: dict

    @property
    def success(self) -> bool:
        return self.exit_code == 0 and bool(self.report.get("success"))

    def failure(self) -> str:
        """Why it failed, by component: "within_footprint", "inside_bowl", "both", or the
        tree / run error when the check never ran on a finished tree."""
        placement = self.report.get("placement", {})
        if self.report.get("tree_result", {}).get("node_status") not in ("SUCCESS", None) or "error" in self.report:
            message = self.report.get("error") or self.report.get("tree_result", {}).get("message") or "tree failed"
            leaf = _FAILED_LEAF.search(message)
            return f"run: {leaf.group(1)} {leaf.group(2)}" if leaf else f"run: {message[:80]}"
        missed = [c for c in COMPONENTS if placement.get(c) is False]
        if len(missed) == 2:
            return "both"
        return missed[0] if missed else ("" if self.success else "trace" if "error" in self.report.get("trace", {})
                                         else "unknown")


def run_episode(seed: int, pick_object: str, out: Path, rtf: float = 1.0, render: bool = True,
                timeout: float = 600.0, nodes=None) -> Episode:
    """One demo episode; on `nodes` (a SharedNodes) when given, else on a node set of its own."""
    options = DemoOptions(task=BANANA_BOWL, seed=seed, out=out, rtf=rtf, timeout=timeout,
                          pick_object=pick_object, render=render)
    code = run_demo(options, say=lambda _line: None, nodes=nodes)
    folders = sorted(Path(out).glob(run_folder_prefix(BANANA_BOWL.name, seed, pick_object=pick_object) + "*"))
    report = json.loads((folders[-1] / "report.json").read_text()) if folders else {}
    return Episode(seed, pick_object, code, folders[-1] if folders else None, report)


def record_dataset(episodes: int, out: Path, pick_object: str = "banana", first_seed: int = 0,
                   render: bool = True, rtf: float = 1.0, max_attempts: int | None = None,
                   progress: Callable[[int, int, Episode | None], None] = lambda *_: None,
                   reuse_nodes: bool = True) -> dict:
    """Run seeds first_seed, first_seed+1, ... until `episodes` succeeded (or max_attempts,
    default 2 x episodes, were tried); keep the successful ones; write and return the index.
    `reuse_nodes`: every episode on one node set, the scene reset with each seed
    (robot_tasks/demo/node_set.py); False starts and stops the nodes for each episode."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    work = out / "_runs"
    # the node set's folder (its nodes.log) stays with the dataset: each report names it
    shared = SharedNodes(DemoOptions(task=BANANA_BOWL, seed=first_seed, out=out, rtf=rtf, pick_object=pick_object,
                                     render=render), say=lambda _line: None) if reuse_nodes else nullcontext()
    with shared as nodes:
        index = _record(episodes, work, out, pick_object, first_seed, render, rtf, max_attempts, progress, nodes)
    shutil.rmtree(work, ignore_errors=True)
    (out / "index.json").write_text(json.dumps(index, indent=2) + "\n")
    return index


def _record(episodes, work, out, pick_object, first_seed, render, rtf, max_attempts, progress, nodes) -> dict:
    index = {"task": "banana_bowl", "object": pick_object, "episodes": [], "attempted": 0, "kept": 0, "skipped": []}
    limit = max_attempts if max_attempts is not None else 2 * episodes
    seed = first_seed
    progress(0, episodes, None)
    while index["kept"] < episodes and index["attempted"] < limit:
        episode = run_episode(seed, pick_object, work, rtf=rtf, render=render, nodes=nodes)
        index["attempted"] += 1
        if episode.success and (episode.folder / "trace.npz").is_file():
            index["episodes"].append(_keep(episode, out, index["kept"]))
            index["kept"] += 1
        else:
            index["skipped"].append({"seed": seed, "why": episode.failure() or "no trace"})
        progress(index["kept"], episodes, episode)
        seed += 1
    return index


def _keep(episode: Episode, out: Path, number: int) -> dict:
    name = f"episode_{number:04d}"
    target = out / name
    shutil.move(str(episode.folder), target)
    report, trace = episode.report, episode.report.get("trace", {})
    files = {"report": f"{name}/report.json", "trace": f"{name}/trace.npz", "bag": f"{name}/bag"}
    if (target / "images").is_dir():
        files["images"] = f"{name}/images"
    placement = report.get("placement", {})
    return {"episode": number, "seed": episode.seed, "object": episode.pick_object,
            "success": {c: placement.get(c) for c in (*COMPONENTS, "success")},
            "length": trace.get("length"), "duration_s": trace.get("duration_s"), "files": files}
