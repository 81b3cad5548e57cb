"""Fault bench (issue 16): each scenario ends in a clear, bounded outcome; nothing is lost or
left running. Prints one line per scenario: PASS/FAIL, the time to its outcome, what it saw.

    .venv/bin/python bench/faults.py                  # every scenario (the soak: one sim hour)
    .venv/bin/python bench/faults.py --only fuzz_xml,fuzz_scripts --fuzz-inputs 10000
    .venv/bin/python bench/faults.py --soak-sim-s 120  # a short soak
    .venv/bin/python bench/faults.py --skip soak

Scenarios: the fuzzers and the CLI/executor ones here; the sim or a server killed mid-goal
and the MoveToPose storm in faults_stack.py; bad goals through every action in
faults_bad_goals.py; the soak in faults_soak.py (all on the real nodes: fault_cell.py).
Everything runs on loopback DDS in a fresh ROS_DOMAIN_ID (robot_tasks.testing), bounded in
count and time -- except the link faults of faults_link.py (link_blip, link_lost,
robot_restart, server_respawned), which run inside two network namespaces joined only to each
other (root).
"""
from __future__ import annotations

import argparse
import random
import signal
import subprocess
import sys
import time

from fault_cell import REPO, Cell  # puts the repo and test/support on sys.path
from faults_bad_goals import SCENARIOS as BAD_GOAL_SCENARIOS
from faults_link import SCENARIOS as LINK_SCENARIOS
from faults_soak import SCENARIOS as SOAK_SCENARIOS
from faults_stack import SCENARIOS as STACK_SCENARIOS
from mutate import load_and_build_every_tree, mutate, parse_and_run_script, run_fuzz, script_inputs, xml_inputs

from robot_tasks.testing.procfs import rss_kb  # noqa: E402

CLI = [sys.executable, "-m", "robot_tasks.cli"]


# ---- fuzzing (no ROS) -----------------------------------------------------------------------
def fuzz_xml(args):
    report = run_fuzz(xml_inputs(args.fuzz_inputs, seed=args.seed), load_and_build_every_tree)
    return report.ok, (f"{report.inputs} inputs: {report.accepted} loaded, {report.refused} refused with a "
                       f"project error, slowest {report.slowest_s * 1000:.0f} ms; failures {report.failures[:3]}")


def fuzz_scripts(args):
    report = run_fuzz(script_inputs(args.fuzz_inputs, seed=args.seed), parse_and_run_script)
    return report.ok, (f"{report.inputs} inputs: {report.accepted} ran, {report.refused} refused, slowest "
                       f"{report.slowest_s * 1000:.0f} ms; failures {report.failures[:3]}")


GOALS = ["{target: {header: {frame_id: world}, pose: {position: {x: 0.5, y: 0.0, z: 0.9}, "
         "orientation: {x: 1.0}}}, motion: 1, velocity_scaling: 0.5, timeout: 3.0}",
         "{joint_names: [a, b], positions: [0.1, -0.2], tolerance: 0.01}",
         "{mode: 0, width: 0.04, max_effort: 20.0, suction_on: false}"]


def fuzz_yaml_goals(args):
    from robot_tasks.ros.yaml_message import message_from_yaml
    from robot_tasks_interfaces.action import GripperCommand, MoveToJoints, MoveToPose

    types = [MoveToPose.Goal, MoveToJoints.Goal, GripperCommand.Goal]
    rng = random.Random(args.seed)
    tokens = ["{", "}", "[", "]", ":", ",", " ", "-", "1e999", ".nan", "!!python/object:os.system", "&a", "*a",
              "'x'", "null", "true", "0x1F", "é", "\n", "  - ", "? ", "%TAG"]
    cases = []
    for _ in range(args.fuzz_inputs):
        i = rng.randrange(len(types))
        cases.append((types[i], mutate(GOALS[i], rng, tokens)))
    report = run_fuzz(cases, lambda case: message_from_yaml(case[0], case[1], "goal"))
    return report.ok, (f"{report.inputs} goals: {report.accepted} filled, {report.refused} refused, slowest "
                       f"{report.slowest_s * 1000:.0f} ms; failures {report.failures[:3]}")


# ---- ROS scenarios -----------------------------------------------------------------------------
def cli_ctrl_c(args):
    """SIGINT at six moments of `robot-tasks execute Sleepy`: no interrupted run may go on to SUCCESS."""
    finished_first = 0
    with Cell() as cell:
        log = cell.executor().log_path
        for i, delay in enumerate((0.5, 1.0, 1.5, 2.0, 2.5, 3.0)):
            cli = cell.launcher.start(CLI + ["execute", "Sleepy"], name=f"execute_{i}", may_exit=True)
            time.sleep(delay)
            cli.popen.send_signal(signal.SIGINT)
            cli.popen.wait(timeout=15)
            finished_first += "result: SUCCESS" in cli.log_path.read_text()   # done before the interrupt
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and log.read_text().count("running tree 'Sleepy'") != (
                    log.read_text().count("tree 'Sleepy' ended") + log.read_text().count("'Sleepy' succeeded")):
                time.sleep(0.1)
        text = log.read_text()
    started, succeeded = text.count("running tree 'Sleepy'"), text.count("'Sleepy' succeeded")
    ran_on = succeeded - finished_first
    return ran_on == 0 and cell.leftovers is None, (f"6 interrupts, {started} runs started, {finished_first} "
                                                    f"finished before their interrupt, {ran_on} ran on to SUCCESS; "
                                                    f"leftovers {cell.leftovers}")


def execute_tree_storm(args):
    """200 ExecuteTree goals in under 20 s, each preempting, cancelling or waiting: none left
    running, every goal answered, the executor's memory flat, the next goal served."""
    from robot_tasks_interfaces.action import ExecuteTree

    with Cell() as cell:
        proc = cell.executor()
        client = cell.probe.create_action_client(ExecuteTree, "execute_tree")
        cell.probe.wait_for_action_server(ExecuteTree, "execute_tree", client=client)
        rss = [rss_kb(proc.pid)]
        rng = random.Random(args.seed)
        results, start = [], time.monotonic()
        for i in range(200):
            sent = client.send_goal_async(ExecuteTree.Goal(target_tree=rng.choice(["Sleepy", "NoSuchTree"])))
            handle = cell.probe.wait_future(sent, 5.0, "goal response")
            results.append(handle.get_result_async())
            if rng.random() < 0.3:
                handle.cancel_goal_async()
            time.sleep(rng.uniform(0.0, 0.08))
            if i == 100:
                rss.append(rss_kb(proc.pid))
        sending_s = time.monotonic() - start
        cell.probe.wait_for(lambda: all(f.done() for f in results), "every goal answered", 30.0)
        rss.append(rss_kb(proc.pid))
        final = cell.probe.wait_future(client.send_goal_async(ExecuteTree.Goal(target_tree="Sleepy")), 5.0, "last")
        last = cell.probe.wait_future(final.get_result_async(), 15.0, "the next goal's result").result
    ok = last.node_status == "SUCCESS" and rss[-1] < rss[1] * 1.10 and cell.leftovers is None and sending_s < 20
    return ok, (f"200 goals in {sending_s:.1f} s, all answered; next goal {last.node_status}; RSS "
                f"{rss[0]} -> {rss[1]} -> {rss[2]} kB; leftovers {cell.leftovers}")


def send_goal_server_lost(args):
    """The server process ends mid-goal: send-goal reports "server lost" within seconds."""
    with Cell() as cell:
        from robot_tasks_interfaces.action import MoveToPose

        server = cell.launcher.start_script(REPO / "test" / "support" / "fake_move_server.py", name="lost_server",
                                            params={"action_name": "move_to_pose", "steps": 400, "step_s": 0.05})
        cell.probe.wait_for_action_server(MoveToPose, "move_to_pose", timeout=30.0)
        cli = subprocess.Popen(CLI + ["send-goal", "/move_to_pose", "robot_tasks_interfaces/action/MoveToPose", "{}",
                                      "--feedback"], env=cell.env.subprocess_env(), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        cli.stdout.readline()
        gone = time.monotonic()
        server.popen.send_signal(signal.SIGTERM)
        _, err = cli.communicate(timeout=30)
        took = time.monotonic() - gone
    ok = cli.returncode == 1 and "server lost" in err and took < 10
    return ok, f"exit {cli.returncode} after {took:.1f} s: {err.strip().splitlines()[-1] if err.strip() else ''}"


SCENARIOS = {"fuzz_xml": fuzz_xml, "fuzz_scripts": fuzz_scripts, "fuzz_yaml_goals": fuzz_yaml_goals,
             "cli_ctrl_c": cli_ctrl_c, "send_goal_server_lost": send_goal_server_lost,
             "execute_tree_storm": execute_tree_storm, **STACK_SCENARIOS, **BAD_GOAL_SCENARIOS, **SOAK_SCENARIOS,
             **LINK_SCENARIOS}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated scenario names")
    parser.add_argument("--fuzz-inputs", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--soak-sim-s", type=float, default=3600.0, help="sim seconds of stacking episodes")
    parser.add_argument("--soak-wall-s", type=float, default=0.0,
                        help="wall-time cap of the soak (0 = 3 x --soak-sim-s + 600)")
    parser.add_argument("--skip", default="", help="comma-separated scenario names not to run (e.g. soak)")
    args = parser.parse_args(argv)
    skip = {n for n in args.skip.split(",") if n}
    names = [n for n in (args.only.split(",") if args.only else SCENARIOS) if n and n not in skip]
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        parser.error(f"unknown scenario(s) {unknown}; known: {', '.join(SCENARIOS)}")
    failed = 0
    print(f"{'scenario':24s} {'result':6s} {'time':>7s}  what happened")
    for name in names:
        start = time.monotonic()
        try:
            ok, what = SCENARIOS[name](args)
        except Exception as exc:  # noqa: BLE001 - a scenario that crashes is a failure, reported
            ok, what = False, f"{type(exc).__name__}: {exc}"
        failed += not ok
        print(f"{name:24s} {'PASS' if ok else 'FAIL':6s} {time.monotonic() - start:6.1f}s  {what}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
