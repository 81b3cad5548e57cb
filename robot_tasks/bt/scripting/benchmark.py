"""Print µs per script evaluation: `python -m robot_tasks.bt.scripting.benchmark`.

A benchmark, not a test (no assertions): the lead may move it under bench/. Each script
is compiled once and evaluated `ROUNDS x REPEATS` times on a dict-backed blackboard and,
when importable, on the engine's Blackboard; the best round is reported.
"""
from __future__ import annotations

import time

from .program import parse_script

SCRIPTS = ["a := a + 1", "a = a + 1", "a += 1", "b < 3 && a > 0", "s == 'x' ? 1 : 2",
           "a := 0; b := b * 1.0; a < 10"]
ROUNDS = 5
REPEATS = 50_000


class DictBlackboard:
    """The evaluator's protocol over a plain dict (the cheapest possible blackboard)."""

    __slots__ = ("entries",)

    def __init__(self):
        self.entries = {}

    def get(self, key):
        return self.entries[key]

    def has_entry(self, key):
        return key in self.entries

    def set(self, key, value):
        self.entries[key] = value


def microseconds_per_evaluation(source: str, board) -> float:
    evaluate = parse_script(source).evaluate
    enums: dict[str, int] = {}
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(REPEATS):
            evaluate(board, enums)
        best = min(best, (time.perf_counter() - start) / REPEATS)
    return best * 1e6


def main() -> None:
    boards = [("dict blackboard", DictBlackboard)]
    try:
        from ..blackboard import Blackboard
        boards.append(("engine Blackboard", Blackboard))
    except ImportError:
        pass
    header = f"{'script':34s}" + "".join(f"{name:>20s}" for name, _ in boards)
    print(header + "   (µs per evaluation, best of 5)")
    for source in SCRIPTS:
        cells = []
        for _, make in boards:
            board = make()
            board.set("a", 0)
            board.set("b", 2.5)
            board.set("s", "x")
            cells.append(f"{microseconds_per_evaluation(source, board):20.3f}")
        print(f"{source!r:34s}" + "".join(cells))


if __name__ == "__main__":
    main()
