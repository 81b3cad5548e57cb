"""The e2e demos' check of every trajectory the arm server sent (issue 35): read from the run
folder's bag, each held to the arm's joint limits (robot_tasks.demo.sent_trajectories)."""
from __future__ import annotations

import re
from pathlib import Path

# the arm server's log line of each goal it reached (execution.py's success text)
REACHED = re.compile(r"^\[arm_server\s*\].*: SUCCESS: reached in ")


def check_sent_trajectories(run_dir: Path):
    """Assert that the bag holds a trajectory for at least every goal the arm server reached,
    all time-optimal (quintic) and none over a velocity, acceleration or jerk limit
    (BOUNDED ones: velocity only); returns the audit."""
    from robot_tasks.demo.sent_trajectories import audit_trajectories, read_sent_trajectories, server_limits

    trajectories = read_sent_trajectories(run_dir)
    reached = sum(1 for line in (Path(run_dir) / "nodes.log").read_text().splitlines() if REACHED.match(line))
    assert reached > 0 and len(trajectories) >= reached, (len(trajectories), reached)
    audit = audit_trajectories(trajectories, server_limits(run_dir))
    worst = {kind: audit.worst(kind) for kind in ("velocity", "acceleration", "jerk")}
    assert audit.violations() == [], (audit.violations()[:10], worst)
    assert audit.interpolations <= {"quintic"}, audit.interpolations
    print(f"{len(trajectories)} sent trajectories ({sum(audit.bounded)} BOUNDED), worst ratio to the "
          f"limits: " + ", ".join(f"{k} {r:.3f} ({j})" for k, (r, _, j) in worst.items()))
    return audit
