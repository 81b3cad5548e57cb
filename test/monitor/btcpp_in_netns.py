"""The live scenario against BT.CPP's own Groot2Publisher (behaviortreepy 0.1.4 = BT.CPP 4.8.2).

BT.CPP 4.8.2 binds tcp://* and cannot be told otherwise, so this script runs in a
fresh network namespace that has only loopback (`unshare -rn`, started by
test_monitor_btcpp.py), and everything that talks to the publisher runs in it too:
the publisher in a forked child (its tick holds the GIL, see groot2_harness/sides.py),
`robot-tasks monitor`, and headless Chromium. It prints {"notes": [...]} as JSON on
success; an assertion prints its traceback on stderr and exits 1.
"""
import json
import sys
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # pytest's pythonpath, outside pytest

from cdp import Browser  # noqa: E402
from live_case import LEAVES, TREE, check_live_tree  # noqa: E402
from monitor_session import Monitor, shot  # noqa: E402

from robot_tasks.bt.groot2 import free_port_pair  # noqa: E402


def main() -> int:
    from groot2_harness.sides import OracleSide
    # BT.CPP 4.8.2's heartbeat thread ends at once in most starts (see groot2_harness/sides.py);
    # the harness starts up to 5 children per OracleSide, and on a loaded machine all 5 can
    # lose that race, so up to 4 sides are tried (20 children, bounded)
    for attempt in range(4):
        port = free_port_pair()
        try:
            side = OracleSide(TREE, LEAVES, port)
            break
        except RuntimeError:
            if attempt == 3:
                raise
    try:
        with Monitor(f"127.0.0.1:{port}") as monitor, Browser() as browser:
            notes = check_live_tree(side, browser, monitor.url, port, "btcpp")
            shot(browser, "btcpp")
            notes.append(f"monitor still running: {monitor.process.poll() is None}")
    except Exception:
        traceback.print_exc()
        return 1
    finally:
        side.close()
    print(json.dumps({"notes": notes}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
