"""The order in which BT.CPP tries substitution rules: libstdc++'s `std::unordered_map`.

BT.CPP 4.10 keeps the rules in a `std::unordered_map<std::string, SubstitutionRule>`.
When it creates a node it walks that map from the beginning and uses the **first**
rule whose pattern matches. So when two rules match one node (`"talk"` and `"ta*"`),
which one wins is decided by the map's iteration order, which the C++ standard leaves
unspecified. On Linux, where BT.CPP (and behaviortreepy) are built with GCC's
libstdc++, that order is fixed and depends only on the keys and the order in which
they were added. This module reproduces it, so that a rules file picks the same mock
for a node here as it does in BT.CPP.

How libstdc++ orders an unordered_map (unique keys, `std::hash<std::string>`):

1. **Hash.** `std::hash<std::string>` is `_Hash_bytes(data, size, 0xc70f6907)`, a
   64-bit variant of MurmurHash2 over the UTF-8 bytes. A key lives in bucket
   `hash % bucket_count`.
2. **Buckets.** An empty map has 1 bucket. The first insertion grows it to 13; after
   that, when the element count would exceed the bucket count (maximum load factor
   1.0), it grows to the smallest listed prime >= twice the bucket count
   (13, 29, 59, 127, 257, 541, 1109, 2357, 5087, ... measured against g++'s map).
   `clear()` removes the elements but keeps the bucket count.
3. **One list.** All elements sit in one singly linked list, each bucket's elements
   next to each other. A new key goes just before the first element of its bucket,
   or at the very front of the list when its bucket is empty. Growing re-inserts the
   old list, front to back, by the same rule. Assigning to an existing key moves
   nothing.

Iteration walks that list front to back.
"""
from __future__ import annotations

from typing import Iterator

_MASK = (1 << 64) - 1
_MUL = (0xC6A4A793 << 32) + 0x5BD1E995
_STRING_HASH_SEED = 0xC70F6907

# libstdc++'s bucket counts as a map grows from empty (`_Prime_rehash_policy` with its
# prime table): each is the first prime of the table >= twice the one before.
_GROWTH = (13, 29, 59, 127, 257, 541, 1109, 2357, 5087, 10273, 20753, 42043, 85229, 172933,
           351061, 712697)


def _shift_mix(value: int) -> int:
    return value ^ (value >> 47)


def std_string_hash(text: str) -> int:
    """`std::hash<std::string>{}(text)` of 64-bit libstdc++ (`_Hash_bytes`)."""
    data = text.encode("utf-8")
    length = len(data)
    aligned = length & ~7
    hashed = (_STRING_HASH_SEED ^ (length * _MUL)) & _MASK
    for start in range(0, aligned, 8):
        word = int.from_bytes(data[start:start + 8], "little")
        mixed = (_shift_mix((word * _MUL) & _MASK) * _MUL) & _MASK
        hashed = ((hashed ^ mixed) * _MUL) & _MASK
    if length & 7:
        tail = int.from_bytes(data[aligned:], "little")
        hashed = ((hashed ^ tail) * _MUL) & _MASK
    hashed = (_shift_mix(hashed) * _MUL) & _MASK
    return _shift_mix(hashed)


class UnorderedKeys:
    """The keys of a libstdc++ `std::unordered_map<std::string, T>`, in its iteration order.

    Only insertion of new keys and `clear()` change the order (that is all BT.CPP does
    with its rule map). `list(keys)` gives the order BT.CPP walks.
    """

    def __init__(self) -> None:
        self._order: list[str] = []          # the linked list, front first
        self._bucket_of: dict[str, int] = {}
        self._bucket_count = 1

    def add(self, key: str) -> None:
        """Insert `key` if new (an existing key keeps its place)."""
        if key in self._bucket_of:
            return
        if len(self._order) + 1 > self._capacity():
            self._grow()
        self._bucket_of[key] = std_string_hash(key) % self._bucket_count
        self._place(key)

    def clear(self) -> None:
        self._order.clear()
        self._bucket_of.clear()

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._order))

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, key: object) -> bool:
        return key in self._bucket_of

    @property
    def bucket_count(self) -> int:
        return self._bucket_count

    # ---- libstdc++'s mechanics ---------------------------------------------------------
    def _capacity(self) -> int:
        # an empty, never-grown map (1 bucket) grows at its first insertion
        return 0 if self._bucket_count == 1 else self._bucket_count

    def _grow(self) -> None:
        if self._bucket_count == 1:
            self._bucket_count = _GROWTH[0]
        else:
            bigger = [count for count in _GROWTH if count >= 2 * self._bucket_count]
            if not bigger:
                raise OverflowError("more substitution rules than this emulation of libstdc++ knows "
                                    "bucket counts for")
            self._bucket_count = bigger[0]
        old = self._order
        self._order = []
        for key in old:
            self._bucket_of[key] = std_string_hash(key) % self._bucket_count
            self._place(key)

    def _place(self, key: str) -> None:
        bucket = self._bucket_of[key]
        for index, other in enumerate(self._order):
            if self._bucket_of[other] == bucket:
                self._order.insert(index, key)   # before the first of its bucket
                return
        self._order.insert(0, key)               # an empty bucket: the front of the list
