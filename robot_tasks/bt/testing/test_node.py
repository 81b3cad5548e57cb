"""TestNode: the configurable mock a substitution rule puts in place of a node
(BT.CPP 4.10 `actions/test_node.h`, `src/actions/test_node.cpp`).

A `TestNodeConfig` says what the mock does when it *completes*:

1. its status: `complete_func()` if given, else the value of `return_status_script`
   if given (a script that may name `SUCCESS`, `FAILURE`, `RUNNING`, `SKIPPED`), else
   `return_status`;
2. then one script, chosen by that status: `success_script` on SUCCESS,
   `failure_script` on FAILURE;
3. then `post_script`, whatever the status.

*When* it completes depends on `async_delay` (milliseconds):

- `async_delay <= 0`: synchronously, in its first tick (no RUNNING in between);
- `async_delay > 0`: the first tick starts a timer and returns RUNNING; every tick
  before the timer fires returns RUNNING; when it fires it wakes the tree up
  (`tick_while_running` does not wait out its sleep) and the next tick completes.
  A halt cancels the timer and no script runs.

The scripts are BT.CPP scripts, compiled when the node is created (a syntax error is
a tree-creation error) and run against the node's blackboard. `return_status_script`
also sees the status names as numbers (IDLE=0 ... SKIPPED=4); the other scripts see
only the factory's enums, so a blackboard entry called `SUCCESS` is still readable.

Two corners kept from BT.CPP's code: a completion status of IDLE (or anything that is
not a status) is an error at tick time; and a completion that says RUNNING leaves the
node RUNNING -- a synchronous mock then stays RUNNING for good, while an asynchronous
one completes again (re-running the script) at every later tick, which makes a
"wait until the blackboard says so" mock.
"""
from __future__ import annotations

import dataclasses
import datetime
import threading
from dataclasses import dataclass
from typing import Any, Callable

from ..action_nodes import StatefulActionNode
from ..errors import RuntimeTreeError
from ..node import NodeConfig
from ..scripts import compile_script
from ..status import FAILURE, RUNNING, SKIPPED, SUCCESS, NodeStatus
from ..timer_queue import shared_timer_queue

# The names return_status_script may use, on top of the factory's enums.
STATUS_ENUMS = {status.name: status.value for status in NodeStatus}


@dataclass
class TestNodeConfig:
    """What a TestNode returns and does (BT.CPP `TestNodeConfig`; every field optional).

    - `return_status`: the status on completion (default SUCCESS); IDLE is refused.
    - `return_status_script`: a script whose value is the status ('SUCCESS', or a
      status name used as a number); it wins over `return_status`.
    - `success_script` / `failure_script`: run on a SUCCESS / FAILURE completion.
    - `post_script`: run after every completion (not on halt).
    - `async_delay`: milliseconds before completion (0 = synchronous); a
      `datetime.timedelta` is accepted too.
    - `complete_func`: a function of no arguments returning the status; it wins over both.
    """

    __test__ = False  # not a pytest test class, despite the name

    return_status: NodeStatus = SUCCESS
    success_script: str = ""
    failure_script: str = ""
    post_script: str = ""
    async_delay: float = 0
    complete_func: Callable[[], NodeStatus] | None = None
    return_status_script: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.return_status, str):
            self.return_status = status_from_name(self.return_status)
        if isinstance(self.async_delay, datetime.timedelta):
            self.async_delay = self.async_delay.total_seconds() * 1000.0

    def copy(self) -> TestNodeConfig:
        return dataclasses.replace(self)


def status_from_name(text: str) -> NodeStatus:
    """BT.CPP `convertFromString<NodeStatus>`: the exact upper-case names only."""
    if isinstance(text, str) and text in NodeStatus.__members__:
        return NodeStatus[text]
    raise RuntimeTreeError(f"Cannot convert this to NodeStatus: {text!r} "
                           f"(use IDLE, RUNNING, SUCCESS, FAILURE or SKIPPED)")


def check_status(status: Any, source: str, node: str) -> NodeStatus:
    """`status` if a TestNode may return it (RUNNING, SUCCESS, FAILURE, SKIPPED)."""
    if status is RUNNING or status is SUCCESS or status is FAILURE or status is SKIPPED:
        return status
    shown = f"integer value: {status.value}" if isinstance(status, NodeStatus) else repr(status)
    raise RuntimeTreeError(f"TestNode [{node}]: {source} resolved to invalid status ({shown})")


def status_from_script_result(result: Any, node: str) -> NodeStatus:
    """The status a return_status_script's value stands for (BT.CPP
    `convertScriptResultToStatus`): a status name, or an integral number 1..4."""
    if result is None:
        raise RuntimeTreeError(f"TestNode [{node}]: return_status_script returned an empty value")
    if isinstance(result, str):
        return check_status(status_from_name(result), "return_status_script", node)
    if isinstance(result, (int, float)):
        if isinstance(result, float) and not result.is_integer():
            raise RuntimeTreeError(f"TestNode [{node}]: return_status_script must evaluate to a "
                                   f"NodeStatus-compatible value, got {result!r}")
        number = int(result)
        try:
            status = NodeStatus(number)
        except ValueError:
            raise RuntimeTreeError(f"TestNode [{node}]: return_status_script resolved to invalid status "
                                   f"(integer value: {number})") from None
        return check_status(status, "return_status_script", node)
    raise RuntimeTreeError(f"TestNode [{node}]: return_status_script must evaluate to a "
                           f"NodeStatus-compatible value, got {result!r}")


class TestNode(StatefulActionNode):
    """A mock leaf driven by a TestNodeConfig (see the module docstring).

    Created by the factory when a substitution rule with a TestNodeConfig matches a
    node; it gets that node's name, path, blackboard and port remapping (it declares
    no ports of its own and reads none), and keeps its registration ID.
    """

    __test__ = False

    def __init__(self, name: str, config: NodeConfig | None, test_config: TestNodeConfig):
        super().__init__(name, config)
        self.test_config = test_config
        self.registration_id = "TestNode"  # the factory then sets the ID it replaces, as BT.CPP does
        if not test_config.return_status_script:
            check_status(test_config.return_status, "return_status", self.full_path)
        self._return_status_program = _compiled(test_config.return_status_script)
        self._success_program = _compiled(test_config.success_script)
        self._failure_program = _compiled(test_config.failure_script)
        self._post_program = _compiled(test_config.post_script)
        self._lock = threading.Lock()
        self._completed = False
        self._timer_id: int | None = None
        self._generation = 0  # a timer from before a halt must not complete a later run

    def on_start(self) -> NodeStatus:
        delay_ms = self.test_config.async_delay
        if delay_ms <= 0:
            return self.on_completed()
        with self._lock:
            self._completed = False
            self._generation += 1
            generation = self._generation
        self._timer_id = shared_timer_queue().add(delay_ms / 1000.0, lambda: self._on_timer(generation))
        return RUNNING

    def on_running(self) -> NodeStatus:
        return self.on_completed() if self._completed else RUNNING

    def on_halted(self) -> None:
        with self._lock:
            self._generation += 1
            self._completed = False
        if self._timer_id is not None:
            shared_timer_queue().cancel(self._timer_id)
            self._timer_id = None

    def _on_timer(self, generation: int) -> None:
        with self._lock:
            if generation != self._generation:
                return
            self._completed = True
        self.emit_wake_up_signal()

    def on_completed(self) -> NodeStatus:
        """Decide the status, then run success/failure_script and post_script."""
        config = self.config
        if self.test_config.complete_func is not None:
            status = self.test_config.complete_func()
        elif self._return_status_program is not None:
            enums = {**config.enums, **STATUS_ENUMS}
            result = self._return_status_program.evaluate(config.blackboard, enums)
            status = status_from_script_result(result, self.full_path)
        else:
            status = self.test_config.return_status
        check_status(status, "completion", self.full_path)
        if status is SUCCESS and self._success_program is not None:
            self._success_program.evaluate(config.blackboard, config.enums)
        elif status is FAILURE and self._failure_program is not None:
            self._failure_program.evaluate(config.blackboard, config.enums)
        if self._post_program is not None:
            self._post_program.evaluate(config.blackboard, config.enums)
        return status


def _compiled(source: str):
    return compile_script(source) if source else None


__all__ = ["STATUS_ENUMS", "TestNode", "TestNodeConfig", "check_status", "status_from_name",
           "status_from_script_result"]
