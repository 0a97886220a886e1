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
                          rng.randrange(0, 60_000), f"guest:{rng.randrange(20)}") for i in range(rng.randrange(12))]
        made = pairs(waiters, 60_000, RANGE)
        seen = [p for pair in names(made) for p in pair]
        assert len(seen) == len(set(seen))
        assert all(a.player != b.player and a.rated == b.rated for a, b in made)


def test_the_computer_offered_is_the_level_nearest_the_rating() -> None:
    levels = ("random", "greedy", "strong")
    rated = {"random": 700.0, "greedy": 1250.0, "strong": 1800.0}
    assert nearest_level(levels, rated, 900.0) == "random"
    assert nearest_level(levels, rated, 1400.0) == "greedy"
    assert nearest_level(levels, rated, 2500.0) == "strong"
    assert nearest_level(levels, {}, 2500.0) == "greedy"  # none rated yet: all alike, the middle one
