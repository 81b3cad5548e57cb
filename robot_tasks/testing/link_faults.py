"""Faults of the cable between the robot's computer and the task's, and what each must end in.

Three scenarios on a :class:`~robot_tasks.testing.split_cell.SplitCell` (franka_stacking's
nodes split over two network namespaces), each returning a :class:`FaultOutcome` -- passed
or not, one line saying what happened, and the measured numbers. They are the link rows of
bench/faults.py and the tests of test/testing/test_link_faults.py.

``link_blip``      the cable is out for 3 s while the arm moves, then back. The robot's
                   controller cannot hear the task host: it goes on with the trajectory it
                   accepted (a real JTC does the same; only a cancel or a new goal stops it),
                   seen on the robot host's own joint_states. The arm server, without
                   joint_states, aborts its goal with NO_JOINT_STATES and the tree fails
                   quoting it; once the cable is back the next tree run succeeds.
``link_lost``      the cable is out for good: every client on the task host -- a tree run, a
                   MoveToJoints, a gripper and a detection goal -- ends with an error code
                   within its bound, and no process on either host dies, also after the DDS
                   lease of the lost peers (Fast DDS's default, 20 s) has run out; by then the
                   task host's bringup has reported the sim lost (its peer_watch).
``robot_restart``  the robot's computer dies (SIGKILL to its whole bringup) and boots again:
                   the task host, left running, finds the new sim by itself (its bringup
                   reports the sim back) and the next MoveToJoints goal (a home pose: fine
                   from a fresh scene) succeeds.

``server_respawned`` the task computer's arm server is SIGKILLed 2 s into a MoveToJoints goal
                   from `robot-tasks send-goal`; its bringup respawns it 2 s later (the file's
                   respawn_delay). The new server never knew the goal and the old one's endpoints
                   stay in the graph for the DDS lease: send-goal must still end, "server lost",
                   within seconds of the new server being up, and the next goal succeeds.

Every scenario also checks that no packet of its DDS domain reached this machine's own
interfaces (robot_tasks.testing.isolation.TrafficWatch).
"""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from robot_tasks.ros.domains import pick_free_domain_id
from robot_tasks.testing.isolation import TrafficWatch
from robot_tasks.testing.link import plug, unplug
from robot_tasks.testing.netns import TwoHosts
from robot_tasks.testing.split_cell import HOME_GOAL, STAMPED, SplitCell

OUTAGE_S = 3.0
# Bounds (wall s), each with its reason; the measured values are in the README, "Two computers".
NOTICE_BOUND_S = 4.0     # cable out -> the tree's result: joint_state_timeout 1 s + the arm
                         # server's poll + the executor's stall watchdog (0.5 s) + margin
# cable out for good, from a command's start to its result line (process start-up and discovery
# of the local server included, 1-4 s here under load):
CLIENT_BOUND_S = 12.0    # a goal to a server: its startup_wait (5 s) for joint_states/clock/images
TREE_BOUND_S = 16.0      # a tree run: the executor's wait for /clock (2 s) + the leaf's server's 5 s
LEASE_S = 20.0           # Fast DDS's default lease: after it the lost peers leave the graph
PEER_REPORT_SLACK_S = 5.0  # peer_watch's look at the graph (1 s) + the lease check's own period
ROBOT_PEER = "/sim"      # the robot host's node the task host's bringup watches (it skips it)
PEER_SEEN_S = 30.0       # s for the task host to discover the robot's sim over the link, before any fault
SWING = ("execute", "FaultArmSwing", "-p", "{cycles: 1}")
MOVE_TO_JOINTS = ("/move_to_joints", "robot_tasks_interfaces/action/MoveToJoints", HOME_GOAL)
GRIPPER = ("/gripper_command", "robot_tasks_interfaces/action/GripperCommand", "{mode: 0, width: 0.04}")
DETECT = ("/detect_objects", "robot_tasks_interfaces/action/DetectObjects", "{}")
MOVING_RAD_S = 0.01      # a joint faster than this counts as moving


@dataclass
class FaultOutcome:
    ok: bool
    what: str
    numbers: dict = field(default_factory=dict)


class Lines:
    """A process's output lines, each with the wall time it arrived (read in a thread)."""

    def __init__(self, process: subprocess.Popen):
        self.process, self.lines = process, []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self.process.stdout:
            self.lines.append((time.time(), line.rstrip("\n")))

    def wait_for(self, text: str, timeout: float) -> tuple[float, str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            hit = next(((t, line) for t, line in list(self.lines) if text in line), None)
            if hit:
                return hit
            time.sleep(0.05)
        raise TimeoutError(f"no line with {text!r} within {timeout:g} s; last: {[l for _, l in self.lines[-5:]]}")

    def ended(self, timeout: float) -> float | None:
        """Wall time the process ended (None if it did not within `timeout`)."""
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        time.sleep(0.1)                                   # the reader thread takes the last lines
        return time.time()


def _scenario(run, out: Path, seed: int = 0, expected_exits: tuple[str, ...] = ()) -> FaultOutcome:
    """`run(hosts, cell)` inside fresh namespaces and a fresh cell, with the traffic check. A
    bringup "exited with code" line counts against it unless it names one of `expected_exits`
    (a node the scenario kills on purpose, e.g. "[arm_server")."""
    domain = pick_free_domain_id()
    with TrafficWatch(domain) as watch:
        with TwoHosts() as hosts, SplitCell(hosts, out, domain, seed=seed) as cell:
            # a fault of a working cell: the task host has discovered the robot's sim over the link
            # (a cable pulled before that leaves nothing to report lost; on a loaded machine the
            # task host's peer_watch took more than 5 s to list /sim)
            if cell.wait_peer_line("task", f"peer {ROBOT_PEER} is in the ROS graph", PEER_SEEN_S):
                outcome = run(hosts, cell)
            else:
                outcome = FaultOutcome(False, f"the task host never saw {ROBOT_PEER} over the link within "
                                              f"{PEER_SEEN_S:g} s: the scenario did not start", {})
            alive = {h: cell.alive(h) for h in ("robot", "task")}
            exits = [line for line in cell.exits("robot") + cell.exits("task")
                     if not any(line.startswith(node) for node in expected_exits)]
    leaked = watch.report.dds_packets + watch.report.subnet_packets if watch.report else 0
    outcome.numbers.update(processes_alive=alive, exits=exits, leaked_packets=leaked)
    outcome.ok &= all(alive.values()) and not exits and leaked == 0
    outcome.what += f"; every process alive: {all(alive.values())}, exits {exits or 'none'}, leaked packets {leaked}"
    return outcome


# ---- the cable out for 3 s mid-motion --------------------------------------------------------
def link_blip(out: Path, seed: int = 0, outage_s: float = OUTAGE_S) -> FaultOutcome:
    def run(hosts: TwoHosts, cell: SplitCell) -> FaultOutcome:
        probe = Lines(cell.start_on("robot", [sys.executable, "-m", "robot_tasks.testing.joint_probe",
                                              "panda/joint_states", "--seconds", "180"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True))
        tree = Lines(cell.start_cli(*SWING))
        tree.wait_for("running: FaultArmSwing/swing/left_right/left", 60.0)
        _wait_moving(probe, 30.0)                         # the robot's own view: the arm is moving
        time.sleep(0.3)
        out_at = time.time()
        unplug(hosts)
        time.sleep(outage_s)
        plug(hosts)
        back_at = time.time()
        result_at, result = tree.wait_for("result:", 60.0)
        time.sleep(3.0)                                   # the robot's side after the cable is back
        again_code, again_out, again_s = cell.cli(*SWING, "-q", "--timeout", "120", timeout=180)
        arm = _arm_during(probe.lines, out_at, back_at)
        noticed_s = result_at - out_at
        ok = "NO_JOINT_STATES" in result and "FAILURE" in result and noticed_s < NOTICE_BOUND_S and again_code == 0
        return FaultOutcome(ok, (
            f"cable out {outage_s:g} s mid-motion: tree {result.split('(')[0].replace('result: ', '').strip()} "
            f"{noticed_s:.2f} s after it went out ({_code_in(result)}); the robot's own joint_states: {arm['text']}; "
            f"cable back: the next run {'SUCCESS' if again_code == 0 else again_out.strip()[-200:]} in {again_s:.1f} s"),
            {"noticed_s": round(noticed_s, 2), "result": result, "arm": arm, "again_s": round(again_s, 1),
             "again_code": again_code})
    return _scenario(run, out)


def _wait_moving(probe: Lines, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = [json.loads(line) for _, line in probe.lines[-3:] if line.startswith("{")]
        if rows and max(abs(v) for v in rows[-1]["v"][:7]) > 5 * MOVING_RAD_S:
            return
        time.sleep(0.05)
    raise TimeoutError(f"the arm did not start moving within {timeout:g} s (robot host's joint_states)")


def _arm_during(samples: list, out_at: float, back_at: float) -> dict:
    """What the robot's arm did while the cable was out, from its own joint_states."""
    rows = [(t, json.loads(line)) for t, line in samples if line.startswith("{")]
    rows = [(msg["t"], msg) for _, msg in rows]
    inside = [msg for t, msg in rows if out_at <= t <= back_at]
    if len(inside) < 2:
        return {"text": f"only {len(inside)} joint_states samples while the cable was out", "samples": len(inside)}
    speed = [max(abs(v) for v in msg["v"][:7]) for msg in inside]
    moved = max(abs(a - b) for a, b in zip(inside[-1]["q"][:7], inside[0]["q"][:7]))
    moving_until = max((msg["t"] for msg, s in zip(inside, speed) if s > MOVING_RAD_S), default=out_at)
    still = speed[-1] <= MOVING_RAD_S
    text = (f"the arm moved {moved:.3f} rad more (largest joint) while the cable was out and "
            + (f"came to rest {moving_until - out_at:.1f} s after the cut (the end of the trajectory it had "
                f"accepted: the arm server's cancel could not cross)"
               if still else f"was still moving ({speed[-1]:.3f} rad/s) when the cable came back"))
    return {"text": text, "moved_rad": round(moved, 4), "moving_for_s": round(moving_until - out_at, 2),
            "still_at_plug": still, "samples": len(inside)}


def _code_in(text: str) -> str:
    """The error code a client printed, else its result's message line, else its last words."""
    for code in ("NO_JOINT_STATES", "CONTROLLER_FAILED", "SERVER_UNREACHABLE", "RESULT_LOST", "SEND_GOAL_TIMEOUT",
                 "TIMEOUT"):
        if code in text:
            return code
    message = [line.split("message:", 1)[1].strip() for line in text.splitlines() if "message:" in line]
    return (message[-1] if message else text.strip()[-100:])[:100]


# ---- the cable out for good -----------------------------------------------------------------
def link_lost(out: Path, seed: int = 0) -> FaultOutcome:
    def run(hosts: TwoHosts, cell: SplitCell) -> FaultOutcome:
        unplug(hosts)
        unplugged = time.time()
        # the tree first, alone: its MoveToPose and a MoveToJoints would preempt each other
        # on the one arm; then one goal to each other server at once. Each time runs from the
        # command's start (process start-up included) to its result line.
        took, said, codes = {}, {}, {}
        batches = [{"tree run": SWING + ("--timeout", "60")},
                   {"MoveToJoints": ("send-goal", *MOVE_TO_JOINTS, "--timeout", "60"),
                    "GripperCommand": ("send-goal", *GRIPPER, "--timeout", "60"),
                    "DetectObjects": ("send-goal", *DETECT, "--timeout", "60")}]
        for batch in batches:
            started = time.time()
            clients = {name: Lines(cell.start_cli(*argv)) for name, argv in batch.items()}
            for name, lines in clients.items():
                ended = lines.ended(90.0)
                result = next(((t, line) for t, line in lines.lines if line.startswith(("result:", "status:"))), None)
                took[name] = round((result[0] if result else ended or float("inf")) - started, 2)
                said[name] = _code_in("\n".join(line for _, line in lines.lines))
                codes[name] = lines.process.returncode
        lost_at = time.time()
        time.sleep(max(0.0, unplugged + LEASE_S + PEER_REPORT_SLACK_S - time.time()))  # past the lease
        time.sleep(5.0)                                   # and a while more: nothing dies
        bounds = {name: TREE_BOUND_S if name == "tree run" else CLIENT_BOUND_S for name in took}
        reported = cell.peer_lines("task", f"peer {ROBOT_PEER} LOST")
        peer_lost_s = round(reported[0][0] - unplugged, 1) if reported else None
        ok = (all(took[n] < bounds[n] for n in took) and all(c == 1 for c in codes.values())
              and peer_lost_s is not None and peer_lost_s < LEASE_S + PEER_REPORT_SLACK_S)
        return FaultOutcome(ok, "cable out for good: " + ", ".join(
            f"{name} exit {codes[name]}, its result {took[name]} s after it started ({said[name]})" for name in took)
            + f"; the task host's bringup reported {ROBOT_PEER} lost "
            + (f"{peer_lost_s} s after the cut" if reported else "NEVER")
            + f"; then {time.time() - lost_at:.0f} s more",
            {"took_s": took, "bounds_s": bounds, "said": said, "exit_codes": codes, "peer_lost_s": peer_lost_s})
    return _scenario(run, out)


# ---- the robot's computer dies and boots again ------------------------------------------------
def robot_restart(out: Path, seed: int = 0) -> FaultOutcome:
    def run(hosts: TwoHosts, cell: SplitCell) -> FaultOutcome:
        # (_scenario waited until the task host saw the first sim: a robot killed before that is
        # only ever seen once, so nothing could be reported "back")
        cell.kill_robot()
        time.sleep(2.0)
        booting = time.monotonic()
        cell.start_robot()
        booted_s = time.monotonic() - booting
        code, output, took = cell.cli("send-goal", *MOVE_TO_JOINTS, "--timeout", "60", "--server-timeout", "60",
                                      timeout=120)
        again_code, again_out, again_s = cell.cli(*SWING, "-q", "--timeout", "120", timeout=180)
        # within the lease the new sim joins while the killed one is still listed: "started again"
        back = cell.peer_lines("task", f"peer {ROBOT_PEER} is back") + cell.peer_lines(
            "task", f"peer {ROBOT_PEER} started again")
        ok = code == 0 and again_code == 0 and bool(back)
        return FaultOutcome(ok, (
            f"robot host killed and booted again ({booted_s:.1f} s to the sim's scene): MoveToJoints home "
            f"{'SUCCEEDED' if code == 0 else 'exit ' + str(code) + ' ' + output.strip()[-200:]} {took:.1f} s after; "
            f"then a tree run {'SUCCESS' if again_code == 0 else again_out.strip()[-200:]} in {again_s:.1f} s; "
            f"the task host's bringup {'reported the sim back' if back else 'NEVER reported the sim back'}"),
            {"boot_s": round(booted_s, 1), "home_goal_s": round(took, 2), "home_code": code,
             "tree_s": round(again_s, 1), "tree_code": again_code})
    return _scenario(run, out)


# ---- a server killed mid-goal and respawned by bringup ------------------------------------------
SLOW_AWAY_GOAL = ("{joint_names: [panda_joint1, panda_joint2, panda_joint3, panda_joint4, panda_joint5, panda_joint6, "
                  "panda_joint7], positions: [0.9, -0.3, 0.4, -2.0, 0.3, 1.9, 1.2], velocity_scaling: 0.1}")
# the respawned server's first line -> send-goal's end: discovery of the new server's status
# publisher by send-goal (the sign that another server answers now; 0.5-3 s here under load),
# GoalWatch's period (0.5 s) and the result request it then sends (answered at once: unknown goal)
NOTICE_RESPAWN_BOUND_S = 4.0
RESPAWN_BOUND_S = 15.0   # the kill -> send-goal's end: the above + respawn_delay 2 s + the server's start-up


def server_respawned(out: Path, seed: int = 0) -> FaultOutcome:
    def run(hosts: TwoHosts, cell: SplitCell) -> FaultOutcome:
        goal = Lines(cell.start_cli("send-goal", "/move_to_joints", "robot_tasks_interfaces/action/MoveToJoints",
                                    SLOW_AWAY_GOAL, "--timeout", "40"))
        goal.wait_for("goal accepted", 30.0)
        time.sleep(2.0)
        killed_pid = cell.kill_node("task", "arm_server")
        killed = time.time()
        ended = goal.ended(40.0)
        said = "\n".join(line for _, line in goal.lines)
        took = round((ended or float("inf")) - killed, 2)
        code = goal.process.returncode
        log = cell.logs["task"].read_text(errors="replace")
        respawned = "respawned" in log
        after = log.split("bringup: respawned", 1)[-1] if respawned else ""
        first = next((m for m in (STAMPED.search(line) for line in after.splitlines()
                                  if line.startswith("[arm_server")) if m), None)
        noticed = round(ended - float(first.group(1)), 2) if first and ended else None
        again_code, again_out, again_s = cell.cli("send-goal", *MOVE_TO_JOINTS, "--timeout", "60",
                                                  "--server-timeout", "30", timeout=120)
        ok = (code == 1 and "server lost" in said and took < RESPAWN_BOUND_S and respawned
              and noticed is not None and noticed < NOTICE_RESPAWN_BOUND_S and again_code == 0)
        return FaultOutcome(ok, (
            f"arm_server (pid {killed_pid}) SIGKILLed 2 s into a MoveToJoints goal: send-goal exit {code} "
            f"{took} s after the kill, {noticed} s after the respawned server's first line ({_last_error(said)}); "
            f"bringup respawned it: {respawned}; the next goal "
            f"{'SUCCEEDED' if again_code == 0 else 'exit ' + str(again_code) + ' ' + again_out.strip()[-200:]} "
            f"in {again_s:.1f} s"),
            {"ended_s": took, "bound_s": RESPAWN_BOUND_S, "noticed_s": noticed, "notice_bound_s": NOTICE_RESPAWN_BOUND_S,
             "exit_code": code, "respawned": respawned, "next_goal_code": again_code})
    return _scenario(run, out, expected_exits=("[arm_server",))


def _last_error(text: str) -> str:
    errors = [line for line in text.splitlines() if "error" in line]
    return errors[-1][-160:] if errors else text.strip()[-160:]


SCENARIOS = {"link_blip": link_blip, "link_lost": link_lost, "robot_restart": robot_restart,
             "server_respawned": server_respawned}
