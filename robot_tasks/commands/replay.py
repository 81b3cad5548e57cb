"""`robot-tasks replay RUN_FOLDER`: re-run a recorded run offline and check it repeats exactly.

    robot-tasks replay runs/franka_stacking_seed3_drag_20261204-235442
    robot-tasks replay RUN --stop-at-node grasp --print-blackboard      # the blackboard at a node
    robot-tasks replay RUN --stop-at-tick 400 --print-blackboard        # ... after a tick
    robot-tasks replay RUN --tree my_edit.xml                           # where does my edit change the run?

RUN_FOLDER is a run folder holding a recording (`*.replay.jsonl`, written by the tree
executor's `record_dir`; every demo run folder has one) or the recording file itself.
The recorded tree file (or `--tree FILE`) is ticked with no ROS and no robot: every leaf
repeats what it did in the run (robot_tasks.bt.recording), the control nodes, decorators
and script leaves run as written, and every status change and blackboard write must
come out as recorded. Exit code 0 when it did (up to the requested stop), 1 at the
first divergence (printed: tick, node path, what the run did, what the replay did),
2 for bad input (a missing or unreadable file, named).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

SUFFIX = ".replay.jsonl"
VALUE_LIMIT = 300


def register(subparsers) -> None:
    parser = subparsers.add_parser("replay", help="re-run a recorded run offline, checking it repeats exactly",
                                   description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", metavar="RUN_FOLDER", help="a run folder with a *.replay.jsonl, or the file")
    parser.add_argument("--tree", metavar="FILE", help="replay this (edited) tree file instead of the recorded one")
    parser.add_argument("--stop-at-tick", type=int, metavar="N", help="stop after tick N")
    parser.add_argument("--stop-at-node", metavar="PATH",
                        help="stop at the first thing node PATH does (a path as in the recording, its end "
                             "such as 'pick/grasp', or a name); with --stop-at-tick, the first from tick N on")
    parser.add_argument("--print-blackboard", action="store_true",
                        help="print the blackboard where the replay stopped (or ended, or diverged)")
    parser.add_argument("--plugin", action="append", default=[], metavar="MODULE",
                        help="register the node types of MODULE (register_nodes(factory)) -- only needed for "
                             "custom control or decorator nodes; leaves always come from the recording")
    parser.set_defaults(func=run_replay)


class _BadInput(Exception):
    pass


def find_recording(run: str) -> Path:
    """The recording of a run folder (the one its report.json names, else the newest), or the file."""
    path = Path(run)
    if path.is_file():
        return path
    if not path.is_dir():
        raise _BadInput(f"{run}: no such run folder or recording file")
    found = sorted(path.glob(f"*{SUFFIX}"))
    if not found:
        raise _BadInput(f"{run}: no recording (*{SUFFIX}) in this folder; runs are recorded by the "
                        f"tree_executor's record_dir parameter (the demos set it)")
    try:
        named = json.loads((path / "report.json").read_text()).get("replay")
    except (OSError, ValueError, AttributeError):
        named = None
    if named and (path / named).is_file():
        return path / named
    return max(found, key=lambda p: p.stat().st_mtime)


def run_replay(args) -> int:
    from robot_tasks.bt import BehaviorTreeError
    from robot_tasks.bt.recording import RecordingError, Replayer, read_recording
    from robot_tasks.runtime.errors import PluginError
    from robot_tasks.runtime.plugins import load_plugins

    try:
        if args.stop_at_tick is not None and args.stop_at_tick < 0:
            raise _BadInput(f"--stop-at-tick must be 0 or more, not {args.stop_at_tick}")
        if args.tree and not Path(args.tree).is_file():
            raise _BadInput(f"{args.tree}: no such tree file (--tree)")
        path = find_recording(args.run)
        recording = read_recording(path)
        replay = Replayer(recording, args.tree, setup=(lambda f: load_plugins(args.plugin, f)) if args.plugin else None)
        stop_node = _stop_node(replay, args.stop_at_node) if args.stop_at_node else None
    except _BadInput as exc:
        return _bad(str(exc))
    except (RecordingError, PluginError) as exc:
        return _bad(str(exc))
    except BehaviorTreeError as exc:  # the tree file does not load: its message names file and line
        return _bad(f"{args.tree or recording.header.get('tree_file')}: {exc}")
    _print_intro(path, recording, replay, args.tree)
    result = replay.run(stop_at_tick=args.stop_at_tick, stop_at_node=stop_node)
    _print_result(result, recording)
    if args.print_blackboard:
        _print_blackboard(replay.blackboard(), result)
    return 1 if result.outcome == "diverged" else 0


def _bad(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _stop_node(replay, text: str) -> str:
    matches = replay.find_node(text)
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise _BadInput(f"--stop-at-node {text}: no node of the tree has this path or name")
    shown = "\n  ".join(matches[:8]) + ("\n  ..." if len(matches) > 8 else "")
    raise _BadInput(f"--stop-at-node {text}: {len(matches)} nodes match; give more of the path:\n  {shown}")


def _print_intro(path: Path, recording, replay, tree_arg: str | None) -> None:
    from robot_tasks.bt.recording.header import file_sha256

    header = recording.header
    tree_file = Path(tree_arg or header.get("tree_file", ""))
    recorded = (header.get("files") or {}).get(str(Path(header.get("tree_file", "")).resolve()))
    now = file_sha256(tree_file)
    if recorded is None:
        state = "no hash recorded"
    elif recorded == now:
        state = f"the file the run used (sha256 {now[:12]})"
    else:
        state = f"differs from the file the run used (sha256 {recorded[:12]} then, {now[:12]} now)"
    real = sorted({p.rsplit("/", 1)[-1] for p in replay.real_leaves})
    print(f"recording: {path} ({recording.ticks} ticks, recorded {header.get('recorded_at', '?')})")
    print(f"tree:      {tree_file} [{header.get('tree_id')}]: {state}")
    print(f"leaves:    {len(replay.replayed_leaves)} replayed from the recording, {len(replay.real_leaves)} "
          f"run as written (built-in script leaves{': ' + ', '.join(real[:6]) if real else ''}"
          f"{' ...' if len(real) > 6 else ''})")
    for note in replay.factory.notes:
        print(f"note:      {note}")


def _print_result(result, recording) -> None:
    if result.outcome == "diverged":
        print(f"result:    DIVERGED after {result.events} matching events")
        print(str(result.divergence))
        return
    if result.outcome == "stopped":
        where = (f"after tick {result.ticks}" if result.stopped_at.startswith("after")
                 else f"in tick {result.ticks}: {result.stopped_at}")
        print(f"result:    stopped {where}; all {result.events} events up to here matched the recording")
        return
    ending = f"; the tree returned {result.root_status}" if result.root_status != "IDLE" else ""
    print(f"result:    replayed exactly: {result.ticks} ticks, {result.events} events (every status change, "
          f"leaf result and blackboard write){ending}")
    if not result.complete:
        print("note:      the recording has no end line (the run was cut short): replayed all it holds")


def _print_blackboard(values: dict, result) -> None:
    from robot_tasks.bt.recording.describe import value_text

    where = {"stopped": "where the replay stopped", "diverged": "at the divergence"}.get(result.outcome,
                                                                                      "at the end")
    print(f"blackboard {where} (tick {result.ticks}):")
    for name, encoded in values.items():
        print(f"  {name} = {value_text(encoded, VALUE_LIMIT)}")
