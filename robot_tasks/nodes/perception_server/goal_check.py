"""Is a DetectObjects goal well formed? One function, one message per problem.

Bad goals are accepted and then aborted with error_code INVALID_GOAL and a message that
names the field, rather than rejected: a rejection carries no reason, and every result
of this project carries a code and a human-readable message.
"""
from __future__ import annotations

import math
from typing import Iterable


def goal_problem(labels: Iterable[str], min_confidence: float, timeout: float,
                 known_labels: Iterable[str]) -> str | None:
    """None if the goal is fine, else what is wrong with it."""
    known = sorted(set(known_labels))
    unknown = [label for label in labels if label not in known]
    if unknown:
        return f"labels: unknown {unknown}; known labels: {', '.join(known)}"
    if not (math.isfinite(min_confidence) and 0.0 <= min_confidence <= 1.0):
        return f"min_confidence must be in [0, 1], got {min_confidence}"
    if not (math.isfinite(timeout) and timeout >= 0.0):
        return f"timeout must be a finite number >= 0 (0 = server default), got {timeout}"
    return None
