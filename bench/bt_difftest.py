#!/usr/bin/env python3
"""Differential test at scale: random trees through BT.CPP (behaviortreepy) and robot_tasks.bt.

    PYTHONPATH=. .venv/bin/python bench/bt_difftest.py --trees 5000 --seed 1
    PYTHONPATH=. .venv/bin/python bench/bt_difftest.py --show SEED

Prints every mismatch (seed, plan, leaves, XML, both traces) and a summary; exit 1 on a
mismatch. The harness lives in test/bt/difftest (the pytest uses it too).
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))                # robot_tasks from this checkout
sys.path.insert(0, str(ROOT / "test" / "bt"))  # the difftest package

from difftest.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
