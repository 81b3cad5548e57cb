"""Node statuses, as in BT.CPP (`basic_types.h`).

`NodeStatus` is an Enum for readable output, but the engine's hot path compares
statuses by identity against the module-level constants below (`status is SUCCESS`),
which is cheaper than Enum equality.
"""
from __future__ import annotations

from enum import Enum


class NodeStatus(Enum):
    """What a node returns from a tick. Values match BT.CPP (used by Groot2's status buffer)."""

    IDLE = 0
    RUNNING = 1
    SUCCESS = 2
    FAILURE = 3
    SKIPPED = 4

    def __str__(self) -> str:
        return self.name

    @property
    def is_active(self) -> bool:
        """True unless IDLE or SKIPPED (BT.CPP `isStatusActive`)."""
        return self is not IDLE and self is not SKIPPED

    @property
    def is_completed(self) -> bool:
        """True for SUCCESS or FAILURE (BT.CPP `isStatusCompleted`)."""
        return self is SUCCESS or self is FAILURE


IDLE = NodeStatus.IDLE
RUNNING = NodeStatus.RUNNING
SUCCESS = NodeStatus.SUCCESS
FAILURE = NodeStatus.FAILURE
SKIPPED = NodeStatus.SKIPPED


def status_from_string(text: str) -> NodeStatus:
    """Parse 'SUCCESS', 'failure', ... into a NodeStatus; raise ValueError otherwise."""
    try:
        return NodeStatus[text.strip().upper()]
    except KeyError:
        raise ValueError(f"'{text}' is not a NodeStatus (IDLE, RUNNING, SUCCESS, FAILURE, SKIPPED)") from None
