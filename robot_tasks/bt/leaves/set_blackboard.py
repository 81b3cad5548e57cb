"""SetBlackboard (BT.CPP `set_blackboard_node.h`)."""
from __future__ import annotations

from ..action_nodes import SyncActionNode
from ..blackboard import EMPTY
from ..errors import LogicError, RuntimeTreeError
from ..ports import BidirectionalPort, InputPort, blackboard_key, convert_from_string, type_name
from ..status import FAILURE, SUCCESS, NodeStatus


class SetBlackboardNode(SyncActionNode):
    """Writes `value` (a literal, or `{other_key}` to copy an entry) into the entry
    named by `output_key`. FAILURE when the copied entry is empty."""

    @staticmethod
    def provided_ports():
        return [InputPort("value", description="Value to be written into the output_key"),
                BidirectionalPort("output_key", description="Name of the blackboard entry where the "
                                                            "value should be written")]

    def tick(self) -> NodeStatus:
        output_key = self.get_input("output_key")
        raw_value = self.config.input_ports.get("value", "")
        board = self.config.blackboard
        dst_entry = board.get_entry(output_key)
        source_key = blackboard_key(raw_value, "value")
        if source_key is not None:
            src_entry = board.get_entry(source_key)
            if src_entry is None:
                raise RuntimeTreeError(f"SetBlackboard '{self.name}': can't find the entry [{source_key}] "
                                       f"referred by [value]")
            if dst_entry is None:
                dst_entry = board.create_entry(output_key, src_entry.type)
            value = src_entry.value
        else:
            value = raw_value
        if value is EMPTY:
            return FAILURE
        if dst_entry is not None and dst_entry.type not in (None, str) and isinstance(value, str):
            try:
                value = convert_from_string(value, dst_entry.type, self.config.enums)
            except ValueError as exc:
                raise LogicError(f"Can't convert string [{value}] to type [{type_name(dst_entry.type)}]: "
                                 f"{exc}") from None
        board.set(output_key, value)
        return SUCCESS
