"""The shared blackboard of the pyramid task: who has which cube, who is in the middle.

Two robots take apart one pyramid. Each runs its own instance of the same tree; what
they must agree on lives in a blackboard both instances see (BT.CPP's way: every
instance's root blackboard has the same parent, and `@key` reaches it):

| entry                  | values                                     | written by            |
|------------------------|--------------------------------------------|-----------------------|
| `cubes`                | labels, top of the pyramid first           | SurveyPyramid         |
| `cube_state:<cube>`    | `available`, `reserved:<robot>`, `placed:<robot>` | ReserveCube, MarkPlaced, ReconcileOwnStack |
| `center_owner`         | `""` (free) or the robot in the middle     | Acquire/ReleaseCenterLock |
| `center_next`          | `""` or the robot that waited for the middle: its turn next | AcquireCenterLock |
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
    """Take the center-workspace lock for `robot`; True when it holds it afterwards.

    The lock takes turns: a robot that finds it held is next (`center_next`), and when
    the holder lets go, the lock is that robot's even if the holder asks again first.
    Without turns, a robot whose pick fails and which leaves the center to try again
    would retake it in the same tick, and the other robot, often the one that must
    clear what is in the way, would never get in."""
    owner, waiting = center_owner(board), center_next(board)
    if owner == robot:
        return True
    if owner != NO_ONE:
        if waiting == NO_ONE:
            board.set("center_next", robot)
        return False
    if waiting not in (NO_ONE, robot):
        return False
    board.set("center_owner", robot)
    board.set("center_next", NO_ONE)
    return True


def center_next(board: Board) -> str:
    """The robot whose turn in the center is next ("" = whoever asks first)."""
    return str(board.get("center_next", NO_ONE) or NO_ONE)


def stop_waiting_for_center(board: Board, robot: str) -> None:
    """`robot` no longer waits for the center (its wait was halted): it gives up its turn."""
    if center_next(board) == robot:
        board.set("center_next", NO_ONE)


def unlock_center(board: Board, robot: str) -> bool:
    """Release the lock if `robot` holds it; True if it did."""
    if center_owner(board) != robot:
        return False
    board.set("center_owner", NO_ONE)
    return True
