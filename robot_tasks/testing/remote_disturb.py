"""Disturb a stacking run from the task's computer, as the demo does from its own process.

    python -m robot_tasks.testing.remote_disturb drag --timeout 400

The demo (robot_tasks.demo.runner) watches the tree's `tree_status` and the sim's `objects`,
and when the task's disturbance rule says so (drag: while the arm heads for the 2nd cube)
calls the sim's `perturb_object` service. When the sim runs on the robot's computer
(robot_tasks.testing.split_stacking), this process on the task host does the same with the
same parts -- the demo's RunWatcher, the task's rule and its request -- so the service call,
the ground truth and the tree's status all cross the cable like everything else.

Start it before the goal; it prints one JSON line {"request": ..., "response": ...} once the
sim has answered (exit 0), or {"error": ...} when the rule never fired or the call failed
within --timeout (exit 1). DDS as every CLI: loopback unless ROBOT_TASKS_DDS=system.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from robot_tasks.tasks.stacking.disturbance import MODES
from robot_tasks.tasks.stacking.episode import STACKING

POLL_S = 0.05       # the demo's own loop period


def disturb(mode: str, timeout: float, say=print) -> dict:
    """Follow the run until the rule fires and the sim answers; what happened, as a dict."""
    from robot_tasks.demo.run_watcher import RunState, RunWatcher
    from robot_tasks.demo.runner import DemoOptions
    from robot_tasks.ros.dds import configure_dds

    configure_dds()                                   # RunWatcher leaves DDS to its caller
    state, rule = RunState(), STACKING.make_rule(mode)
    options = DemoOptions(task=STACKING, render=False, record=False)
    with open(os.devnull, "w") as status_log:
        watcher = RunWatcher(STACKING, state, status_log, options)
        try:
            return _follow(watcher, state, rule, timeout, say)
        finally:
            watcher.close()


def _follow(watcher, state, rule, timeout, say) -> dict:
    # the demo's own steps: phase events arm the rule, its request goes out as the demo sends it
    from robot_tasks.demo.run_watcher import print_events, send_perturb

    start = time.monotonic()
    future, request = None, None
    while time.monotonic() - start < timeout:
        print_events(state, start, say, rule)
        if future is None:
            with state.lock:
                request = rule.due(time.monotonic(), dict(state.poses))
            if request is not None:
                say(f"remote_disturb: {request['mode']} {request['object_name']}")
                future = send_perturb(watcher, request)
        elif future.done():
            response = future.result()
            return {"request": {**request, "target": list(request["target"])}, "log": rule.log,
                    "response": {"success": response.success, "message": response.message}}
        time.sleep(POLL_S)
    return {"error": f"{'no answer from perturb_object' if future else 'the rule did not fire'} "
                     f"within {timeout:g} s", "log": rule.log}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=MODES)
    parser.add_argument("--timeout", type=float, default=400.0, help="wall s to wait for the rule and the answer")
    args = parser.parse_args(argv)
    outcome = disturb(args.mode, args.timeout, say=lambda line: print(line, file=sys.stderr, flush=True))
    print(json.dumps(outcome), flush=True)
    return 0 if outcome.get("response", {}).get("success") else 1


if __name__ == "__main__":
    sys.exit(main())
