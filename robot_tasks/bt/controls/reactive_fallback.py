"""ReactiveFallback (BT.CPP `reactive_fallback.cpp`)."""
from __future__ import annotations

from ..status import FAILURE, IDLE, RUNNING, SKIPPED, SUCCESS, NodeStatus
from .reactive import ReactiveNode


class ReactiveFallbackNode(ReactiveNode):
    """Re-ticks every child from the first one at each tick; the mirror of
    ReactiveSequence (SUCCESS of a child ends it, FAILURE continues)."""

    kind = "ReactiveFallback"

    def tick(self) -> NodeStatus:
        all_skipped = True
        if self.status is IDLE:
            self.running_child = -1
        self.status = RUNNING
        for index, child in enumerate(self.children):
            child_status = child.execute_tick()
            all_skipped = all_skipped and child_status is SKIPPED
            if child_status is RUNNING:
                self._run_only(index)
                return RUNNING
            if child_status is SUCCESS:
                self.reset_children()
                return SUCCESS
            if child_status is SKIPPED:
                self.halt_child(index)
            elif child_status is not FAILURE:
                raise self._child_returned_idle()
        self.reset_children()
        return SKIPPED if all_skipped else FAILURE
