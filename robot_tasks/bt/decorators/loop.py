"""LoopInt / LoopDouble / LoopString / LoopBool (BT.CPP 4.10 `loop_node.h`).

A loop decorator walks through a queue of values: each time its child is about to
start, it pops the front value, writes it to the output port `value` and ticks the
child with it. It is the tree-level "for each waypoint" of BT.CPP's example 4.

Tick by tick (this is BT.CPP's code, not its prose):
- While the child is not RUNNING, every tick pops one value and ticks the child.
  The loop returns RUNNING after every child SUCCESS (or SKIPPED), **without**
  emitting wake-up, so a queue of N values needs N+1 ticks: the last one finds the
  queue empty and returns `if_empty` (SUCCESS by default; FAILURE, SKIPPED ... are
  allowed).
- A child FAILURE ends the loop with FAILURE at once; the values left stay queued.
- A RUNNING child is ticked again without popping.

Where the queue comes from (port `queue`, untyped as in 4.10):
- a literal `queue="1;2;3"` is parsed once at creation (`;`-separated, each part
  converted to the loop's type) and copied afresh each time the loop starts;
- `{key}` holding a `collections.deque` (BT.CPP's `SharedQueue<T>`): that very deque
  is popped, so the blackboard sees it shrink;
- `{key}` holding a list/tuple (BT.CPP's `std::vector<T>`) or a `;`-separated
  string: converted into the loop's own queue on the first read only. As in 4.10,
  that converted queue is kept for the node's lifetime (it is not rebuilt when the
  loop starts again), so a second run over the same node finds it empty.
- an empty entry on the first read is a RuntimeTreeError.
BT.CPP 4.8 accepted only a SharedQueue entry (and re-parsed a string entry on every
pop, never reaching its end); 4.10 added the list and string forms (#969, #1065).
"""
from __future__ import annotations

from collections import deque

from ..blackboard import EMPTY
from ..decorator_node import DecoratorNode
from ..errors import PortError, RuntimeTreeError
from ..node import NodeConfig
from ..ports import BidirectionalPort, InputPort, OutputPort, blackboard_key, convert_from_string
from ..status import FAILURE, IDLE, RUNNING, SUCCESS, NodeStatus


def split_queue_text(text: str) -> list[str]:
    """BT.CPP `splitString(text, ';')`: '' gives no part, a trailing ';' adds none."""
    parts = text.split(";")
    if parts and parts[-1] == "":
        parts.pop()
    return parts


class LoopNode(DecoratorNode):
    """Pops values from a queue into `value` and ticks the child once per value.
    Subclasses fix the value type (`value_type`); see the module docstring."""

    value_type: type | None = None

    @classmethod
    def provided_ports(cls):
        return [BidirectionalPort("queue"),
                InputPort("if_empty", NodeStatus, default=SUCCESS,
                          description="Status to return if queue is empty: SUCCESS, FAILURE, SKIPPED"),
                OutputPort("value", cls.value_type)]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self._child_running = False
        self._static_queue: list | None = None
        self._current_queue: deque | None = None
        raw = self.config.input_ports.get("queue")
        if raw is None:
            raise PortError(f"node '{self.full_path}': the port [queue] is not set")
        if blackboard_key(raw, "queue") is None:
            self._static_queue = self._parse(raw)

    def _parse(self, text: str) -> list:
        try:
            return [convert_from_string(part, self.value_type, self.config.enums)
                    for part in split_queue_text(text)]
        except (ValueError, TypeError) as exc:
            raise PortError(f"node '{self.full_path}': port [queue]: {exc}") from None

    def _read_queue(self) -> None:
        key = blackboard_key(self.config.input_ports["queue"], "queue")
        board = self.config.blackboard
        entry = board.get_entry(key)
        if entry is None:
            entry = board.create_entry(key)
        value = entry.value
        if isinstance(value, deque):
            self._current_queue = value
        elif self._current_queue is None:
            if isinstance(value, (list, tuple)):
                self._current_queue = deque(value)
            elif isinstance(value, str):
                self._current_queue = deque(self._parse(value))
            else:
                what = "empty" if value is EMPTY else f"a {type(value).__name__}"
                raise RuntimeTreeError(f"node '{self.full_path}': port 'queue' must contain a deque, a "
                                       f"list or a ';'-separated string, but [{key}] is {what}")

    def tick(self) -> NodeStatus:
        popped = False
        if self.status is IDLE:
            self._child_running = False
            if self._static_queue is not None:
                self._current_queue = deque(self._static_queue)
        if not self._child_running:
            if self._static_queue is None:
                self._read_queue()
            queue = self._current_queue
            if queue:
                value = queue.popleft()
                popped = True
                if "value" in self.config.output_ports:  # BT.CPP ignores a missing port
                    self.set_output("value", value)
        if not popped and not self._child_running:
            return self.get_input("if_empty")
        if self.status is IDLE:
            self.status = RUNNING
        child_status = self.child.execute_tick()
        self._child_running = child_status is RUNNING
        if child_status is SUCCESS or child_status is FAILURE:
            self.reset_child()
        return FAILURE if child_status is FAILURE else RUNNING


class LoopIntNode(LoopNode):
    """LoopNode over int values."""

    value_type = int


class LoopDoubleNode(LoopNode):
    """LoopNode over float values."""

    value_type = float


class LoopStringNode(LoopNode):
    """LoopNode over string values."""

    value_type = str


class LoopBoolNode(LoopNode):
    """LoopNode over bool values."""

    value_type = bool
