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
- A bot account (a program plays it) meets another bot account, or a person
  who said they are willing (`bots`); never anyone else.
- Never two places taken from one address (`origin`, the address folded):
  200 joins of one address were paired with each other, a pool flooded by
  one client playing itself. (Two places of one account are one player's.)

    >>> x = Waiter("guest:x", None, 0, None, origin="o1")
    >>> y = Waiter("guest:y", None, 1, None, origin="o1")
    >>> z = Waiter("guest:z", None, 2, None, origin="o2")
    >>> [(p.player, q.player) for p, q in pairs([x, y, z], 10, Range(150, 25, 1000))]
    [('guest:x', 'guest:z')]
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Waiter:
    player: str  # "account:42", "guest:<id>"
    rating: float | None  # an account's rating in the pool's variant; None: a guest
    joined_ms: int
    last_opponent: str | None  # whom the player was paired with last
    bot: bool = False  # a bot account
    bots: bool = False  # willing to be paired with a bot account
    origin: str | None = None  # where the place was taken from (None: not known)

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


def suits(a: Waiter, b: Waiter) -> bool:
    """Neither is a bot account the other has not consented to meet, and the
    two did not take their places from one address."""
    return (not a.bot or b.bot or b.bots) and (not b.bot or a.bot or a.bots) and apart(a, b)


def apart(a: Waiter, b: Waiter) -> bool:
    """Not two places of one address (an unknown origin is apart from every other)."""
    return a.origin is None or a.origin != b.origin


def _order(w: Waiter) -> tuple[int, str]:
    return w.joined_ms, w.player


def pairs(waiters: Sequence[Waiter], now_ms: int, rating_range: Range) -> list[tuple[Waiter, Waiter]]:
    """The pairs to make now, longest waiting first; each player in at most one.

    Every join and every waiting tick runs this over the whole pool, so it stays
    near n log n: the rated are kept sorted by rating and each looks outwards
    from its own rating, no further than the widest range anyone has (a look at
    every other waiter for each waiter held the event loop ~50 ms a call with
    200 waiting, and 200 joins queued behind one another for seconds)."""
    queue = sorted(waiters, key=_order)
    reach = {w.player: rating_range.after(now_ms - w.joined_ms) for w in queue if w.rated}
    widest = max(reach.values(), default=0.0)
    guests = [w for w in queue if not w.rated]  # untaken, longest waiting first
    rated = sorted((w for w in queue if w.rated), key=_by_rating)  # untaken, by rating
    taken: set[str] = set()
    made: list[tuple[Waiter, Waiter]] = []
    for waiter in queue:
        if waiter.player in taken:
            continue
        kind = rated if waiter.rated else guests
        fussy = len(kind) > 2  # someone else of their kind waits: not the last opponent again
        if waiter.rated:
            partner = _closest(waiter, rated, reach, widest, fussy)
        else:
            partner = next((o for o in guests if o.player != waiter.player and suits(waiter, o)
                            and not (fussy and _again(waiter, o))), None)
        if partner is not None:
            taken.update((waiter.player, partner.player))
            made.append((waiter, partner))
            for gone in (waiter, partner):
                if gone.rated:
                    del rated[bisect_left(rated, _by_rating(gone), key=_by_rating)]
                else:
                    guests.remove(gone)
    return made


def _by_rating(w: Waiter) -> tuple[float, int, str]:
    return w.rating or 0.0, w.joined_ms, w.player


def _closest(waiter: Waiter, rated: list[Waiter], reach: dict[str, float], widest: float,
             fussy: bool) -> Waiter | None:
    """The untaken rated waiter nearest in rating whom `waiter` accepts (the wider
    of the two ranges), the longest waiting among the equally near."""
    mine = waiter.rating or 0.0
    at = bisect_left(rated, _by_rating(waiter), key=_by_rating)
    below, above = at - 1, at + 1
    best: tuple[float, int, str] | None = None
    found: Waiter | None = None
    while True:
        down = mine - (rated[below].rating or 0.0) if below >= 0 else None
        up = (rated[above].rating or 0.0) - mine if above < len(rated) else None
        if down is None and up is None:
            break
        if up is None or (down is not None and down <= up):
            other, distance, below = rated[below], down, below - 1
        else:
            other, distance, above = rated[above], up, above + 1
        assert distance is not None
        if distance > widest or (best is not None and distance > best[0]):
            break  # everyone further is further than anyone's range, or than the one found
        if (fussy and _again(waiter, other)) or not suits(waiter, other):
            continue
        if distance <= max(reach[waiter.player], reach[other.player]):
            key = (distance, other.joined_ms, other.player)
            if best is None or key < best:
                best, found = key, other
    return found
