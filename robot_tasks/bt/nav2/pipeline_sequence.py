"""PipelineSequence (Nav2 `pipeline_sequence.cpp`).

A pipeline keeps every stage it has reached alive. Think "compute a path, then
follow it": while the follower (a later child) runs, the planner (an earlier child)
is ticked again every tick, so it can keep refining the path.

Every tick walks the children from the first:
- a child that returns SUCCESS (or SKIPPED) lets the walk go on to the next one;
- a RUNNING child at or beyond the furthest index reached so far stops the walk:
  the node returns RUNNING and remembers that index. A RUNNING child *before* that
  index does not stop it, so the running stage further on keeps being ticked;
- a FAILURE halts all children, forgets the index and returns FAILURE;
- after the last child: halt/reset all children, forget the index, return SUCCESS,
  or SKIPPED when every child was skipped this tick.
Unlike BT.CPP's Sequence, finished children are re-ticked; unlike
ReactiveSequence, an earlier RUNNING child does not halt the later ones.
"""
from __future__ import annotations

from ..control_node import ControlNode
from ..errors import LogicError
from ..node import NodeConfig
from ..status import FAILURE, RUNNING, SKIPPED, SUCCESS, NodeStatus


class PipelineSequenceNode(ControlNode):
    """Sequence that re-ticks earlier children while a later one runs (Nav2)."""

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self.last_child_ticked = 0

    def tick(self) -> NodeStatus:
        skipped = 0
        for index, child in enumerate(self.children):
            status = child.execute_tick()
            if status is FAILURE:
                self.reset_children()
                self.last_child_ticked = 0
                return FAILURE
            if status is SKIPPED:
                skipped += 1
            elif status is RUNNING:
                if index >= self.last_child_ticked:
                    self.last_child_ticked = index
                    return RUNNING
            elif status is not SUCCESS:
                raise LogicError(f"Invalid node status. Received status {status} from child {child.name}")
        self.reset_children()
        self.last_child_ticked = 0
        return SKIPPED if skipped == len(self.children) else SUCCESS

    def halt(self) -> None:
        ControlNode.halt(self)
        self.last_child_ticked = 0
