"""ForceSuccess (BT.CPP `force_success_node.h`)."""
from __future__ import annotations

from ..status import SUCCESS
from .forced_result import ForcedResultNode


class ForceSuccessNode(ForcedResultNode):
    """A completed child (SUCCESS or FAILURE) becomes SUCCESS; RUNNING/SKIPPED pass."""

    forced = SUCCESS
