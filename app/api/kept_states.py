"""The answers of `GET /matches/{id}/states` that can no longer change, kept in
memory (issue 17, item 7: eight readers of 100 states a call slowed every
other match twentyfold).

A version's entry and the public state after it are written once, at its
commit, and never again: the states of a range whose last version the match
has reached are the same for every later reader, running match or not. Only
the answer's `version` (the match's version now) moves, and it is spliced in
from one small read. A finished match's whole answer never changes: it is kept
compressed and served without a database read at all. Both are bounded.
"""

from __future__ import annotations

from collections import OrderedDict

Key = tuple[str, int, int | None]  # match id, from, to (as asked)
Range = tuple[str, int, int]  # match id, first version, last version


class KeptStates:
    def __init__(self, max_bytes: int = 16 * 1024 * 1024, finished_kept: int = 256) -> None:
        self.max_bytes, self.finished_kept = max_bytes, finished_kept
        self._finished: OrderedDict[Key, bytes] = OrderedDict()  # compressed whole answers
        self._ranges: OrderedDict[Range, bytes] = OrderedDict()  # the encoded "states" lists
        self._bytes = 0

    def finished(self, key: Key) -> bytes | None:
        kept = self._finished.get(key)
        if kept is not None:
            self._finished.move_to_end(key)
        return kept

    def keep_finished(self, key: Key, compressed: bytes) -> None:
        self._finished[key] = compressed
        while len(self._finished) > self.finished_kept:
            self._finished.popitem(last=False)

    def states(self, span: Range) -> bytes | None:
        kept = self._ranges.get(span)
        if kept is not None:
            self._ranges.move_to_end(span)
        return kept

    def keep_states(self, span: Range, encoded: bytes) -> None:
        if len(encoded) > self.max_bytes // 8 or span in self._ranges:
            return
        self._ranges[span] = encoded
        self._bytes += len(encoded)
        while self._bytes > self.max_bytes:
            _, dropped = self._ranges.popitem(last=False)
            self._bytes -= len(dropped)
