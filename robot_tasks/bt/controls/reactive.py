"""ReactiveNode: what ReactiveSequence and ReactiveFallback share.

A reactive control node ticks every child from the first one at each tick, so an earlier
child -- typically a guard condition -- is checked again while a later one runs. One
child at a time may run: when child i returns RUNNING every other child is halted
(earlier ones are reset, a later running one is halted), and the node remembers i in
`running_child` (-1: none yet since the node was idle or halted).

Several asynchronous children that return RUNNING in turn halt each other. Set
`throw_if_multiple_running = True` on a node class (BT.CPP's static
`EnableException(true)`, off by default since 4.6) to make that a LogicError instead.
"""
from __future__ import annotations

from ..control_node import ControlNode
from ..errors import LogicError
from ..node import NodeConfig
from ..status import IDLE, RUNNING


class ReactiveNode(ControlNode):
    """Base of the reactive controls: the running child and its bookkeeping."""

    kind: str  # the BT.CPP node name, for error messages
    throw_if_multiple_running = False

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.running_child = -1

    @classmethod
    def enable_exception(cls, enable: bool) -> None:
        cls.throw_if_multiple_running = enable

    def _run_only(self, index: int) -> None:
        """Child `index` returned RUNNING: halt every other child and remember it as the
        running one (a LogicError if another one was, and exceptions are enabled)."""
        for other, sibling in enumerate(self.children):
            if other != index:  # haltChild: earlier ones reset, a later running one halted
                if sibling.status is RUNNING:
                    sibling.halt_node()
                sibling.status = IDLE
        if self.running_child == -1:
            self.running_child = index
        elif self.throw_if_multiple_running and self.running_child != index:
            raise LogicError(f"[{self.kind} '{self.name}']: only a single child can return RUNNING")

    def halt(self) -> None:
        self.running_child = -1
        ControlNode.halt(self)
