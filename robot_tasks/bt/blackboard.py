"""The blackboard: typed key/value entries shared by the nodes of one (sub)tree.

Mirrors BT.CPP's `Blackboard`:
- an entry may exist while empty (created by a `{key}` port remap at tree creation);
- an entry created with a type converts what is written into it (strings are parsed);
- a SubTree gets a child blackboard; `remap(internal, external)` makes a child key an
  alias of a parent key, and `autoremap=True` forwards every key not starting with
  '_' to the parent;
- a key starting with '@' always addresses the root blackboard.

Entries are shared objects: a child blackboard caches the parent's entry under its
own key, so both see the same value.
"""
from __future__ import annotations

import threading
import typing
from typing import Any, Iterator

from .errors import LogicError
from .port_types import class_key
from .ports import convert_value, type_name


class _Empty:
    def __repr__(self) -> str:
        return "<empty>"


EMPTY: Any = _Empty()


class Entry:
    """One blackboard slot: a value (or EMPTY), the Python type writes are converted to
    (None = any), and a sequence id bumped at every write (BT.CPP `sequence_id`).

    `declared` is the type key BT.CPP 4.10 would record for the entry (its `TypeInfo`):
    the port or SubTree literal that created it at load time, checked against every later
    port by `port_types.connection_allowed`; `declared_at` says who that was, for errors.
    An entry created by `set()` is not declared (README: Blackboard typing is Pythonic).
    """

    __slots__ = ("value", "type", "sequence_id", "declared", "declared_at")

    def __init__(self, entry_type: type | None = None, value: Any = EMPTY):
        self.type = entry_type
        self.value = value
        self.sequence_id = 0 if value is EMPTY else 1
        self.declared = class_key(entry_type)
        self.declared_at = ""

    @property
    def is_empty(self) -> bool:
        return self.value is EMPTY

    def __repr__(self) -> str:
        return f"Entry(type={type_name(self.type)}, value={self.value!r})"


class Blackboard:
    """Key/value store with BT.CPP's scoping rules. Thread-safe for single operations."""

    def __init__(self, parent: Blackboard | None = None, autoremap: bool = False):
        self.parent = parent
        self.autoremap = autoremap
        self._storage: dict[str, Entry] = {}
        self._internal_to_external: dict[str, str] = {}
        self._lock = threading.RLock()
        self.enums: dict[str, int] | None = None  # optional enum table for string conversion

    @classmethod
    def create(cls, parent: Blackboard | None = None, autoremap: bool = False) -> Blackboard:
        return cls(parent, autoremap)

    # ---- scoping -------------------------------------------------------------------
    def root(self) -> Blackboard:
        board = self
        while board.parent is not None:
            board = board.parent
        return board

    def remap(self, internal: str, external: str) -> None:
        """Make `internal` (in this board) an alias of `external` in the parent board."""
        self._internal_to_external[internal] = external

    def set_autoremap(self, enabled: bool) -> None:
        self.autoremap = enabled

    @property
    def remappings(self) -> dict[str, str]:
        return dict(self._internal_to_external)

    # ---- entries -------------------------------------------------------------------
    def get_entry(self, key: str) -> Entry | None:
        """The entry for `key` (following '@', remaps and autoremap), or None."""
        if key[:1] == "@":
            return self.root().get_entry(key[1:])
        entry = self._storage.get(key)
        if entry is not None:
            return entry
        parent = self.parent
        if parent is not None:
            external = self._internal_to_external.get(key)
            if external is not None:
                return parent.get_entry(external)
            if self.autoremap and key[:1] != "_":
                return parent.get_entry(key)
        return None

    def create_entry(self, key: str, entry_type: type | None = None) -> Entry:
        """Return the entry for `key`, creating an empty one (in the scope the remapping
        rules choose) if needed. A typed request upgrades an untyped entry; a different
        type on a typed entry is a LogicError (strings and 'any' always fit)."""
        if key[:1] == "@":
            return self.root().create_entry(key[1:], entry_type)
        if entry_type is str or entry_type is typing.Any:
            entry_type = None  # string ports are generic: text converts to any type later
        with self._lock:
            entry = self._storage.get(key)
            if entry is None:
                external = self._internal_to_external.get(key)
                if external is not None and self.parent is not None:
                    entry = self.parent.create_entry(external, entry_type)
                elif self.autoremap and self.parent is not None and key[:1] != "_":
                    entry = self.parent.create_entry(key, entry_type)
                else:
                    entry = Entry(entry_type)
                self._storage[key] = entry
                return entry
            _check_compatible_type(key, entry, entry_type)
            return entry

    def has_entry(self, key: str) -> bool:
        """True when the entry exists, even if it holds no value yet."""
        return self.get_entry(key) is not None

    # ---- values --------------------------------------------------------------------
    def get(self, key: str, default: Any = EMPTY) -> Any:
        """The value of `key`; KeyError if the entry is missing or empty (unless a
        default is given)."""
        entry = self.get_entry(key)
        if entry is None or entry.value is EMPTY:
            if default is not EMPTY:
                return default
            if entry is None:
                raise KeyError(key)
            raise KeyError(f"{key} (entry exists but is empty)")
        return entry.value

    def __getitem__(self, key: str) -> Any:
        return self.get(key)

    def __setitem__(self, key: str, value: Any) -> None:
        self.set(key, value)

    def __contains__(self, key: str) -> bool:
        entry = self.get_entry(key)
        return entry is not None and entry.value is not EMPTY

    def set(self, key: str, value: Any) -> None:
        """Create or update `key`. A typed entry converts the value (e.g. '42' into an
        int entry) and raises LogicError when that is impossible."""
        entry = self.get_entry(key)
        if entry is None:
            entry = self.create_entry(key)
        entry_type = entry.type
        if entry_type is not None and value.__class__ is not entry_type:
            try:
                value = convert_value(value, entry_type, self.enums)
            except (ValueError, TypeError) as exc:
                raise LogicError(
                    f"Blackboard.set({key}): once declared, the type of an entry shall not change. "
                    f"Declared type [{type_name(entry_type)}], value {value!r}: {exc}") from None
        entry.value = value
        entry.sequence_id += 1

    def unset(self, key: str) -> bool:
        """Remove `key` from this board, as BT.CPP's `unset` does (a remapped key
        then resolves to the parent's entry again). True if it was there."""
        if key[:1] == "@":
            return self.root().unset(key[1:])
        with self._lock:
            return self._storage.pop(key, None) is not None

    erase = unset

    def clear_value(self, key: str) -> None:
        """Empty an entry but keep it (and its type)."""
        entry = self.get_entry(key)
        if entry is not None:
            entry.value = EMPTY
            entry.sequence_id += 1

    # ---- inspection ----------------------------------------------------------------
    def keys(self) -> list[str]:
        """Keys stored (or cached) in this board, including empty ones."""
        return list(self._storage)

    def items(self) -> Iterator[tuple[str, Any]]:
        """(key, value) for the non-empty entries of this board."""
        for key, entry in list(self._storage.items()):
            if entry.value is not EMPTY:
                yield key, entry.value

    def as_dict(self) -> dict[str, Any]:
        return dict(self.items())

    def __repr__(self) -> str:
        return f"Blackboard({self.as_dict()!r})"


def _check_compatible_type(key: str, entry: Entry, wanted: type | None) -> None:
    if wanted is None or wanted is entry.type:
        return
    if entry.type is None:
        if entry.value is not EMPTY and wanted is not str:
            try:
                entry.value = convert_value(entry.value, wanted)
            except ValueError as exc:
                raise LogicError(f"blackboard entry [{key}] holds {entry.value!r}, which does not fit "
                                 f"type [{type_name(wanted)}]: {exc}") from None
        if wanted is not str:
            entry.type = wanted
        return
    if wanted is str or entry.type is str:
        return  # strings convert to anything, like BT.CPP's string-typed entries
    if isinstance(entry.type, type) and isinstance(wanted, type) and (
            issubclass(entry.type, wanted) or issubclass(wanted, entry.type)):
        return  # polymorphic use, allowed by BT.CPP too
    raise LogicError(f"blackboard entry [{key}]: type [{type_name(wanted)}] requested, but it was "
                     f"already created with type [{type_name(entry.type)}]")
