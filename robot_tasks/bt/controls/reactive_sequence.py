"""ReactiveSequence (BT.CPP `reactive_sequence.cpp`)."""
from __future__ import annotations

from ..status import FAILURE, IDLE, RUNNING, SKIPPED, SUCCESS, NodeStatus
from .reactive import ReactiveNode


class ReactiveSequenceNode(ReactiveNode):
    """Re-ticks every child from the first one at each tick.

    When child i is RUNNING every other child is halted (earlier ones reset, a later
    running one halted); a FAILURE resets all children (halting a running one).
    Several asynchronous children halt each other (see ReactiveNode).
    """

    kind = "ReactiveSequence"

    def tick(self) -> NodeStatus:
        # Hot (scripted guards live here): locals only, the per-tick halts and resets inlined.
        if self.status is IDLE:
            self.running_child = -1
        self.status = RUNNING
        children = self.children
        all_skipped = True
        index = 0
        for child in children:
            child_status = child.execute_tick()
            if child_status is SUCCESS:
                all_skipped = False
            elif child_status is RUNNING:
                self._run_only(index)
                return RUNNING
            elif child_status is FAILURE:
                self.reset_children()
                return FAILURE
            elif child_status is SKIPPED:
                if child.status is RUNNING:  # haltChild(index)
                    child.halt_node()
                child.status = IDLE
            else:
                raise self._child_returned_idle()
            index += 1
        for child in children:  # resetChildren, inlined
            if child.status is RUNNING:
                child.halt_node()
            child.status = IDLE
        return SKIPPED if all_skipped else SUCCESS
