"""The franka_press demo: a tree presses a tilted wall through the ROS node set; graded and plotted.

    robot-tasks demo franka_press --out runs/

The nodes of config/franka_press.yaml (sim, arm_server, compliance_server, tree_executor)
are started as `robot-tasks bringup` does, on a fresh ROS_DOMAIN_ID over loopback, and an
ExecuteTree goal runs FrankaPress (trees/franka_press.xml: approach with a trajectory,
guarded touch with "osc", press 10 N with "hybrid_press" while sliding to three poses in
the wall's plane, lift off, switch back, retract). The sequencing is the tree's; this module
only watches and grades:

- while it runs it records, per sim step published (100 Hz), the contact normal force
  between robot and wall and the tool pose (the sim's ground truth, for grading only), the
  Franka's external wrench (franka_robot_state_broadcaster, best effort) and which steps a
  compliant controller drove (its current_pose), and every target compliance_server sent
  (`<controller>/target_frame`: what the controller was told);
- tree_status tells which move ran when; the last SETTLE_WINDOW s of each slide's hold (the
  target at rest) are its steady state.

Run folder: report.json (force mean and standard deviation over the steady states, per
target: force, in-plane error, the target; wall and sim time), press.png (force, in-plane
position and error against sim time), press.csv (the recording behind both),
tree_status.log, nodes.log. Exit code 0 when the tree
succeeded and every steady-state sample is within FORCE_TOLERANCE of 10 N with an in-plane
error below ERROR_LIMIT.
"""
from __future__ import annotations

import bisect
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from robot_tasks.demo.report import write_report
from robot_tasks.demo.session import (
    btlog_entry,
    check_nodes,
    executed,
    prepare_run,
    recording_entry,
    run_stamp,
    run_with_nodes,
    wait_for_server,
    watch_line,
)

TREE_ID = "FrankaPress"
SLIDES = ("slide_1", "slide_2", "slide_3")
FORCE = 10.0
FORCE_TOLERANCE = 1.0      # N
ERROR_LIMIT = 5e-3         # m, in-plane
SETTLE_WINDOW = 0.4        # s at the end of each slide's hold
DEFAULT_CONFIG = Path(__file__).resolve().parents[2] / "config" / "franka_press.yaml"
ROBOT = "panda"


@dataclass
class PressDemoOptions:
    out: Path = Path("runs")
    rtf: float = 1.0
    timeout: float = 180.0            # wall s for the whole run
    startup_timeout: float = 120.0    # wall s for the executor to come up
    config: Path = DEFAULT_CONFIG
    foxglove: bool = False            # also run the optional Foxglove bridge
    gui: bool = False                 # the sim in PyBullet's window instead of headless


COMPLIANT = ("osc", "hybrid_press")       # the controllers FrankaPress commands


@dataclass
class PressRecord:
    """What the callbacks saw (executor thread), read under `lock` by the main thread."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    contact: dict = field(default_factory=dict)     # stamp ns -> world force (3)
    tip: dict = field(default_factory=dict)         # stamp ns -> world position (3)
    sensed: dict = field(default_factory=dict)      # stamp ns -> measured wrench's force, base axes (3)
    compliant: set = field(default_factory=set)     # stamps ns at which a compliant controller drove
    targets: dict = field(default_factory=dict)     # stamp ns -> commanded target position (3)
    spans: dict = field(default_factory=dict)       # node name -> [start, end] sim s
    sim_time: float = 0.0


def _seconds(stamp) -> float:
    return stamp.sec + stamp.nanosec * 1e-9


def _key(stamp) -> int:
    return stamp.sec * 1_000_000_000 + stamp.nanosec


class PressWatcher:
    """A RosClient in a thread: ground truth, the wrench, targets, tree_status, /clock in."""

    def __init__(self, record: PressRecord, status_log):
        from geometry_msgs.msg import PoseStamped, WrenchStamped
        from rclpy.action import ActionClient
        from rclpy.qos import QoSProfile, ReliabilityPolicy
        from rosgraph_msgs.msg import Clock

        from robot_tasks.ros.client import RosClient
        from robot_tasks.ros.controller_topics import (
            CONTACT_TRUTH_TOPIC,
            CURRENT_POSE_TOPIC,
            EXTERNAL_WRENCH_TOPIC,
            TARGET_FRAME_TOPIC,
            TIP_TRUTH_TOPIC,
            under,
        )
        from robot_tasks_interfaces.action import ExecuteTree
        from robot_tasks_interfaces.msg import TreeStatus

        self.record, self.status_log = record, status_log
        self.ros = RosClient("press_demo", configure_dds=False)   # the demo set up loopback DDS
        node = self.ros.node
        deep = QoSProfile(depth=200, reliability=ReliabilityPolicy.RELIABLE)
        # franka_robot_state_broadcaster publishes best effort: a reliable subscriber gets nothing
        deep_best_effort = QoSProfile(depth=200, reliability=ReliabilityPolicy.BEST_EFFORT)
        node.create_subscription(WrenchStamped, under(ROBOT, CONTACT_TRUTH_TOPIC), self._on_contact, deep)
        node.create_subscription(PoseStamped, under(ROBOT, TIP_TRUTH_TOPIC), self._on_tip, deep)
        node.create_subscription(WrenchStamped, under(ROBOT, EXTERNAL_WRENCH_TOPIC), self._on_wrench,
                                 deep_best_effort)
        for controller in COMPLIANT:
            node.create_subscription(PoseStamped, under(ROBOT, CURRENT_POSE_TOPIC.format(controller=controller)),
                                     self._on_current_pose, deep)
            node.create_subscription(PoseStamped, under(ROBOT, TARGET_FRAME_TOPIC.format(controller=controller)),
                                     self._on_target, deep)
        node.create_subscription(TreeStatus, "tree_status", self._on_status, QoSProfile(depth=100))
        node.create_subscription(Clock, "/clock", self._on_clock,
                                 QoSProfile(depth=1, reliability=ReliabilityPolicy.BEST_EFFORT))
        self.execute = ActionClient(node, ExecuteTree, "execute_tree")
        self.ExecuteTree = ExecuteTree
        self.ros.start_thread()

    def close(self):
        self.ros.close()

    def _on_clock(self, msg):
        self.record.sim_time = _seconds(msg.clock)

    def _on_contact(self, msg):
        f = msg.wrench.force
        with self.record.lock:
            self.record.contact[_key(msg.header.stamp)] = (f.x, f.y, f.z)

    def _on_tip(self, msg):
        p = msg.pose.position
        with self.record.lock:
            self.record.tip[_key(msg.header.stamp)] = (p.x, p.y, p.z)

    def _on_wrench(self, msg):
        f = msg.wrench.force
        with self.record.lock:
            self.record.sensed[_key(msg.header.stamp)] = (f.x, f.y, f.z)

    def _on_current_pose(self, msg):
        with self.record.lock:
            self.record.compliant.add(_key(msg.header.stamp))

    def _on_target(self, msg):
        p = msg.pose.position
        with self.record.lock:
            self.record.targets[_key(msg.header.stamp)] = (p.x, p.y, p.z)

    def _on_status(self, msg):
        rec = self.record
        t = _seconds(msg.header.stamp) or rec.sim_time
        for change in msg.changes:
            self.status_log.write(f"{t:9.3f} tick {msg.tick_count:6d} {change.path} "
                                  f"{change.previous_status} -> {change.status}\n")
            with rec.lock:
                if change.status == "RUNNING":
                    rec.spans[change.name] = [t, None]
                elif change.name in rec.spans and change.previous_status == "RUNNING":
                    rec.spans[change.name][1] = t


def commanded(targets: dict, keys) -> list:
    """For each stamp of `keys`, the newest target sent at or before it (None before the first)."""
    stamps = sorted(targets)
    out = []
    for key in keys:
        k = bisect.bisect_right(stamps, key)
        out.append(targets[stamps[k - 1]] if k else None)
    return out


def press_log(record: PressRecord, wall):
    """The recording as a PressLog in the wall frame (phase k = SLIDES[k], -1 otherwise).

    A step's target is the newest one compliance_server had sent by then while a compliant
    controller drove the arm, and the tool itself while the trajectory controller did."""
    from robot_tasks.control.compliance import along_normal, to_frame
    from robot_tasks.sim.press_episode import PressLog

    log = PressLog()
    with record.lock:
        keys = sorted(set(record.contact) & set(record.tip) & set(record.sensed))
        spans = {k: v for k, v in record.spans.items() if k in SLIDES and v[1] is not None}
        targets = commanded(record.targets, keys)
        rows = [(k, record.contact[k], record.tip[k], record.sensed[k],
                 target if k in record.compliant and target is not None else record.tip[k])
                for k, target in zip(keys, targets)]
    previous = None
    for key, contact, tip, sensed, target in rows:
        t = key * 1e-9
        target_in_wall = to_frame(wall, target)
        phase = next((SLIDES.index(n) for n, (a, b) in spans.items() if a <= t <= b), -1)
        log.time.append(t)
        log.contact_force.append(along_normal(wall, contact))
        log.sensed_force.append(along_normal(wall, sensed))
        log.tip.append(to_frame(wall, tip))
        log.target.append(target_in_wall[:2])
        log.phase.append(phase)
        log.holding.append(previous is not None and np.allclose(target_in_wall, previous, atol=1e-7))
        previous = target_in_wall
    return log


def grade(log) -> dict:
    """Steady-state force and in-plane error per slide, and over all of them."""
    a = log.arrays()
    per_target, forces = [], []
    for k, name in enumerate(SLIDES):
        settled = log.settled(k, last=SETTLE_WINDOW) if len(a["time"]) else np.zeros(0, bool)
        if not settled.any():
            per_target.append({"move": name, "ok": False, "reason": "no steady state recorded"})
            continue
        force = a["contact_force"][settled]
        error = np.linalg.norm(a["tip"][settled, :2] - a["target"][settled], axis=1)
        forces.append(force)
        per_target.append({
            "move": name, "target_in_wall_m": [round(float(v), 4) for v in a["target"][settled][-1]],
            "samples": int(settled.sum()), "force_mean_n": round(float(force.mean()), 3),
            "force_std_n": round(float(force.std()), 3),
            "force_min_n": round(float(force.min()), 3), "force_max_n": round(float(force.max()), 3),
            "in_plane_error_mean_mm": round(float(error.mean()) * 1000, 3),
            "in_plane_error_max_mm": round(float(error.max()) * 1000, 3),
            "ok": bool(np.all(np.abs(force - FORCE) < FORCE_TOLERANCE) and error.max() < ERROR_LIMIT)})
    everything = np.concatenate(forces) if forces else np.zeros(0)
    summary = {"force_mean_n": round(float(everything.mean()), 3) if everything.size else None,
               "force_std_n": round(float(everything.std()), 3) if everything.size else None,
               "touch_down_peak_n": round(float(a["contact_force"].max()), 2) if len(a["time"]) else None}
    return {"steady_state": summary, "targets": per_target,
            "ok": bool(per_target and all(t["ok"] for t in per_target))}


def write_press_csv(log, path: Path) -> Path:
    """The recording, one row per published sim step (wall frame, metres and newtons)."""
    a = log.arrays()
    columns = np.column_stack([a["time"], a["contact_force"], a["sensed_force"], a["tip"], a["target"],
                               a["phase"], a["holding"]])
    header = "time_s,contact_force_n,sensed_force_n,tip_x,tip_y,tip_z,target_x,target_y,phase,holding"
    np.savetxt(path, columns, delimiter=",", header=header, comments="", fmt="%.6f")
    return path


def run_press(*, out: Path = Path("runs"), rtf: float = 1.0, timeout: float | None = None,
              config: Path | None = None, foxglove: bool = False, gui: bool = False,
              say: Callable[[str], None] = print) -> int:
    """The press demo as robot_tasks/demo/task_demo.py runs a task with a runner of its own."""
    options = PressDemoOptions(out=out, rtf=rtf, foxglove=foxglove, gui=gui)
    if timeout is not None:
        options.timeout = timeout
    if config is not None:
        options.config = config
    return run_press_demo(options, say=say)


def run_press_demo(options: PressDemoOptions, say: Callable[[str], None] = print) -> int:
    """Run FrankaPress once; 0 when the tree succeeded and the press met its targets, else 1."""
    from robot_tasks.demo.press_plot import draw_press
    from robot_tasks.sim.scenes.franka_press import wall_frame

    run = prepare_run(options.config, options.out, f"franka_press_{run_stamp()}",
                      {"sim": {"real_time_factor": options.rtf}}, foxglove=options.foxglove, gui=options.gui)
    run_dir = run.folder
    record = PressRecord()
    report = {"scene": "franka_press", "tree": TREE_ID, "real_time_factor": options.rtf,
              "ros_domain_id": run.domain, "success": False}
    say(f"demo: run folder {run_dir}")
    watch = watch_line(run.plan)
    if watch:
        say(watch)
    wall_start = time.monotonic()
    result = run_with_nodes(run, report, lambda status_log: PressWatcher(record, status_log),
                            lambda watcher, supervisor: _execute(watcher, supervisor, record, options, say,
                                                                 report), say)
    report["wall_time_s"] = round(time.monotonic() - wall_start, 2)
    log = press_log(record, wall_frame())
    report["press"] = grade(log)
    with record.lock:
        report["moves"] = {name: [round(v, 3) if v is not None else None for v in span]
                           for name, span in record.spans.items()}
    if log.time:
        write_press_csv(log, run_dir / "press.csv")
        draw_press(log, run_dir / "press.png", title="franka_press demo (ROS): FrankaPress tree, "
                   "hybrid_press 10 N into the 45° wall, three in-plane poses")
        report["plot"] = "press.png"
    report["success"] = bool(result == "SUCCESS" and report["press"]["ok"])
    report.update(btlog_entry(run_dir))
    report.update(recording_entry(run_dir))
    write_report(run_dir / "report.json", report)
    steady = report["press"]["steady_state"]
    say(f"demo: {'SUCCESS' if report['success'] else 'FAILED'} - force {steady['force_mean_n']} ± "
        f"{steady['force_std_n']} N; in-plane error max " +
        ", ".join(f"{t.get('in_plane_error_max_mm', '?')} mm" for t in report["press"]["targets"]) +
        f"; wall {report['wall_time_s']} s, sim {report.get('sim_time_s', '?')} s; see {run_dir}/report.json")
    return 0 if report["success"] else 1


def _execute(watcher, supervisor, record, options, say, report) -> str | None:
    """Send the ExecuteTree goal and wait for its result; the tree's node_status or None."""
    if not wait_for_server(watcher.execute, supervisor, report, options.startup_timeout):
        say(f"demo: {report['error']}")
        return None
    from robot_tasks.ros.driver_goal import DriverGoal

    sent = DriverGoal(watcher.execute, watcher.ExecuteTree.Goal(target_tree=TREE_ID))
    sim_start = record.sim_time
    say(f"demo: running {TREE_ID}")
    deadline, seen = time.monotonic() + options.timeout, set()
    while True:
        check_nodes(supervisor, report)
        if time.monotonic() > deadline:
            report["error"] = f"timed out after {options.timeout} s"
            return None
        outcome = executed(sent, report)
        with record.lock:
            started = [n for n in record.spans if n not in seen]
        for name in started:
            seen.add(name)
            say(f"[sim {record.sim_time:6.2f} s] {name}")
        if outcome is not None:
            result = outcome[1]
            report["sim_time_s"] = round(record.sim_time - sim_start, 2)
            report["tree_result"] = {"node_status": result.node_status, "message": result.return_message}
            say(f"demo: tree finished: {result.node_status} ({result.return_message or 'no message'})")
            return result.node_status
        time.sleep(0.05)
