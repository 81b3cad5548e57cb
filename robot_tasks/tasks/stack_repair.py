"""Keeping the stacking bookkeeping true to what perception sees, between transfers.

`stacking_plan` books a cube as stacked when the tree releases it, and un-books cubes
seen displaced. Three situations need more than that, and each used to loop the task
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

Plain Python on numbers, like stacking_plan; the tree leaves in stacking.py call it.
"""
from __future__ import annotations

from .stacking_plan import (EVIDENCE_CONFIDENCE, DISPLACED_DISTANCE, StackingMemory, physical_level,
                            slot_position, unstack_displaced)
from .table_spots import free_spot
from .world_view import Seen, Vec3, distance, horizontal_distance

PARK_CLEARANCE = 0.10        # m from every other cube and from the stack, centre to centre


def reconcile(memory: StackingMemory, seen: dict[str, Seen], tolerance: float = DISPLACED_DISTANCE) -> None:
    """What every decision does first: un-book cubes seen displaced and suspects, then book
    cubes already in place."""
    unstack_displaced(memory, seen, tolerance)
    unbook_suspects(memory)
    book_in_place(memory, seen, tolerance)


def unbook_suspects(memory: StackingMemory) -> list[str]:
    """Un-book the lowest suspect (a stack check saw it displaced while a cube was held)
    and everything above it; return them. The check's view may be the only one that
    shows the problem -- the decision's image can miss it -- so it is trusted, and the
    suspect gets picked and set down again rather than judged a second time."""
    levels = [level for level, label in enumerate(memory.stacked) if label in memory.suspect]
    if not levels:
        return []
    removed = memory.stacked[levels[0]:]
    del memory.stacked[levels[0]:]
    memory.note(f"stack_suspect: {removed[0]} was seen displaced; re-stack {', '.join(removed)}")
    return removed


def book_in_place(memory: StackingMemory, seen: dict[str, Seen], tolerance: float = DISPLACED_DISTANCE) -> list[str]:
    """Book the next cubes of the order that already stand at their slots; return them."""
    confident = {label: cube for label, cube in seen.items() if cube.confidence >= EVIDENCE_CONFIDENCE}
    booked: list[str] = []
    while len(memory.stacked) < len(memory.order):
        level = len(memory.stacked)
        label = memory.order[level]
        cube = confident.get(label)
        if cube is not None:
            # a suspect (a stack check saw it displaced) is picked and put back, not trusted
            if label in memory.suspect or label == memory.holding or distance(cube.position, slot_position(memory, level, seen)) > tolerance:
                break
            run = [label]
        else:
            run = _held_up_run(memory, seen, confident, level, tolerance)
            if not run or memory.suspect.intersection(run):
                break
        memory.stacked.extend(run)
        booked.extend(run)
        memory.note(f"in_place: {', '.join(run)} already at level {level}" +
                    (f"-{level + len(run) - 1}" if len(run) > 1 else ""))
    return booked


def _held_up_run(memory: StackingMemory, seen: dict[str, Seen], confident: dict[str, Seen], level: int,
                 tolerance: float) -> list[str]:
    """order[level..m] when order[m] is confidently seen at slot m, straight above the stack,
    and every cube of the order between is hidden or seen (vaguely) on the column: they must
    be what holds it up. Otherwise []."""
    column = slot_position(memory, level, seen)
    for top in range(level + 1, len(memory.order)):
        above = confident.get(memory.order[top])
        if above is None:
            continue
        if physical_level(memory, above.position[2]) != top or \
                horizontal_distance(above.position, column) > memory.cube_size / 2.0:
            return []
        between = memory.order[level:top]
        if any(label in seen and horizontal_distance(seen[label].position, column) > memory.cube_size
               for label in between):
            return []
        return list(memory.order[level:top + 1])
    return []


def blocking_cube(memory: StackingMemory, seen: dict[str, Seen]) -> str | None:
    """A cube to move off before the next transfer, else None: the highest cube not booked
    that sits where the next cube must go (on the column at or above the next slot), or on
    top of the next cube (it can't be picked from under another), or -- when the next cube
    is not seen -- the highest one resting on something (it may well hide the next cube). The next cube itself at its own level on the column is not in the
    way: the normal transfer puts it straight."""
    level = len(memory.stacked)
    if level >= len(memory.order):
        return None
    next_label = memory.order[level]
    next_cube = seen.get(next_label)
    column = slot_position(memory, level, seen)
    candidates = []
    for label, cube in seen.items():
        if label in memory.stacked or label not in memory.order or label == memory.holding:
            continue
        sits_at = physical_level(memory, cube.position[2])
        on_column = horizontal_distance(cube.position, column) <= memory.cube_size and sits_at >= level
        resting_on_something = sits_at >= 1 and next_cube is None
        on_next_cube = next_cube is not None and label != next_label and \
            horizontal_distance(cube.position, next_cube.position) <= memory.cube_size and \
            cube.position[2] > next_cube.position[2] + memory.cube_size / 2.0
        if (on_column or resting_on_something or on_next_cube) and not (label == next_label and sits_at == level):
            candidates.append((cube.position[2], label))
    return max(candidates)[1] if candidates else None


def parking_spot(memory: StackingMemory, seen: dict[str, Seen], label: str) -> Vec3:
    """Where to put `label` down off the stack: its spawn when nothing else is near it,
    else the nearest free table spot (away from the other cubes and the stack); the spawn
    anyway when the table is full."""
    spawn = memory.spawns[label]
    occupied = [cube.position for other, cube in seen.items() if other != label]
    occupied.append((memory.base_xy[0], memory.base_xy[1], 0.0))
    if all(horizontal_distance(spawn, p) >= PARK_CLEARANCE for p in occupied):
        return spawn
    spot = free_spot(occupied, spawn, clearance=PARK_CLEARANCE)
    if spot is None:
        return spawn
    return (spot[0], spot[1], memory.table_z + memory.cube_size / 2.0)
