"""Repeat (BT.CPP `repeat_node.cpp`)."""
from __future__ import annotations

from ..ports import InputPort
from ..status import SUCCESS
from .counted_loop import CountedLoopNode


class RepeatNode(CountedLoopNode):
    """Ticks the child until it succeeded `num_cycles` times (-1 = forever).

    A FAILURE ends it (FAILURE, counter reset). After each synchronous success with
    cycles left it yields RUNNING and emits wake-up (see CountedLoopNode).
    """

    again = SUCCESS
    limit_port = "num_cycles"

    @staticmethod
    def provided_ports():
        return [InputPort("num_cycles", int, description="Repeat a successful child up to N times. "
                                                         "Use -1 to create an infinite loop.")]
