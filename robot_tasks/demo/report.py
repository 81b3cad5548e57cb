"""A run's report.json: written once, at the end of the run."""
from __future__ import annotations

import json
from pathlib import Path


def write_report(path: Path, report: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2, sort_keys=False) + "\n")
    return path
