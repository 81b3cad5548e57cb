"""robot_tasks.process.managed: a child in its own process group, its output, the stop sequence.

Real subprocesses (this Python, `-c` scripts); no ROS.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from paths import REPO

from robot_tasks.process import ManagedProcess, processes_in_group, stop_group

# Prints "ready", then sleeps; argv[1:]: what to do with signals, "exit0:SIGINT" (exit 0 on it)
# or "ignore:SIGTERM" (ignore it).
CHILD = ("import signal, sys, time\n"
         "for rule in sys.argv[1:]:\n"
         "    how, name = rule.split(':')\n"
         "    sig = getattr(signal, name)\n"
         "    signal.signal(sig, signal.SIG_IGN if how == 'ignore' else (lambda *_: sys.exit(0)))\n"
         "print('ready', flush=True)\n"
         "time.sleep(60)\n")


def wait_for(predicate, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def start_ready(tmp_path, *rules: str) -> ManagedProcess:
    log = tmp_path / "child.log"
    process = ManagedProcess([sys.executable, "-c", CHILD, *rules], log_path=log)
    wait_for(lambda: "ready" in log.read_text(), "the child to say ready")
    return process


def test_a_child_that_obeys_sigint_ends_on_sigint(tmp_path):
    process = start_ready(tmp_path, "exit0:SIGINT")
    assert process.stop(sigint_s=5.0, sigterm_s=0.5, sigkill_s=2.0) == "SIGINT rc=0"
    assert not process.is_running() and process.returncode == 0


def test_a_child_that_ignores_sigint_and_sigterm_ends_by_sigkill(tmp_path):
    process = start_ready(tmp_path, "ignore:SIGINT", "ignore:SIGTERM")
    escalations = []
    started = time.monotonic()
    how = process.stop(sigint_s=0.3, sigterm_s=0.3, sigkill_s=2.0, on_escalate=escalations.append)
    assert how == "SIGKILL rc=-9"
    assert escalations == ["SIGTERM", "SIGKILL"]
    assert time.monotonic() - started < 3.0
    assert processes_in_group(process.pid) == []


def test_a_child_that_ignores_only_sigint_ends_on_sigterm(tmp_path):
    process = start_ready(tmp_path, "ignore:SIGINT")
    assert process.stop(sigint_s=0.3, sigterm_s=2.0) == "SIGTERM rc=-15"


def test_a_child_that_ended_by_itself_is_said_so(tmp_path):
    process = ManagedProcess([sys.executable, "-c", "raise SystemExit(3)"], log_path=tmp_path / "log")
    process.wait(timeout=10.0)
    assert process.stop() == "exited by itself rc=3"


def test_a_grandchild_left_in_the_group_is_killed(tmp_path):
    """The leader exits on SIGINT; its child ignores SIGINT and SIGTERM and would live on."""
    pid_file = tmp_path / "grandchild.pid"
    leader = ("import signal, subprocess, sys, time\n"
              f"child = subprocess.Popen([sys.executable, '-c', {CHILD!r}, 'ignore:SIGINT', 'ignore:SIGTERM'])\n"
              f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
              "signal.signal(signal.SIGINT, lambda *_: sys.exit(0))\n"
              "time.sleep(60)\n")
    process = ManagedProcess([sys.executable, "-c", leader], log_path=tmp_path / "leader.log")
    wait_for(lambda: pid_file.exists() and pid_file.read_text()
             and "ready" in (tmp_path / "leader.log").read_text(), "the grandchild to start")
    grandchild = int(pid_file.read_text())
    try:
        assert set(processes_in_group(process.pid)) == {process.pid, grandchild}
        assert process.stop(sigint_s=5.0, sigterm_s=0.5) == "SIGINT rc=0"
        wait_for(lambda: processes_in_group(process.pid) == [], "the group to be empty", timeout=5.0)
    finally:
        if processes_in_group(process.pid):
            os.killpg(process.pid, signal.SIGKILL)


def test_the_line_callback_receives_each_line(tmp_path):
    lines = []
    process = ManagedProcess([sys.executable, "-c", "import sys; print('one'); print('two', file=sys.stderr, "
                              "flush=True); print('three')"], on_line=lines.append)
    process.wait(timeout=10.0)
    assert process.stop() == "exited by itself rc=0"
    assert sorted(lines) == ["one", "three", "two"]


def test_the_log_file_gets_stdout_and_stderr(tmp_path):
    log = tmp_path / "logs" / "child.log"
    process = ManagedProcess([sys.executable, "-c", "import sys; print('to stdout', flush=True); "
                              "print('to stderr', file=sys.stderr)"], log_path=log, cwd=tmp_path)
    process.wait(timeout=10.0)
    process.stop()
    assert log.read_text().splitlines() == ["to stdout", "to stderr"]


def test_env_and_cwd_reach_the_child(tmp_path):
    lines = []
    process = ManagedProcess([sys.executable, "-c", "import os; print(os.environ['PROBE'], os.getcwd())"],
                             env={**os.environ, "PROBE": "seen"}, cwd=tmp_path, on_line=lines.append)
    process.wait(timeout=10.0)
    process.stop()
    assert lines == [f"seen {os.path.realpath(tmp_path)}"]


def test_the_child_leads_its_own_group_and_reads_no_stdin(tmp_path):
    lines = []
    process = ManagedProcess([sys.executable, "-c", "import os, sys; print(os.getpgrp() == os.getpid(), "
                              "repr(sys.stdin.read()))"], on_line=lines.append)
    process.wait(timeout=10.0)
    process.stop()
    assert lines == ["True ''"]
    assert os.getpgrp() != process.pid


def test_output_goes_to_a_log_or_a_callback_not_both(tmp_path):
    with pytest.raises(ValueError, match="not both"):
        ManagedProcess([sys.executable, "-c", "pass"], log_path=tmp_path / "log", on_line=print)


def test_die_with_parent_ends_the_child_when_its_parent_is_killed(tmp_path):
    """A parent makes a ManagedProcess with die_with_parent, then is SIGKILLed: the child gets SIGTERM."""
    pid_file = tmp_path / "child.pid"
    parent = ("import sys, time\n"
              "from robot_tasks.process import ManagedProcess\n"
              f"child = ManagedProcess([sys.executable, '-c', 'import time; time.sleep(60)'], die_with_parent=True)\n"
              f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
              "time.sleep(60)\n")
    middle = subprocess.Popen([sys.executable, "-c", parent], start_new_session=True, cwd=REPO)
    try:
        wait_for(lambda: pid_file.exists() and pid_file.read_text(), "the child to start")
        child = int(pid_file.read_text())
        assert processes_in_group(child) == [child]
    finally:
        middle.kill()
        middle.wait(timeout=10.0)
    try:
        wait_for(lambda: processes_in_group(child) == [], "the orphan to end", timeout=5.0)
    finally:
        if processes_in_group(child):
            os.killpg(child, signal.SIGKILL)


def test_stop_group_works_on_any_popen_that_leads_its_group(tmp_path):
    popen = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True,
                             start_new_session=True)
    assert popen.stdout.readline() == "ready\n"
    # Python's own SIGINT handler: KeyboardInterrupt, then it ends itself by SIGINT
    assert stop_group(popen, sigint_s=5.0) in ("SIGINT rc=-2", "SIGINT rc=1")
    popen.stdout.close()
