"""Fallback and AsyncFallback (BT.CPP `fallback_node.cpp`)."""
from __future__ import annotations

from ..status import FAILURE
from .in_order import InOrderNode


class FallbackNode(InOrderNode):
    """Tick children in order until one does not fail: the mirror image of Sequence.

    SUCCESS as soon as a child succeeds (all children reset); FAILURE when every
    child failed; SKIPPED when every child was skipped (the loop: InOrderNode).
    """

    proceed = FAILURE


class AsyncFallbackNode(FallbackNode):
    """Fallback that returns RUNNING (with wake-up) after every synchronous failure."""

    asynch = True
