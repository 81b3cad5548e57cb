"""ReactiveSequence (BT.CPP `reactive_sequence.cpp`)."""
from __future__ import annotations

from ..control_node import ControlNode
from ..errors import LogicError
from ..node import NodeConfig
from ..status import FAILURE, IDLE, RUNNING, SKIPPED, SUCCESS, NodeStatus


class ReactiveSequenceNode(ControlNode):
    """Re-ticks every child from the first one at each tick.

    When child i is RUNNING every other child is halted (earlier ones reset, a later
    running one halted); a FAILURE resets all children (halting a running one).
    Several asynchronous children halt each other; set
    `ReactiveSequenceNode.throw_if_multiple_running = True` to make that an error
    (BT.CPP's `EnableException(true)`; off by default since 4.6).
    """

    throw_if_multiple_running = False

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.running_child = -1

    @classmethod
    def enable_exception(cls, enable: bool) -> None:
        cls.throw_if_multiple_running = enable

    def tick(self) -> NodeStatus:
        # Hot (scripted guards live here): locals only, halts and resets inlined.
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
                for other, sibling in enumerate(children):
                    if other != index:  # haltChild: earlier ones reset, a later running one halted
                        if sibling.status is RUNNING:
                            sibling.halt_node()
                        sibling.status = IDLE
                if self.running_child == -1:
                    self.running_child = index
                elif self.throw_if_multiple_running and self.running_child != index:
                    raise LogicError(f"[ReactiveSequence '{self.name}']: only a single child can "
                                     f"return RUNNING")
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

    def halt(self) -> None:
        self.running_child = -1
        ControlNode.halt(self)
