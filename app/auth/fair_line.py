"""A line that serves addresses in turn, not tries in the order they came.

Twelve addresses looping sign-ins kept a first-come line of nine places full:
whoever came thirteenth found no place at all, try after try. Here each
address (a key) has a small line of its own, at most `per_key` long, and the
lines are served one after another, round and round: whichever address
joins waits behind at most one try of each address already waiting, however
fast the others send theirs. An address served goes to the back of the round;
a key with nothing left waiting leaves it. At most `most_keys` addresses wait
at once: that bounds the memory, and an address beyond it is told there is no
room, as is one whose own line is full.

Pure bookkeeping, no clock, no threads: `app/auth/checks.py` puts the tries
that wait for a password check in it.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from typing import Generic, TypeVar

T = TypeVar("T")


class FairLine(Generic[T]):
    def __init__(self, per_key: int, most_keys: int) -> None:
        self.per_key = max(1, per_key)
        self.most_keys = max(0, most_keys)
        self._round: OrderedDict[str, deque[T]] = OrderedDict()  # the front of the round first
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def keys(self) -> int:
        """How many addresses wait now."""
        return len(self._round)

    def room(self, key: str) -> bool:
        """May `key` put one more in line?"""
        waiting = self._round.get(key)
        if waiting is None:
            return len(self._round) < self.most_keys
        return len(waiting) < self.per_key

    def push(self, key: str, item: T) -> bool:
        """Put `item` at the back of `key`'s own line (a new key at the back of
        the round); False, and nothing put, when there is no room."""
        if not self.room(key):
            return False
        self._round.setdefault(key, deque()).append(item)
        self._size += 1
        return True

    def pop(self) -> T | None:
        """The next item: the first of the address at the front of the round,
        which then goes to the back of it (or leaves, if nothing of its waits)."""
        if not self._round:
            return None
        key, waiting = next(iter(self._round.items()))
        item = waiting.popleft()
        self._size -= 1
        if waiting:
            self._round.move_to_end(key)
        else:
            del self._round[key]
        return item

    def drop(self, key: str, item: T) -> bool:
        """Take `item` out of the line (its try gave up waiting); False if it was not in it."""
        waiting = self._round.get(key)
        if waiting is None or item not in waiting:
            return False
        waiting.remove(item)
        self._size -= 1
        if not waiting:
            del self._round[key]
        return True
