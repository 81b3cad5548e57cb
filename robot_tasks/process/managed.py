"""One child process, started in its own process group and stopped the same way every time.

Starting: the command runs with the given environment and working directory, stdin from
/dev/null (it never waits for a keyboard), in a new session, i.e. leading its own process
group (:mod:`robot_tasks.process.group`). Its output (stdout and stderr, interleaved as
written) goes to one place:

- a log file (``log_path``): the kernel writes it, nothing of ours has to run;
- a line callback (``on_line``): a *pump* thread reads the pipe and calls it with each
  line, without its newline, until the process closes its output;
- neither: wherever this process's own output goes.

With ``die_with_parent`` the child gets SIGTERM when this process dies
(:func:`robot_tasks.process.environment.die_with_parent`).

Stopping (:meth:`ManagedProcess.stop`, or :func:`stop_group` for any Popen that leads its
group): ask politely, then firmly, then not at all --

1. SIGINT to the group (a ROS node's Ctrl-C: it shuts down cleanly), wait ``sigint_s``;
2. SIGTERM, wait ``sigterm_s``;
3. SIGKILL, which no process can ignore, wait ``sigkill_s``;

stopping at the first step after which the leader has exited, and then SIGKILL for every
member of the group that outlived it. The answer says how it ended: ``"SIGINT rc=0"``,
``"SIGKILL rc=-9"``, ``"exited by itself rc=2"`` (it had ended before the first signal) or
``"did not exit after SIGKILL"``.

    node = ManagedProcess([sys.executable, "-m", "robot_tasks.nodes.sim"], env=env,
                          log_path=Path("logs/sim.log"))
    ...
    print(node.stop())          # "SIGINT rc=0"
"""
from __future__ import annotations

import os
import signal
import subprocess
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from robot_tasks.process.environment import die_with_parent as _die_with_parent
from robot_tasks.process.group import processes_in_group, signal_group

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGKILL)


def stop_group(popen: subprocess.Popen, sigint_s: float = 5.0, sigterm_s: float = 2.0,
               sigkill_s: float = 2.0, on_escalate: Callable[[str], None] | None = None) -> str:
    """The stop sequence (see the module docstring) for `popen`, which leads its process
    group. `on_escalate(signal name)` is called before SIGTERM and before SIGKILL are sent."""
    if popen.poll() is not None:
        how = f"exited by itself rc={popen.returncode}"
    else:
        how = "did not exit after SIGKILL"
        for sig, wait_s in zip(STOP_SIGNALS, (sigint_s, sigterm_s, sigkill_s)):
            if sig != signal.SIGINT and on_escalate is not None:
                on_escalate(sig.name)
            signal_group(popen.pid, sig)
            try:
                how = f"{sig.name} rc={popen.wait(timeout=wait_s)}"
                break
            except subprocess.TimeoutExpired:
                continue
    for pid in processes_in_group(popen.pid):      # members that outlived the leader
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return how


class ManagedProcess:
    """A command running in its own process group (see the module docstring)."""

    def __init__(self, argv: Sequence[str], env: dict[str, str] | None = None, cwd: str | Path | None = None,
                 log_path: Path | None = None, on_line: Callable[[str], None] | None = None,
                 die_with_parent: bool = False):
        if log_path is not None and on_line is not None:
            raise ValueError("output goes to a log file or to a line callback, not both")
        self.argv = [str(a) for a in argv]
        self.log_path = Path(log_path) if log_path is not None else None
        self._log = None
        output: dict = {}
        if self.log_path is not None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            self._log = open(self.log_path, "wb")
            output = {"stdout": self._log, "stderr": subprocess.STDOUT}
        elif on_line is not None:
            output = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True,
                      "errors": "replace", "bufsize": 1}
        self.popen = subprocess.Popen(
            self.argv, env=env, cwd=None if cwd is None else str(cwd), stdin=subprocess.DEVNULL,
            start_new_session=True, preexec_fn=_die_with_parent if die_with_parent else None, **output)
        self._pump = None
        if on_line is not None:
            self._pump = threading.Thread(target=self._copy_lines, args=(on_line,), daemon=True,
                                          name=f"pump-{self.popen.pid}")
            self._pump.start()

    def _copy_lines(self, on_line: Callable[[str], None]) -> None:
        for line in self.popen.stdout:
            on_line(line.rstrip("\n"))

    @property
    def pid(self) -> int:
        return self.popen.pid

    @property
    def returncode(self) -> int | None:
        return self.popen.returncode

    def poll(self) -> int | None:
        """The exit code, None while it runs."""
        return self.popen.poll()

    def is_running(self) -> bool:
        return self.popen.poll() is None

    def wait(self, timeout: float | None = None) -> int:
        """Wait for the leader to exit (subprocess.TimeoutExpired after `timeout` s); its code."""
        return self.popen.wait(timeout=timeout)

    def signal(self, sig: int) -> None:
        """Send `sig` to the whole group (nothing when it is gone)."""
        if self.popen.poll() is None:
            signal_group(self.popen.pid, sig)

    def kill(self) -> None:
        """SIGKILL to the group: an end with no clean-up, as a crash would be."""
        self.signal(signal.SIGKILL)

    def stop(self, sigint_s: float = 5.0, sigterm_s: float = 2.0, sigkill_s: float = 2.0,
             on_escalate: Callable[[str], None] | None = None) -> str:
        """The stop sequence (module docstring); then the output is closed. How it ended."""
        how = stop_group(self.popen, sigint_s, sigterm_s, sigkill_s, on_escalate)
        if self._pump is not None:
            self._pump.join(timeout=2.0)
        if self._log is not None:
            self._log.close()
        return how
