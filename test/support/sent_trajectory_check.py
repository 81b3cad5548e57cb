"""The e2e demos' check of every trajectory the arm server sent (issue 35): read from the run
folder's bag, each held to the arm's joint limits (robot_tasks.demo.sent_trajectories)."""
from __future__ import annotations

import re
from pathlib import Path


def reached_goals(run_dir: Path, server: str) -> int:
    """How many goals arm server node `server` reached, from its lines in nodes.log (its
    execution.py's success text, behind bringup's "[name   ]" prefix)."""
    reached = re.compile(rf"^\[{re.escape(server)}\s*\].*: SUCCESS: reached in ")
    return sum(1 for line in (Path(run_dir) / "nodes.log").read_text().splitlines() if reached.match(line))


def check_sent_trajectories(run_dir: Path, server: str = "arm_server"):
    """Assert that the bag holds a trajectory for at least every goal arm server `server`
    reached, all time-optimal (quintic) and none over a velocity, acceleration or jerk limit
    (BOUNDED ones: velocity only); returns the audit."""
    from robot_tasks.demo.sent_trajectories import audit_trajectories, read_sent_trajectories, server_limits

    trajectories = read_sent_trajectories(run_dir, server)
    reached = reached_goals(run_dir, server)
    assert reached > 0 and len(trajectories) >= reached, (server, len(trajectories), reached)
    audit = audit_trajectories(trajectories, server_limits(run_dir, server))
    worst = {kind: audit.worst(kind) for kind in ("velocity", "acceleration", "jerk")}
    assert audit.violations() == [], (audit.violations()[:10], worst)
    assert audit.interpolations <= {"quintic"}, audit.interpolations
    print(f"{server}: {len(trajectories)} sent trajectories ({sum(audit.bounded)} BOUNDED), worst ratio to the "
          f"limits: " + ", ".join(f"{k} {r:.3f} ({j})" for k, (r, _, j) in worst.items()))
    return audit
