"""The browser monitor watching BT.CPP's own Groot2Publisher (behaviortreepy, BT.CPP 4.8.2).

BT.CPP binds tcp://* (all interfaces), so the publisher, the monitor and Chromium all run
in a network namespace with only loopback (btcpp_in_netns.py, under `unshare -rn`), as
test/bt/test_groot2_publisher.py runs its oracle; where namespaces or Chromium are not
available the test is skipped, with the reason. What is checked: live_case.py.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cdp import Browser  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]
HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


def test_btcpp_publisher_in_the_browser(tmp_path):
    reason = Browser.available()
    if reason:
        pytest.skip(reason)
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("unshare/ip not available: cannot isolate BT.CPP's tcp://* bind")
    command = f"ip link set lo up && exec {sys.executable} {HERE / 'btcpp_in_netns.py'}"
    env = {"PYTHONPATH": str(REPO), "PATH": os.environ.get("PATH", "/usr/sbin:/usr/bin:/sbin:/bin"),
           "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    result = subprocess.run(["unshare", "-rn", "sh", "-c", command], capture_output=True, text=True,
                            timeout=150, env=env, cwd=REPO)
    if result.returncode != 0 and "unshare" in result.stderr and "Operation not permitted" in result.stderr:
        pytest.skip(f"no user/network namespaces here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr[-4000:]
    notes = json.loads(result.stdout.strip().splitlines()[-1])["notes"]
    print("\n".join(notes))
    assert any("inject SUCCESS" in note for note in notes)
