"""Which blackboard entries were written since the last look, found without touching the engine.

Every write to an entry -- `set_output`, `Blackboard.set`, a script's assignment,
`clear_value` -- bumps the entry's `sequence_id` (BT.CPP's rule, which
`WasEntryUpdated` relies on too). So a watcher that remembers every entry's
sequence id can tell, at any moment, which entries were written since it last
looked, and how many times: one list comparison when nothing happened, which is the
common case between two events of a tick.

Entries can also appear (a `set` on a new key) and disappear (`UnsetBlackboard`);
the number of keys on the watched boards tells when to look for those.

`changes()` returns `(name, entry, times)` per written entry, sorted by name: the
order of writes *within* one interval is not kept (a leaf's writes land together at
its return), so a replay compares them as a set per interval.
"""
from __future__ import annotations

from itertools import compress
from operator import attrgetter, ne

from ..blackboard import Blackboard, Entry
from .paths import entry_names

_SEQUENCE_ID = attrgetter("sequence_id")


class EntryWatch:
    """Watches every entry of some blackboards (the boards of one tree)."""

    def __init__(self, boards: list[tuple[Blackboard, str]]):
        self.boards = boards
        self._storages = [board._storage for board, _ in boards]
        self.entries: list[Entry] = []
        self.names: list[str] = []
        self._sequence_ids: list[int] = []
        self._key_count = -1
        self._rescan()

    def _rescan(self) -> list[str]:
        """Re-read the boards; return the names of entries that are gone."""
        old = dict(zip(map(id, self.entries), self.names))
        pairs = entry_names(self.boards)
        previous = dict(zip(map(id, self.entries), self._sequence_ids))
        self.entries = [entry for entry, _ in pairs]
        self.names = [name for _, name in pairs]
        # a new entry starts at 0: if it was created with a value, that counts as a write
        self._sequence_ids = [previous.get(id(entry), 0) for entry in self.entries]
        self._key_count = sum(map(len, self._storages))
        present = set(map(id, self.entries))
        return sorted(name for key, name in old.items() if key not in present)

    def entry(self, name: str) -> Entry | None:
        try:
            return self.entries[self.names.index(name)]
        except ValueError:
            self._rescan()
            return self.entries[self.names.index(name)] if name in self.names else None

    def dirty(self) -> bool:
        """True when something was written (or an entry came or went) since the last `changes()`."""
        return (list(map(_SEQUENCE_ID, self.entries)) != self._sequence_ids
                or sum(map(len, self._storages)) != self._key_count)

    def changes(self) -> tuple[list[tuple[str, Entry, int]], list[str]]:
        """(written entries as (name, entry, times), names of entries removed) since the last call."""
        removed: list[str] = []
        if sum(map(len, self._storages)) != self._key_count:
            removed = self._rescan()
        now = list(map(_SEQUENCE_ID, self.entries))
        before = self._sequence_ids
        if now == before:
            return [], removed
        self._sequence_ids = now
        written = [(self.names[i], self.entries[i], now[i] - before[i])
                   for i in compress(range(len(now)), map(ne, now, before))]
        written.sort(key=lambda item: item[0])
        return written, removed

    def sync(self) -> None:
        """Forget pending changes (the state now is the starting point)."""
        self.changes()
