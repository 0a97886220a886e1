"""The answers of `GET /matches/{id}/states` that can no longer change, kept in
memory (eight readers of 100 states a call slowed every
other match twentyfold).

A version's entry and the public state after it are written once, at its
commit, and never again: the states of a range whose last version the match
has reached are the same for every later reader, running match or not. Only
the answer's `version` (the match's version now) moves, and it is spliced in
from one small read. A finished match's whole answer never changes: it is kept
compressed and served without a database read at all. Both are bounded.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

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


JUDGED_KEPT = 64  # finished matches never change, so their graphs are kept (about 10 KB each)


class Replays:
    """What the replay routes (replays.py) keep between requests, one per app:
    the states that can no longer change, and finished matches' advantage graphs."""

    def __init__(self) -> None:
        self.states = KeptStates()
        self.judged: OrderedDict[str, dict[str, Any]] = OrderedDict()  # a finished match never changes
        # One match judged at a time: anyone may ask, reads are not rate limited, and
        # each judging is CPU work in a thread (which contends for the interpreter
        # lock with the event loop); a queue of askers waits here instead.
        self.judging = asyncio.Semaphore(1)

    def keep_judged(self, match_id: str, body: dict[str, Any]) -> None:
        self.judged[match_id] = body
        while len(self.judged) > JUDGED_KEPT:
            self.judged.popitem(last=False)
