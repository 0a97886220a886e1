"""Who is paired with whom: pure rules, as lichess's pools pair, in our own code.

    >>> a = Waiter("account:1", 1500.0, 0, None)
    >>> b = Waiter("account:2", 1620.0, 1000, None)
    >>> c = Waiter("account:3", 2400.0, 500, None)
    >>> [(x.player, y.player) for x, y in pairs([a, b, c], 2000, Range(150, 25, 1000))]
    [('account:1', 'account:2')]

- Accounts (rated) are paired with accounts, by the closest ratings, within a
  range that widens the longer either has waited (the wider of the two counts);
  guests are paired with guests (casual), the longest waiting first.
- The longest waiting player chooses first, so nobody is passed over for ever.
- Never the same two players twice in a row while someone else of their kind
  waits in the pool: then the two wait for another partner.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Waiter:
    player: str  # "account:42", "guest:<id>"
    rating: float | None  # an account's rating in the pool's variant; None: a guest
    joined_ms: int
    last_opponent: str | None  # whom the player was paired with last

    @property
    def rated(self) -> bool:
        return self.rating is not None


@dataclass(frozen=True, slots=True)
class Range:
    """The rating points a waiter accepts: `start`, plus `per_second` for each
    second waited, up to `most`."""

    start: float
    per_second: float
    most: float

    def after(self, waited_ms: int) -> float:
        return min(self.start + self.per_second * max(0, waited_ms) / 1000, self.most)


def _again(a: Waiter, b: Waiter) -> bool:
    return a.last_opponent == b.player or b.last_opponent == a.player


def pairs(waiters: Sequence[Waiter], now_ms: int, rating_range: Range) -> list[tuple[Waiter, Waiter]]:
    """The pairs to make now, longest waiting first; each player in at most one."""
    queue = sorted(waiters, key=lambda w: (w.joined_ms, w.player))
    taken: set[str] = set()
    made: list[tuple[Waiter, Waiter]] = []
    for waiter in queue:
        if waiter.player in taken:
            continue
        kind = [o for o in queue if o.player not in taken and o.player != waiter.player
                and o.rated == waiter.rated]
        if len(kind) > 1:  # someone else waits: not the last opponent again
            kind = [o for o in kind if not _again(waiter, o)]
        if waiter.rating is not None:
            kind = [o for o in kind if _within(waiter, o, now_ms, rating_range)]
        if kind:  # the closest rating (guests: all alike), then the longest waiting: one pass, no sort
            partner = min(kind, key=lambda o: (abs((o.rating or 0.0) - (waiter.rating or 0.0)), o.joined_ms))
            taken.update((waiter.player, partner.player))
            made.append((waiter, partner))
    return made


def _within(a: Waiter, b: Waiter, now_ms: int, rating_range: Range) -> bool:
    accepted = max(rating_range.after(now_ms - a.joined_ms), rating_range.after(now_ms - b.joined_ms))
    return abs((a.rating or 0.0) - (b.rating or 0.0)) <= accepted
