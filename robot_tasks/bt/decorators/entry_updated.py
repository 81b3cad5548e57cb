"""SkipUnlessUpdated and WaitValueUpdate (BT.CPP 4.10 `updated_decorator.cpp`).

Every blackboard entry counts its writes (`Entry.sequence_id`, BT.CPP's
`sequence_id`). These decorators remember the count they saw last time and tick
their child only when it has changed, i.e. when somebody wrote the entry since:
"react to new data, do nothing otherwise".

- The entry is named by the port `entry`, either `{key}` or the bare key.
- On a tick, if the entry is missing or its write count is the one seen last time,
  the child is not ticked and the node returns its "not updated" status:
  SKIPPED for SkipUnlessUpdated, RUNNING for WaitValueUpdate (which so waits for the
  next write). Otherwise the child is ticked.
- The count starts at 0, so an entry written once before the first tick counts as
  updated; an entry created empty by a port remap (count 0) does not.
- While the child is RUNNING it is ticked again without looking at the entry.
- halt() forgets the running child and halts it (the call to the base halt was
  added in 4.10, BT.CPP #1112; before, the child was left RUNNING).
"""
from __future__ import annotations

from ..decorator_node import DecoratorNode
from ..errors import LogicError
from ..node import NodeConfig
from ..ports import InputPort, blackboard_key
from ..status import RUNNING, SKIPPED, NodeStatus


def entry_key_of(node) -> str:
    """The key the `entry` port names: `{key}` or a bare key (BT.CPP reads it raw)."""
    raw = node.config.input_ports.get("entry", "")
    if not raw:
        raise LogicError(f"Missing port 'entry' in {node.name}")
    return blackboard_key(raw, "entry") or raw


def entry_port():
    return InputPort("entry", description="Entry to check")


class EntryWatch:
    """The write count of the entry a node's `entry` port names, as last seen by that node."""

    def __init__(self, node):
        self.key = entry_key_of(node)
        self.sequence_id = 0

    def updated(self, blackboard) -> bool | None:
        """None when the entry does not exist; else whether it was written since the last call."""
        entry = blackboard.get_entry(self.key)
        if entry is None:
            return None
        previous, self.sequence_id = self.sequence_id, entry.sequence_id
        return previous != entry.sequence_id


class EntryUpdatedDecorator(DecoratorNode):
    """Ticks the child only when the entry was written since the last check."""

    if_not_updated: NodeStatus = SKIPPED

    @staticmethod
    def provided_ports():
        return [entry_port()]

    def __init__(self, name: str, config: NodeConfig | None = None):
        super().__init__(name, config)
        self._watch = EntryWatch(self)
        self._child_running = False

    def tick(self) -> NodeStatus:
        if not self._child_running and not self._watch.updated(self.config.blackboard):
            return self.if_not_updated
        status = self.child.execute_tick()
        self._child_running = status is RUNNING
        return status

    def halt(self) -> None:
        self._child_running = False
        DecoratorNode.halt(self)


class SkipUnlessUpdatedNode(EntryUpdatedDecorator):
    """SKIPPED unless the entry was written since the last check; then the child runs."""

    if_not_updated = SKIPPED


class WaitValueUpdateNode(EntryUpdatedDecorator):
    """RUNNING until the entry is written again; then the child runs."""

    if_not_updated = RUNNING
