"""RetryUntilSuccessful (BT.CPP `retry_node.cpp`)."""
from __future__ import annotations

from ..ports import InputPort
from ..status import FAILURE
from .counted_loop import CountedLoopNode


class RetryNode(CountedLoopNode):
    """Ticks the child again after each FAILURE, up to `num_attempts` tries (-1 =
    forever); `num_attempts` is re-read after every failure. Yields RUNNING with
    wake-up between synchronous attempts (see CountedLoopNode)."""

    again = FAILURE
    limit_port = "num_attempts"
    reread_limit = True

    @staticmethod
    def provided_ports():
        return [InputPort("num_attempts", int, description="Execute again a failing child up to N "
                                                           "times. Use -1 to create an infinite loop.")]
