"""Run `robot-tasks demo <name>` as a subprocess, the way a user would (for e2e tests)."""
from __future__ import annotations

import subprocess
import sys

from paths import REPO


def run_demo_cli(name: str, seed: int, out, disturb: str | None = None, timeout: float = 300.0):
    """The finished CompletedProcess; the run folder is under `out`."""
    argv = [sys.executable, "-m", "robot_tasks.cli", "demo", name, "--seed", str(seed), "--out", str(out),
            "--timeout", str(timeout)]
    if disturb:
        argv += ["--disturb", disturb]
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}
    return subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout + 200)
