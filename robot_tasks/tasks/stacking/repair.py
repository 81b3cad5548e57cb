"""Keeping the stacking bookkeeping true to what perception sees, between transfers.

The tree books a cube as stacked when it releases it (MarkStacked), and before each
decision the ReconcileStack leaf squares the booking (`stacked`) with the image
(`reconcile`): cubes seen displaced are un-booked. Four situations need more than that, and each used to loop the task
until it gave up (measured with bench/stacking_success.py):

- a stack check (while holding) saw a stacked cube displaced, but the decision's own
  image does not show it: trust the check (`unbook_suspects`) -- the cube is picked and
  set down again, not judged twice (the two views disagreeing looped the task);
- a cube is already where the next transfer would put it (a false "displaced" finding
  un-booked it, or a disturbance left it there): book it in place (`book_in_place`),
  unless it is a suspect;
  a bottom cube that the camera cannot see under the cubes above it is booked when a
  cube higher in the order stands at its own slot on top of it;
- a cube that is not booked sits on the stack's column, or on top of the very cube the
  task needs next: move it off first (`blocking_cube`) -- a knocked stack often leaves
  the next cube of the order buried;
- the place a cube should go back to (its spawn) is taken: `parking_spot` finds a free
  place near it.

Plain Python on numbers, like plan: each function takes the blackboard entries
it needs and returns new values; the tree leaves in stacking.py call it.
"""
from __future__ import annotations

from typing import Sequence

from ..table_spots import free_spot
from ..world_view import Seen, Vec3, distance, horizontal_distance
from .plan import (
    DISPLACED_DISTANCE,
    EVIDENCE_CONFIDENCE,
    StackLayout,
    physical_level,
    slot_position,
    unstack_displaced,
)

PARK_CLEARANCE = 0.10        # m from every other cube and from the stack, centre to centre


def reconcile(layout: StackLayout, stacked: Sequence[str], suspects: Sequence[str], holding: str,
              seen: dict[str, Seen], tolerance: float = DISPLACED_DISTANCE) -> tuple[tuple[str, ...], list[str]]:
    """What every decision does first: un-book cubes seen displaced and suspects, then book
    cubes already in place. Returns the new booking and one note per change (for the log)."""
    stacked, notes = unbook_displaced(layout, stacked, seen, tolerance)
    stacked, removed = unbook_suspects(stacked, suspects)
    if removed:
        notes.append(f"stack_suspect: {removed[0]} was seen displaced; re-stack {', '.join(removed)}")
    stacked, runs = book_in_place(layout, stacked, suspects, holding, seen, tolerance)
    for level, run in runs:
        notes.append(f"in_place: {', '.join(run)} already at level {level}" +
                     (f"-{level + len(run) - 1}" if len(run) > 1 else ""))
    return stacked, notes


def unbook_displaced(layout: StackLayout, stacked: Sequence[str], seen: dict[str, Seen],
                     tolerance: float = DISPLACED_DISTANCE) -> tuple[tuple[str, ...], list[str]]:
    """Un-book the lowest cube seen displaced and everything above it
    (plan.unstack_displaced): the new booking and a note saying what went."""
    stacked, removed = unstack_displaced(layout, stacked, seen, tolerance)
    if not removed:
        return stacked, []
    return stacked, [f"stack_invalid: {removed[0]} displaced from level {len(stacked)}; re-stack {', '.join(removed)}"]


def unbook_suspects(stacked: Sequence[str], suspects: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(kept, removed): the booking without the lowest suspect (a stack check saw it
    displaced while a cube was held) and everything above it. The check's view may be
    the only one that shows the problem -- the decision's image can miss it -- so it is
    trusted, and the suspect gets picked and set down again rather than judged a second time."""
    levels = [level for level, label in enumerate(stacked) if label in suspects]
    if not levels:
        return tuple(stacked), ()
    return tuple(stacked[:levels[0]]), tuple(stacked[levels[0]:])


def book_in_place(layout: StackLayout, stacked: Sequence[str], suspects: Sequence[str], holding: str,
                  seen: dict[str, Seen], tolerance: float = DISPLACED_DISTANCE
                  ) -> tuple[tuple[str, ...], list[tuple[int, tuple[str, ...]]]]:
    """Book the next cubes of the order that already stand at their slots: the new booking
    and the runs booked, as (first level, labels)."""
    confident = {label: cube for label, cube in seen.items() if cube.confidence >= EVIDENCE_CONFIDENCE}
    stacked = tuple(stacked)
    runs: list[tuple[int, tuple[str, ...]]] = []
    while len(stacked) < len(layout.order):
        level = len(stacked)
        label = layout.order[level]
        cube = confident.get(label)
        if cube is not None:
            # a suspect (a stack check saw it displaced) is picked and put back, not trusted
            if label in suspects or label == holding or \
                    distance(cube.position, slot_position(layout, stacked, level, seen)) > tolerance:
                break
            run = (label,)
        else:
            run = _held_up_run(layout, stacked, seen, confident, level, tolerance)
            if not run or set(suspects).intersection(run):
                break
        stacked += run
        runs.append((level, run))
    return stacked, runs


def _held_up_run(layout: StackLayout, stacked: Sequence[str], seen: dict[str, Seen], confident: dict[str, Seen],
                 level: int, tolerance: float) -> tuple[str, ...]:
    """order[level..m] when order[m] is confidently seen at slot m, straight above the stack,
    and every cube of the order between is hidden or seen (vaguely) on the column: they must
    be what holds it up. Otherwise []."""
    column = slot_position(layout, stacked, level, seen)
    for top in range(level + 1, len(layout.order)):
        above = confident.get(layout.order[top])
        if above is None:
            continue
        if physical_level(layout, above.position[2]) != top or \
                horizontal_distance(above.position, column) > layout.cube_size / 2.0:
            return ()
        between = layout.order[level:top]
        if any(label in seen and horizontal_distance(seen[label].position, column) > layout.cube_size
               for label in between):
            return ()
        return tuple(layout.order[level:top + 1])
    return ()


def blocking_cube(layout: StackLayout, stacked: Sequence[str], holding: str, seen: dict[str, Seen]) -> str | None:
    """A cube to move off before the next transfer, else None: the highest cube not booked
    that sits where the next cube must go (on the column at or above the next slot), or on
    top of the next cube (it can't be picked from under another), or -- when the next cube
    is not seen -- the highest one resting on something (it may well hide the next cube). The next cube itself at its own level on the column is not in the
    way: the normal transfer puts it straight."""
    level = len(stacked)
    if level >= len(layout.order):
        return None
    next_label = layout.order[level]
    next_cube = seen.get(next_label)
    column = slot_position(layout, stacked, level, seen)
    candidates = []
    for label, cube in seen.items():
        if label in stacked or label not in layout.order or label == holding:
            continue
        sits_at = physical_level(layout, cube.position[2])
        on_column = horizontal_distance(cube.position, column) <= layout.cube_size and sits_at >= level
        resting_on_something = sits_at >= 1 and next_cube is None
        on_next_cube = next_cube is not None and label != next_label and \
            horizontal_distance(cube.position, next_cube.position) <= layout.cube_size and \
            cube.position[2] > next_cube.position[2] + layout.cube_size / 2.0
        if (on_column or resting_on_something or on_next_cube) and not (label == next_label and sits_at == level):
            candidates.append((cube.position[2], label))
    return max(candidates)[1] if candidates else None


def parking_spot(layout: StackLayout, spawns: dict[str, Vec3], seen: dict[str, Seen], label: str) -> Vec3:
    """Where to put `label` down off the stack: its spawn when nothing else is near it,
    else the nearest free table spot (away from the other cubes and the stack); the spawn
    anyway when the table is full."""
    spawn = spawns[label]
    occupied = [cube.position for other, cube in seen.items() if other != label]
    occupied.append((layout.base_xy[0], layout.base_xy[1], 0.0))
    if all(horizontal_distance(spawn, p) >= PARK_CLEARANCE for p in occupied):
        return spawn
    spot = free_spot(occupied, spawn, clearance=PARK_CLEARANCE)
    if spot is None:
        return spawn
    return (spot[0], spot[1], layout.table_z + layout.cube_size / 2.0)
