"""Ending an action goal: its terminal state and its log line, from the outcome's name.

Every server here ends a goal the same way. An outcome SUCCESS succeeds the goal;
CANCELLED after the client asked to cancel marks it canceled; anything else (a failure,
PREEMPTED by a newer goal, a cancel the server decided itself) aborts it, because ROS 2
only allows "canceled" in answer to a cancel request. The ends a client asked for
(SUCCESS, CANCELLED, PREEMPTED) are logged as info, failures as warnings.
"""
from __future__ import annotations

REQUESTED_ENDS = ("SUCCESS", "CANCELLED", "PREEMPTED")


def end_goal(handle, outcome: str, logger=None, text: str = "") -> None:
    """Put `handle` in its terminal state for `outcome` and log `text` (if a logger is given)."""
    outcome = str(getattr(outcome, "value", outcome))
    if outcome == "SUCCESS":
        handle.succeed()
    elif outcome == "CANCELLED" and handle.is_cancel_requested:
        handle.canceled()
    elif handle.is_active:
        handle.abort()
    if logger is not None:
        if outcome in REQUESTED_ENDS:
            logger.info(text)
        else:  # rclpy: one call site, one severity
            logger.warning(text)
