"""Run the Groot2 scenarios against behaviortreepy and print the transcripts as JSON.

Meant to run inside a fresh network namespace with only loopback (see
`run_oracle_isolated`): BT.CPP 4.8.2's Groot2Publisher binds tcp://* and cannot be
told to bind 127.0.0.1 only.
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # test/bt
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "support"))  # groot2_client (pytest's pythonpath)

from groot2_harness.scenarios import SCENARIOS, run  # noqa: E402
from groot2_harness.sides import OracleSide  # noqa: E402


def main():
    names = sys.argv[1:] or list(SCENARIOS)
    print(json.dumps({name: run(name, OracleSide) for name in names}))


if __name__ == "__main__":
    main()
