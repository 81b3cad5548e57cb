"""The shared blackboard of the pyramid task: who has which cube, who is in the middle.

Two robots take apart one pyramid. Each runs its own instance of the same tree; what
they must agree on lives in a blackboard both instances see (BT.CPP's way: every
instance's root blackboard has the same parent, and `@key` reaches it):

| entry                  | values                                     | written by            |
|------------------------|--------------------------------------------|-----------------------|
| `cubes`                | labels, top of the pyramid first           | SurveyPyramid         |
| `cube_state:<cube>`    | `available`, `reserved:<robot>`, `placed:<robot>` | ReserveCube, MarkPlaced, ReconcileOwnStack |
| `center_owner`         | `""` (free) or the robot in the middle     | Acquire/ReleaseCenterLock |
| `placed_<robot>`       | cubes that robot has stacked               | the tree's Script     |
| `done_<robot>`         | true when that robot's stack is complete   | the tree's Script     |

Why this is safe: one tree_executor ticks both instances in one loop, so a leaf's
tick is never interleaved with another's. "Read the state, then write it" inside
one tick is atomic; reserving and locking need nothing more (see the README for the
two-computer case).

This module is the bookkeeping alone, on anything with `get(key, default)` and
`set(key, value)` (a `Blackboard`, or a `DictBoard` in tests); no tree, no ROS.
"""
from __future__ import annotations

from typing import Any, Iterable, Protocol

AVAILABLE = "available"
RESERVED = "reserved"
PLACED = "placed"
NO_ONE = ""


class Board(Protocol):
    def get(self, key: str, default: Any = ...) -> Any: ...
    def set(self, key: str, value: Any) -> None: ...


class DictBoard(dict):
    """A dict with the two Blackboard methods this module uses (for pure tests)."""

    def set(self, key: str, value: Any) -> None:
        self[key] = value


def state_key(cube: str) -> str:
    return f"cube_state:{cube}"


def cube_state(board: Board, cube: str) -> str:
    """`available`, `reserved:<robot>` or `placed:<robot>` (a cube never surveyed: available)."""
    return str(board.get(state_key(cube), AVAILABLE))


def reserved_by(board: Board, cube: str) -> str | None:
    state = cube_state(board, cube)
    return state.split(":", 1)[1] if state.startswith(RESERVED + ":") else None


def reservation_of(board: Board, cubes: Iterable[str], robot: str) -> str | None:
    """The cube `robot` holds a reservation on, if any (at most one by construction)."""
    return next((c for c in cubes if reserved_by(board, c) == robot), None)


def reserve_first(board: Board, robot: str, walk: Iterable[str], free: set[str]) -> str | None:
    """Reserve for `robot` the first cube of its `walk` that is available and `free`
    (nothing rests on it); a cube it already holds a reservation on is kept. Returns
    the cube, or None when nothing can be taken now."""
    walk = list(walk)
    mine = reservation_of(board, walk, robot)
    if mine is not None:
        return mine
    for cube in walk:
        if cube in free and cube_state(board, cube) == AVAILABLE:
            board.set(state_key(cube), f"{RESERVED}:{robot}")
            return cube
    return None


def mark_placed(board: Board, cube: str, robot: str) -> None:
    board.set(state_key(cube), f"{PLACED}:{robot}")


def placed_by(board: Board, cubes: Iterable[str], robot: str) -> list[str]:
    """The cubes booked as on `robot`'s stack."""
    return [c for c in cubes if cube_state(board, c) == f"{PLACED}:{robot}"]


def unbook_placed(board: Board, cube: str, robot: str) -> bool:
    """A cube knocked off `robot`'s stack is `available` again; True if it was booked there."""
    if cube_state(board, cube) != f"{PLACED}:{robot}":
        return False
    board.set(state_key(cube), AVAILABLE)
    return True


def release_reservation(board: Board, cube: str, robot: str) -> bool:
    """Give a reserved cube back (e.g. it went out of reach); True if it was ours."""
    if reserved_by(board, cube) != robot:
        return False
    board.set(state_key(cube), AVAILABLE)
    return True


def center_owner(board: Board) -> str:
    return str(board.get("center_owner", NO_ONE) or NO_ONE)


def try_lock_center(board: Board, robot: str) -> bool:
    """Take the center-workspace lock for `robot`; True when it holds it afterwards."""
    owner = center_owner(board)
    if owner not in (NO_ONE, robot):
        return False
    if owner != robot:
        board.set("center_owner", robot)
    return True


def unlock_center(board: Board, robot: str) -> bool:
    """Release the lock if `robot` holds it; True if it did."""
    if center_owner(board) != robot:
        return False
    board.set("center_owner", NO_ONE)
    return True
