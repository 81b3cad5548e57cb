"""What a child process inherits: its environment, its parent's death, and Ctrl-C.

A child process starts with a copy of its parent's environment variables, its signal
dispositions (a signal the parent *ignores* stays ignored in the child, across exec), and
no tie to its parent's life: when the parent is killed, the child goes on, an orphan.

- :func:`child_environment`: the environment of a node: this one, plus the loopback DDS
  settings (:mod:`robot_tasks.ros.dds`), with this source tree importable and Python's
  output unbuffered (so its lines arrive as they are printed).
- :func:`die_with_parent`: run in the child between fork and exec (``preexec_fn``): Linux
  sends it SIGTERM when its parent dies (``prctl(PR_SET_PDEATHSIG)``), so a killed
  supervisor leaves no orphan nodes behind, even though it started them in their own
  process group (where a Ctrl-C or a kill of its own group does not reach them). The libc
  function is looked up here, in the parent, once: between fork and exec only the calling
  thread exists, and a lookup there could wait forever on a lock another thread held.
- :func:`let_children_receive_sigint`: a process started in the background by a
  non-interactive shell ignores SIGINT, and so would every child it starts: they would then
  only stop on SIGTERM. A *handled* SIGINT is reset to the default on exec, so installing
  Python's own handler in the parent gives the children back their SIGINT.
"""
from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

from robot_tasks.ros.dds import loopback_environment

SOURCE_ROOT = str(Path(__file__).resolve().parents[2])   # the folder that holds robot_tasks/
PR_SET_PDEATHSIG = 1


def _find_prctl():
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None   # not Linux: orphans are possible after a SIGKILL of the parent


_PRCTL = _find_prctl()


def die_with_parent() -> None:
    """In the child, before exec: ask Linux to send SIGTERM when the parent dies."""
    if _PRCTL is not None:
        _PRCTL(PR_SET_PDEATHSIG, signal.SIGTERM)


def child_environment(dds_settings: dict[str, str] | None) -> dict[str, str]:
    """os.environ + the loopback DDS settings, with this source tree importable
    (robot_tasks may be used from a checkout without being pip-installed).
    `dds_settings` None: the deployment opted out of loopback (ROBOT_TASKS_DDS=system,
    see robot_tasks.ros.dds); the nodes get the user's own DDS configuration."""
    env = dict(os.environ) if dds_settings is None else loopback_environment(dds_settings)
    paths = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if SOURCE_ROOT not in paths:
        env["PYTHONPATH"] = os.pathsep.join([SOURCE_ROOT] + paths)
    env.setdefault("PYTHONUNBUFFERED", "1")   # node output appears line by line
    return env


def let_children_receive_sigint() -> None:
    """If this process ignores SIGINT, handle it instead (Python's KeyboardInterrupt), so
    the children started from now on receive SIGINT (see the module docstring). Only the
    main thread may install a handler; elsewhere this does nothing."""
    if (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.SIG_IGN):
        signal.signal(signal.SIGINT, signal.default_int_handler)
