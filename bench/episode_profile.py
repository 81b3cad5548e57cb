"""Benchmark (issue 16): where an episode's CPU goes, per process, sampled with py-spy.

A sampling profiler reads each process's Python stacks from outside, many times a second,
without changing or slowing the code it watches (`--nonblocking`: the target is never
paused). Counting which function is on top of the stack gives its *self* time; counting
which of *our* functions (the innermost `robot_tasks` frame) each sample passes through
gives the time our code spends, library calls included -- the row to cut.

One undisturbed `robot-tasks demo franka_stacking` episode (default `--rtf 0`): py-spy is
attached to every node process when the tree's first phase starts and stopped when the tree
finishes. Only the thread holding the GIL is sampled (`--gil`): a thread waiting in a
condition or a poll is not work, and py-spy cannot always tell such waits from running.
Per node it prints the share of samples in which the GIL was held (next to the CPU read from
/proc in the same window: C code that lets the GIL go is in the second only), then the top
frames both ways.

    PYTHONPATH=. .venv/bin/python bench/episode_profile.py [--rtf 0] [--seed 0] [--rate 100] [--top 8]

Needs py-spy (`pip install -e .[bench]`) and permission to read other processes' memory
(root, or ptrace_scope 0). The raw stacks stay in `--out` (flamegraph.pl reads them).
"""
from __future__ import annotations

import argparse
import collections
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from episode_speed import CLI, node_cpu, node_name, percent  # noqa: E402 (puts the repo on sys.path)

from robot_tasks.testing.procfs import descendants  # noqa: E402

FRAME = re.compile(r"^(?P<func>.*) \((?P<file>[^():]*)(?::\d+)?\)$")


def frame_label(frame: str) -> str:
    """'fn (path/to/file.py:12)' -> 'fn (file.py)'; a native or odd frame stays as it is."""
    m = FRAME.match(frame)
    return f"{m['func']} ({Path(m['file']).name})" if m else frame


def own_frame(frames: list[str]) -> str:
    """The innermost frame in robot_tasks (our code that caused the sample), else the top."""
    for frame in reversed(frames):
        m = FRAME.match(frame)
        # py-spy names a module by its path under sys.path: robot_tasks/sim/camera.py
        if m and (m["file"].startswith("robot_tasks/") or "/robot_tasks/" in m["file"]):
            path = m["file"]
            return f"{m['func']} ({path[path.index('robot_tasks/'):]})"
    return "(outside robot_tasks) " + frame_label(frames[-1]) if frames else "?"


def read_raw(path: Path) -> tuple[int, collections.Counter, collections.Counter]:
    """py-spy's raw (collapsed) stacks -> total samples, self frames, own frames."""
    total, top, own = 0, collections.Counter(), collections.Counter()
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        frames, n = stack.split(";"), int(count)
        total += n
        top[frame_label(frames[-1])] += n
        own[own_frame(frames)] += n
    return total, top, own


def profile(args) -> int:
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        print("py-spy not found: pip install -e .[bench]", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    demo = subprocess.Popen(CLI + ["demo", "franka_stacking", "--seed", str(args.seed), "--rtf", str(args.rtf),
                                   "--out", str(args.out), "--timeout", str(args.timeout)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    spies: dict[str, subprocess.Popen] = {}
    window: dict[str, tuple[float, dict]] = {}

    def attach():
        for pid in descendants(demo.pid):
            name = node_name(pid)
            if name and name not in spies:
                spies[name] = subprocess.Popen(
                    [spy, "record", "--format", "raw", "--rate", str(args.rate), "--nonblocking", "--gil",
                     "--pid", str(pid), "--output", str(args.out / f"{name}.raw.txt")],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        window["start"] = (time.monotonic(), node_cpu(demo.pid))

    def read_output():
        for line in demo.stdout:
            print(line, end="", flush=True)
            if "start" not in window and line.lstrip().startswith("[") and " s] " in line:
                attach()
            elif "tree finished" in line and "end" not in window:
                window["end"] = (time.monotonic(), node_cpu(demo.pid))
                for proc in spies.values():
                    proc.send_signal(signal.SIGINT)       # py-spy writes its file on Ctrl-C

    reader = threading.Thread(target=read_output, daemon=True)
    reader.start()
    try:
        demo.wait(timeout=args.timeout + 120)
    except subprocess.TimeoutExpired:
        demo.send_signal(signal.SIGINT)
        demo.wait(timeout=60)
    reader.join(timeout=5)
    for proc in spies.values():
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    if "start" not in window or "end" not in window:
        print("the episode did not run to its end: no profile", file=sys.stderr)
        return 1
    (t0, c0), (t1, c1) = window["start"], window["end"]
    wall = t1 - t0
    cpu = percent(c0, c1, wall)
    print(f"\nprofiled {wall:.1f} wall s of the tree's run at rtf {args.rtf:g}, {args.rate} samples/s per process")
    for name in sorted(spies, key=lambda n: -cpu.get(n, 0.0)):
        raw = args.out / f"{name}.raw.txt"
        if not raw.exists():
            print(f"\n{name}: no samples written")
            continue
        total, top, own = read_raw(raw)
        held = 100.0 * total / args.rate / wall
        print(f"\n== {name}: {cpu.get(name, float('nan')):.1f} % of a core (/proc), "
              f"GIL held in {held:.1f} % of the samples ({total})")
        for title, counter in (("our code (innermost robot_tasks frame, callees included)", own),
                               ("self (top of stack)", top)):
            print(f"  {title}:")
            for label, n in counter.most_common(args.top):
                print(f"    {100.0 * n / max(total, 1):5.1f} %  {label}")
    return 0 if demo.returncode == 0 else 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rtf", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rate", type=int, default=100, help="samples per second per process")
    parser.add_argument("--top", type=int, default=8, help="frames listed per table")
    parser.add_argument("--timeout", type=float, default=300.0, help="wall s for the episode")
    parser.add_argument("--out", type=Path, default=Path("runs/episode_profile"))
    return profile(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
