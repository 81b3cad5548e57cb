"""ForceFailure (BT.CPP `force_failure_node.h`)."""
from __future__ import annotations

from ..status import FAILURE
from .forced_result import ForcedResultNode


class ForceFailureNode(ForcedResultNode):
    """A completed child (SUCCESS or FAILURE) becomes FAILURE; RUNNING/SKIPPED pass."""

    forced = FAILURE
