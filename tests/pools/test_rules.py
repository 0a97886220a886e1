"""The pairing rules alone (app/pools/rules.py): closest ratings within a range
that widens, guests with guests, the longest waiting first, never the same two
twice in a row while someone else waits, nobody with themself."""

from __future__ import annotations

import random

from app.pools.computer import nearest_level
from app.pools.rules import Range, Waiter, pairs

RANGE = Range(150, 25, 1000)


def names(made: list[tuple[Waiter, Waiter]]) -> list[tuple[str, str]]:
    return [(a.player, b.player) for a, b in made]


def test_the_longest_waiting_takes_the_closest_rating() -> None:
    a = Waiter("account:1", 1500.0, 0, None)
    far, near = Waiter("account:2", 1620.0, 10, None), Waiter("account:3", 1540.0, 20, None)
    assert names(pairs([near, far, a], 30, RANGE)) == [("account:1", "account:3")]


def test_the_range_widens_with_the_wait() -> None:
    a, b = Waiter("account:1", 1500.0, 0, None), Waiter("account:2", 1900.0, 0, None)
    assert pairs([a, b], 0, RANGE) == []
    assert pairs([a, b], 9_000, RANGE) == []  # 150 + 225 = 375 < 400
    assert names(pairs([a, b], 10_000, RANGE)) == [("account:1", "account:2")]
    assert RANGE.after(10**9) == 1000


def test_guests_pair_with_guests_the_longest_waiting_first() -> None:
    g1, g2, g3 = (Waiter(f"guest:{i}", None, i, None) for i in range(3))
    acc = Waiter("account:1", 1500.0, 0, None)
    assert names(pairs([g3, acc, g2, g1], 5, RANGE)) == [("guest:0", "guest:1")]


def test_not_the_last_opponent_while_another_waits() -> None:
    a = Waiter("account:1", 1500.0, 0, "account:2")
    b = Waiter("account:2", 1500.0, 1, "account:1")
    c = Waiter("account:3", 1700.0, 2, None)
    assert pairs([a, b, c], 3, RANGE) == []  # c is out of range yet, and a and b just played
    assert names(pairs([a, b, c], 3_000, RANGE)) == [("account:1", "account:3")]
    assert names(pairs([a, b], 3, RANGE)) == [("account:1", "account:2")]  # nobody else: again is fine


def test_every_player_in_at_most_one_pair_and_never_with_themself() -> None:
    rng = random.Random(7)
    for _ in range(200):
        waiters = [Waiter(f"{'account' if rng.random() < 0.5 else 'guest'}:{i}",
                          rng.uniform(1000, 2200) if rng.random() < 0.5 else None,
                          rng.randrange(0, 60_000), f"guest:{rng.randrange(20)}",
                          origin=rng.choice(("o1", "o2", "o3", None))) for i in range(rng.randrange(12))]
        made = pairs(waiters, 60_000, RANGE)
        seen = [p for pair in names(made) for p in pair]
        assert len(seen) == len(set(seen))
        assert all(a.player != b.player and a.rated == b.rated for a, b in made)
        assert all(a.origin is None or a.origin != b.origin for a, b in made)  # never two of one address


def test_one_addresss_places_are_never_paired_together() -> None:
    """Twenty guests of one address wait with nobody else: no pair. One guest of
    another address comes: paired with the longest waiting of them."""
    flood = [Waiter(f"guest:{i}", None, i, None, origin="same") for i in range(20)]
    assert pairs(flood, 100, RANGE) == []
    rated = [Waiter(f"account:{i}", 1500.0, i, None, origin="same") for i in range(20)]
    assert pairs(rated, 100, RANGE) == []
    other = Waiter("guest:x", None, 50, None, origin="elsewhere")
    assert names(pairs([*flood, other], 100, RANGE)) == [("guest:0", "guest:x")]
    unknown = Waiter("guest:y", None, 60, None)  # a place of no known address (taken before origins were kept)
    assert names(pairs([flood[0], unknown], 100, RANGE)) == [("guest:0", "guest:y")]


def test_the_computer_offered_is_the_level_nearest_the_rating() -> None:
    levels = ("random", "greedy", "strong")
    rated = {"random": 700.0, "greedy": 1250.0, "strong": 1800.0}
    assert nearest_level(levels, rated, 900.0) == "random"
    assert nearest_level(levels, rated, 1400.0) == "greedy"
    assert nearest_level(levels, rated, 2500.0) == "strong"
    assert nearest_level(levels, {}, 2500.0) == "greedy"  # none rated yet: all alike, the middle one


def _one_by_one(waiters: list[Waiter], now_ms: int, rating_range: Range) -> list[tuple[str, str]]:
    """The rules read literally, each waiter looking at every other: what `pairs`
    must agree with, however it finds the partner."""
    queue = sorted(waiters, key=lambda w: (w.joined_ms, w.player))
    taken: set[str] = set()
    made = []
    for w in queue:
        if w.player in taken:
            continue
        kind = [o for o in queue if o.player not in taken and o.player != w.player and o.rated == w.rated]
        if len(kind) > 1:
            kind = [o for o in kind if o.last_opponent != w.player and w.last_opponent != o.player]
        kind = [o for o in kind if w.origin is None or o.origin != w.origin]
        if w.rating is not None:
            kind = [o for o in kind if abs((o.rating or 0.0) - w.rating) <= max(
                rating_range.after(now_ms - w.joined_ms), rating_range.after(now_ms - o.joined_ms))]
        if kind:
            o = min(kind, key=lambda o: (abs((o.rating or 0.0) - (w.rating or 0.0)), o.joined_ms))
            taken.update((w.player, o.player))
            made.append((w.player, o.player))
    return made


def test_pairs_as_the_rules_read_literally() -> None:
    rng = random.Random(11)
    for _ in range(400):
        n = rng.randrange(16)
        waiters = [Waiter(f"{'account' if rng.random() < 0.6 else 'guest'}:{i}",
                          float(rng.choice((1400, 1500, 1550, 1600, 1800, 2100))) if rng.random() < 0.6 else None,
                          rng.randrange(0, 20_000, 1000), f"account:{rng.randrange(n + 1)}" if rng.random() < 0.5 else None,
                          origin=rng.choice(("o1", "o2", "o3", None)))
                   for i in range(n)]
        assert names(pairs(waiters, 20_000, RANGE)) == _one_by_one(waiters, 20_000, RANGE)


class CountedRange:
    """A range that counts how often it is asked."""

    def __init__(self) -> None:
        self.asked = 0

    def after(self, waited_ms: int) -> float:
        self.asked += 1
        return 0.0


def test_a_big_pool_is_not_paired_each_against_each() -> None:
    """The bench's 200 waiters, ten points apart and nobody's range reaching the
    next: each join pairs the whole pool, so the work must grow as the pool, not
    as its square (200 x 200 looks held the event loop for seconds of joins)."""
    waiters = [Waiter(f"account:{i}", 1000.0 + 10 * i, i, None) for i in range(400)]
    counted = CountedRange()
    made = pairs([*waiters, Waiter("account:new", 1500.0, 1000, None)], 2000, counted)  # type: ignore[arg-type]
    assert names(made) == [("account:50", "account:new")]
    assert counted.asked <= 2 * 401


def test_a_bot_account_meets_only_bots_and_the_people_who_consent() -> None:
    bot = Waiter("account:1", 1500.0, 0, None, bot=True)
    person = Waiter("account:2", 1500.0, 100, None)
    assert pairs([bot, person], 1000, RANGE) == []  # the nearest rating, but no consent
    willing = Waiter("account:3", 1900.0, 200, None, bots=True)
    assert names(pairs([bot, person, willing], 60_000, RANGE)) == [("account:1", "account:3")]
    other_bot = Waiter("account:4", 1510.0, 300, None, bot=True)
    assert names(pairs([bot, person, other_bot], 1000, RANGE)) == [("account:1", "account:4")]
    assert names(pairs([person, willing], 60_000, RANGE)) == [("account:2", "account:3")]  # people as ever
