"""One demo episode of any task: start the node set, run the tree, disturb it, write a run folder.

    robot-tasks demo franka_stacking --seed 3 --disturb knock --out runs/
    robot-tasks demo ur10_palletizing --seed 1 --disturb drop

A task is a `DemoTask` (robot_tasks/tasks/episode.py; each task's is in its package,
tasks/<task>/episode.py): its bringup YAML, tree, the nodes whose start is a "phase", the node
statuses that mean a recovery, its disturbance rule and how the sim's ground truth grades the
end; or, for a task graded on what happened over time (the press: force and pose at every step),
the topics its follower records and how that recording is graded (DemoTask.follow_topics,
grade_followed: press.csv, press.png and report.json's "press" section).

Steps: the nodes of config/<task>.yaml are started exactly as `robot-tasks bringup` does
(same YAML, the sim's seed/real-time factor overridden in a copy), on a fresh
ROS_DOMAIN_ID; then an ExecuteTree goal for the task's tree is sent. While it runs, the
tree_status topic drives the progress lines, the montage (a camera frame after each
phase) and the disturbance (sent through the sim's perturb_object service). At the end
the sim's ground truth grades the result. Everything learnt on the way goes into one
EpisodeReport (report.py), written once at the end. The run folder holds:

    report.json       success, per-item result (cubes, bins), sim and wall time, disturbance,
                      recoveries, task_log (the tree executor's log: every decision and recovery)
    montage.png       camera frames after each phase, captioned (the first 59, then the last)
    tree_status.log   every node status change (sim time, tick, path, old -> new)
    <tree>_<time>.btlog         the run for Groot2's Log Replay (report.json "btlog")
    <tree>_<time>.replay.jsonl  per tick, what every leaf returned and wrote: `robot-tasks
                      replay <run folder>` re-runs the tree offline from it (report.json "replay")
    nodes.log         the nodes' output, prefixed with their names
and, for a task that names them (banana_bowl): images/<NN_name>.png (one per named phase,
plus the start and the end), trace.npz (the demonstration's (T, 9) state/action arrays,
robot_tasks/demo/trace.py) and bag/ (a rosbag2 MCAP bag of the task's topics;
franka_stacking and ur10_palletizing record the arm server's sent trajectories there,
checked by robot_tasks/demo/sent_trajectories.py).
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from robot_tasks.demo.montage import write_montage
from robot_tasks.demo.report import EpisodeReport, write_report
from robot_tasks.demo.run_watcher import RunState, RunWatcher, print_events, send_perturb
from robot_tasks.demo.session import (
    check_nodes,
    executed,
    latest_file,
    prepare_run,
    run_stamp,
    run_with_nodes,
    wait_for_server,
    wait_until,
    watch_line,
)
from robot_tasks.process import foxglove_url, load_plan
from robot_tasks.tasks.episode import DemoTask

# wall s a finished run waits for control steps lost on the way to be resent: longer than
# Fast DDS's heartbeat period (3 s), after which a reliable writer resends what a reader missed
TRACE_REPAIR_WAIT_S = 4.0


@dataclass
class DemoOptions:
    task: DemoTask
    seed: int = 0
    disturb: str | None = None
    out: Path = Path("runs")
    rtf: float = 1.0
    timeout: float = 900.0             # wall s for the whole run
    startup_timeout: float = 120.0     # wall s for the executor to come up
    stall_timeout: float = 60.0        # wall s without any node status change: no progress, give up
    config: Path | None = None         # None: the task's config/<name>.yaml
    foxglove: bool = False             # also run the optional Foxglove bridge
    gui: bool = False                  # the sim in PyBullet's window instead of headless
    pick_object: str | None = None     # the object to pick (banana_bowl: banana | lemon)
    render: bool = True                # False: no images kept (montage, images/, bag camera skipped)
    record: bool = True                # the task's trace.npz and bag/ (when it names them)


def run_folder_prefix(task_name: str, seed: int, disturb: str | None = None, pick_object: str | None = None) -> str:
    """An episode's run-folder name up to the stamp of its start, which follows it:
    `<task>[_<object>]_seed<N>_<disturb|none>_`. The callers that look for an episode's
    folder afterwards match it, so an episode running next to them (another bench lane
    writing to the same folder) is never taken for theirs."""
    object_part = f"_{pick_object}" if pick_object else ""
    return f"{task_name}{object_part}_seed{seed}_{disturb or 'none'}_"


def run_demo(options: DemoOptions, say: Callable[[str], None] = print, nodes=None) -> int:
    """Run one demo episode; return 0 when the task's ground-truth grade is all correct, else 1.
    `nodes`: a robot_tasks.demo.node_set.SharedNodes to run on (its scene reset with this
    seed) instead of starting and stopping a node set of the episode's own."""
    task = options.task
    sim_overrides = {"seed": options.seed, "real_time_factor": options.rtf,
                     **(task.scene_overrides(options) if task.scene_overrides else {})}
    folder_name = run_folder_prefix(task.name, options.seed, options.disturb, options.pick_object) + run_stamp()
    run = None
    if nodes is None:
        run = prepare_run(options.config or task.config, options.out, folder_name,
                          {"sim": sim_overrides}, foxglove=options.foxglove, gui=options.gui)
        run_dir = run.folder
    else:
        run_dir = Path(options.out) / folder_name
        run_dir.mkdir(parents=True, exist_ok=True)
    rule = task.make_rule(options.disturb) if options.disturb else None
    state = RunState(follower=task.follow() if task.follow else None)
    report = EpisodeReport(scene=task.name, tree=task.tree_id, seed=options.seed, disturb=options.disturb,
                           real_time_factor=options.rtf, object=options.pick_object,
                           ros_domain_id=run.domain if run else None)
    say(f"demo: run folder {run_dir}")
    watch = watch_line(run.plan if run else load_plan(options.config or task.config))   # a reused set may start later
    if watch:
        say(watch)
    if options.foxglove:
        say(f"demo: Foxglove: open {foxglove_url(run.plan)} while the demo runs")
    wall_start = time.monotonic()
    watchers = []

    def make_watcher(status_log):
        watchers.append(RunWatcher(task, state, status_log, options, run_dir))
        return watchers[-1]

    def body(watcher, supervisor):
        return _run_goal(watcher, supervisor, rule, state, options, say, report)

    if nodes is None:
        result = run_with_nodes(run, report, make_watcher, body, say, starting=f" (seed {options.seed})")
    else:
        result = nodes.run_episode(options.seed, run_dir, report, make_watcher, body, say)
    report.wall_time_s = round(time.monotonic() - wall_start, 2)
    if task.grade_followed is not None:      # graded on what the follower recorded (the press)
        key, rows, all_ok, summary = task.grade_followed(state.follower, run_dir)
    else:
        with state.lock:
            poses, first_poses = dict(state.poses), dict(state.first_poses)
        key, rows, all_ok, summary = task.grade(poses, first_poses, list(state.counted))
    report.graded(key, rows)
    with state.lock:
        report.final_positions = {name: [round(float(v), 4) for v in xyz] for name, xyz in state.positions.items()}
    report.recoveries = state.recoveries
    report.task_log = list(state.task_log)
    if state.follower is not None:
        report.follower = state.follower.summary()
    report.success = bool(result and result.get("node_status") == "SUCCESS" and all_ok)
    report.phase_windows = state.phase_windows
    if task.images:
        _write_images(task, state, options, run_dir, report, say)
    elif state.frames:
        write_montage(state.frames, run_dir / "montage.png")
        report.montage = "montage.png"
    if watchers:
        _finish_recording(task, watchers[0], state, run_dir, report, say)
    report.btlog = latest_file(run_dir, "*.btlog")
    report.replay = latest_file(run_dir, "*.replay.jsonl")
    write_report(run_dir / "report.json", report)
    if report.btlog:
        say(f"demo: the run's tree, step by step in a browser: robot-tasks monitor --btlog {run_dir / report.btlog}")
    sim = "?" if report.sim_time_s is None else report.sim_time_s
    say(f"demo: {'SUCCESS' if report.success else 'FAILED'} - {summary}"
        f"; wall {report.wall_time_s} s, sim {sim} s; see {run_dir}/report.json")
    return 0 if report.success else 1


def _write_images(task, state, options, run_dir, report, say) -> None:
    """images/<stem>.png for each named frame and their montage, or say they were skipped."""
    from PIL import Image

    if not options.render:
        report.images = "skipped (rendering off: --no-render)"
        say("demo: images skipped (rendering off)")
        return
    order = [task.start_image] + [stem for _, stem in task.images] + [task.done_image]
    folder = run_dir / "images"
    folder.mkdir(exist_ok=True)
    kept = [(stem, state.named_frames[stem]) for stem in order if stem in state.named_frames]
    for stem, pixels in kept:
        Image.fromarray(pixels).save(folder / f"{stem}.png")
    report.images = [f"images/{stem}.png" for stem, _ in kept]
    missing = [stem for stem in order if stem not in state.named_frames]
    if missing:
        report.images_missing = missing          # the phase never succeeded, or no frame had come
    if kept:
        write_montage(kept, run_dir / "montage.png", columns=4)
        report.montage = "montage.png"


def _finish_recording(task, watcher, state, run_dir, report, say) -> None:
    """trace.npz with its checks, and the bag's message counts, into the report."""
    from robot_tasks.demo.trace import TraceError

    if watcher.trace is not None:
        trace = watcher.trace.trace()
        entry = {"file": "trace.npz", "received": watcher.trace.received(),
                 "received_total": dict(watcher.trace.counts)}
        try:
            entry.update(trace.check())
            trace.save(run_dir / "trace.npz")
        except TraceError as err:
            entry["error"] = str(err)
        steps = {}
        for phase in task.bounded_phases:
            window = state.phase_windows.get(phase)
            if window and window[1] is not None:
                steps[phase] = round(trace.window(*window).max_arm_step(), 6)
        entry["max_arm_step_in"] = steps
        report.trace = entry
        say(f"demo: trace {entry.get('shape', '?')} ({entry.get('error', 'checks passed')}); "
            f"max arm command step {steps} rad")
    if watcher.bag is not None:
        report.bag = {"path": "bag", "messages": watcher.bag_counts}


def _run_goal(watcher, supervisor, rule, state, options, say, report) -> dict | None:
    """Wait for the executor, send the goal, follow it; returns the result fields or None."""
    if not wait_for_server(watcher.execute, supervisor, report, options.startup_timeout):
        say(f"demo: {report.error}")
        return None
    task = options.task
    if task.start_image and options.render:
        wait_until(lambda: watcher.capture_named(task.start_image), time.monotonic() + 20.0, supervisor, report,
                    period=0.2)
    payload = task.payload(options) if task.payload else {}
    goal = watcher.ExecuteTree.Goal(target_tree=task.tree_id, payload=json.dumps(payload) if payload else "")
    # the run's sim time starts from the watcher's /clock: a watcher made just now may not have one yet
    clock_deadline = time.monotonic() + options.startup_timeout
    wait_until(lambda: state.sim_time != 0.0, clock_deadline, supervisor, report)
    if watcher.trace is not None:     # a demonstration recorded from its first step on
        if not wait_until(watcher.recording_matched, clock_deadline, supervisor, report):
            say(f"demo: warning: no publisher matched on {watcher.trace.unmatched() or 'the bag of the trace topics'} "
                f"in {options.startup_timeout:.0f} s; the trace starts when it does")
    from robot_tasks.ros.driver_goal import DriverGoal

    sent = state.goal = DriverGoal(watcher.execute, goal)
    sim_start, wall_start = state.sim_time, time.monotonic()
    say(f"demo: running {options.task.tree_id}")
    perturb_future = None
    deadline = wall_start + options.timeout
    while True:
        check_nodes(supervisor, report)
        if time.monotonic() > deadline:
            report.error = f"timed out after {options.timeout} s"
            say(f"demo: {report.error}; cancelling")
            return None
        if time.monotonic() - max(state.last_status_wall, wall_start) > options.stall_timeout:
            # tree_status carries status *changes* only: silence means no node moved on
            # (a stuck leaf or a stopped executor), not necessarily that ticking stopped.
            report.error = (f"no node changed status for {options.stall_timeout:.0f} s: the tree made "
                            f"no progress (see nodes.log)")
            say(f"demo: {report.error}")
            return None
        outcome = executed(sent, report)
        print_events(state, wall_start, say, rule)
        if rule is not None and perturb_future is None:
            rule.on_task_log(list(state.task_log), state.sim_time)
            with state.lock:
                request = rule.due(state.sim_time, dict(state.poses))
            if request is not None:
                perturb_future = send_perturb(watcher, request)
                report.disturbance = {"request": {**request, "target": list(request["target"])}}
                say(f"demo: disturbance {request['mode']} {request['object_name']}")
        if perturb_future is not None and perturb_future.done() and "response" not in report.disturbance:
            response = perturb_future.result()
            report.disturbance["response"] = {"success": response.success, "message": response.message}
            say(f"demo: perturb_object: {'ok' if response.success else 'FAILED'}: {response.message}")
        if outcome is not None:
            result = outcome[1]
            report.sim_time_s = round(state.sim_time - sim_start, 2)
            # the same window in wall time (wall_time_s also counts starting and stopping the nodes)
            report.tree_wall_time_s = round(time.monotonic() - wall_start, 2)
            report.tree_result = {"node_status": result.node_status, "error_code": int(result.error_code),
                                  "message": result.return_message, "ticks": int(result.tick_count)}
            print_events(state, wall_start, say, rule)
            say(f"demo: tree finished: {result.node_status} ({result.return_message or 'no message'})")
            if rule is not None:
                report.disturbance = {**(report.disturbance or {}), "log": rule.log}
            time.sleep(1.0)   # one more ground-truth message after the last release settles
            missing = watcher.trace.missing_steps() if watcher.trace is not None else 0
            if missing:
                # a step lost on the way is resent after the writer's next heartbeat (Fast DDS:
                # every 3 s): at rtf 0 an episode can end sooner than that
                say(f"demo: {missing} control steps missing from the trace: waiting up to "
                    f"{TRACE_REPAIR_WAIT_S:g} s for their resend")
                wait_until(lambda: watcher.trace.missing_steps() == 0, time.monotonic() + TRACE_REPAIR_WAIT_S,
                           supervisor, report)
            if task.done_image and options.render:
                watcher.capture_named(task.done_image)
            return report.tree_result
        time.sleep(0.05)
