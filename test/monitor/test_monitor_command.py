"""`robot-tasks monitor`'s command line: clear errors, exit codes, no traceback."""
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from robot_tasks.commands._errors import CommandError
from robot_tasks.commands.monitor import parse_address

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(60)


def monitor(*args):
    return subprocess.run([sys.executable, "-m", "robot_tasks.cli", "monitor", *args], capture_output=True,
                          text=True, timeout=30, cwd=REPO)


def test_addresses():
    assert parse_address("127.0.0.1:1667") == ("127.0.0.1", 1667)
    assert parse_address("[::1]:1667") == ("::1", 1667)
    for bad in ("1667", "127.0.0.1", "127.0.0.1:x", ":1667", "127.0.0.1:70000"):
        with pytest.raises(CommandError, match="is not HOST:PORT"):
            parse_address(bad)


@pytest.mark.parametrize("args, message", [
    ((), "name at least one publisher"),
    (("localhost",), "'localhost' is not HOST:PORT"),
    (("--btlog", "/nonexistent/run.btlog"), "No such file"),
    (("--btlog", __file__), "not a BTCPP4-FileLogger2 file"),
    (("127.0.0.1:1667", "--port", "70000"), "is not a port"),
])
def test_refused_command_lines(args, message):
    result = monitor(*args)
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr


def test_port_in_use():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = monitor("127.0.0.1:1667", "--port", str(port))
    assert result.returncode == 1 and f"can't serve on 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr
