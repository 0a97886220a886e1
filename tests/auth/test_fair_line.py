"""The line the password checks wait in (app/auth/fair_line.py,
app/auth/checks.py): addresses served in turn, not tries in the order they came.

Deterministic: the line keeps no time, so these tests step it turn by turn
(no clock, no sleep, no thread). A flood is a dozen addresses that put a try
back in line the moment one of theirs is served; whoever comes thirteenth is
served within one round of theirs.
"""

from __future__ import annotations

import asyncio
from collections import deque

import pytest

from app.auth.checks import Busy, PasswordChecks
from app.auth.fair_line import FairLine
from tests.waiting import until

FLOOD = [f"addr:203.0.113.{i}" for i in range(1, 13)]
OWNER = "addr:198.51.100.7"


def test_a_newcomer_is_served_within_one_round_of_a_flood() -> None:
    line: FairLine[str] = FairLine(per_key=2, most_keys=64)
    for key in FLOOD:  # each floods with as many tries as it may put in line
        assert line.push(key, key) and line.push(key, key)
    assert not line.push(FLOOD[0], FLOOD[0])  # a third of one address: no room
    assert line.push(OWNER, OWNER)
    served = []
    while (key := line.pop()) != OWNER:
        served.append(key)
        line.push(key, key)  # the flooder sends its next try at once
    assert served == FLOOD  # one of each address, then the newcomer


def test_a_first_come_line_of_the_same_size_would_never_serve_the_newcomer() -> None:
    """What the fair line replaces: nine places, first come; the flood takes each place as it frees."""
    places: deque[str] = deque(FLOOD[:9])
    waiting_flood = deque(FLOOD[9:])
    refused = 0
    for _ in range(100):
        served = places.popleft()
        waiting_flood.append(served)  # its next try is sent at once...
        places.append(waiting_flood.popleft())  # ...and one of the flood is always first to the free place
        if len(places) >= 9:
            refused += 1  # the newcomer, trying now, finds no place
    assert refused == 100


def test_every_address_is_served_once_a_round() -> None:
    line: FairLine[tuple[str, int]] = FairLine(per_key=3, most_keys=8)
    for n in range(3):
        for key in ("a", "b", "c"):
            line.push(key, (key, n))
    assert line.push("d", ("d", 0))
    order = [line.pop() for _ in range(len(line))]
    assert order == [("a", 0), ("b", 0), ("c", 0), ("d", 0), ("a", 1), ("b", 1), ("c", 1),
                     ("a", 2), ("b", 2), ("c", 2)]
    assert line.pop() is None and len(line) == 0 and line.keys() == 0


def test_the_room_is_bounded_per_address_and_in_addresses() -> None:
    line: FairLine[int] = FairLine(per_key=1, most_keys=2)
    assert line.push("a", 1) and line.push("b", 2)
    assert not line.push("a", 3)  # its own place is taken
    assert not line.push("c", 4)  # no room for a third address
    assert line.drop("a", 1) and not line.drop("a", 1)
    assert line.push("c", 4)  # the place freed is anyone's
    assert [line.pop(), line.pop()] == [2, 4]


# ---- the pool's turns, over the line ---------------------------------------------


class Held:
    """Tries that hold a turn of `checks` until released, in the order their turns came."""

    def __init__(self, checks: PasswordChecks) -> None:
        self.checks = checks
        self.served: list[str] = []
        self.release: dict[str, asyncio.Event] = {}
        self.tasks: list[asyncio.Task[None]] = []

    def send(self, key: str, known: bool = False) -> asyncio.Task[None]:
        task = asyncio.create_task(self._try(key, known))
        self.tasks.append(task)
        return task

    async def _try(self, key: str, known: bool) -> None:
        async with self.checks.turn(key, known):
            self.served.append(key)
            event = self.release[key] = asyncio.Event()
            await event.wait()

    async def in_line(self, running: int, waiting: int) -> None:
        await until(lambda: (self.checks.running, self.checks.waiting) == (running, waiting),
                    f"{running} running, {waiting} waiting")

    async def end_turn(self) -> str:
        """The try holding the worker ends; answers whose turn comes next."""
        before = len(self.served)
        self.release[self.served[-1]].set()
        await until(lambda: len(self.served) > before, "the next turn")
        return self.served[-1]

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        assert self.checks.taken == 0  # no worker nor place left held


async def test_the_pool_serves_a_newcomer_within_one_round_of_a_flood() -> None:
    checks = PasswordChecks(workers=1, waiting=64)
    held = Held(checks)
    for key in FLOOD:
        held.send(key)
    await held.in_line(1, 11)
    owner = held.send(OWNER)
    await held.in_line(1, 12)  # a place, not a 503
    turns = 0
    while held.served[-1] != OWNER:
        held.send(held.served[-1])  # the flooder's next try, sent as its last one ends
        await held.end_turn()
        turns += 1
    assert turns <= len(FLOOD)
    held.release[OWNER].set()
    await owner
    await held.close()


async def test_no_place_is_busy_at_once() -> None:
    checks = PasswordChecks(workers=1, waiting=1, per_address=1, known_waiting=1)
    held = Held(checks)
    held.send("a")
    held.send("b")
    await held.in_line(1, 1)
    with pytest.raises(Busy):
        async with checks.turn("b"):  # its one place is taken
            pass
    with pytest.raises(Busy):
        async with checks.turn("c"):  # no room for another address
            pass
    held.send("c", known=True)  # the known wait apart: the strangers' line being full takes nothing from it
    await held.in_line(1, 2)
    assert await held.end_turn() == "c"  # the lines take turns: the known one first here
    assert await held.end_turn() == "b"
    await held.close()


async def test_the_known_and_the_strangers_take_turns() -> None:
    checks = PasswordChecks(workers=1, waiting=64)
    held = Held(checks)
    held.send("first")
    for i in range(3):
        held.send(f"stranger{i}")
        held.send(f"known{i}", known=True)
    await held.in_line(1, 6)
    assert [await held.end_turn() for _ in range(6)] == [
        "known0", "stranger0", "known1", "stranger1", "known2", "stranger2"]
    await held.close()


async def test_a_try_that_gives_up_in_line_frees_its_place() -> None:
    checks = PasswordChecks(workers=1, waiting=64)
    held = Held(checks)
    held.send("a")
    quitter = held.send("b")
    held.send("c")
    await held.in_line(1, 2)
    quitter.cancel()
    await held.in_line(1, 1)
    assert await held.end_turn() == "c"
    await held.close()


async def test_a_try_handed_its_turn_as_it_gives_up_passes_it_on() -> None:
    """The turn is handed over (its future done) and the try cancelled before it
    runs again: the next in line gets the worker, which is never lost."""
    checks = PasswordChecks(workers=1, waiting=64)
    held = Held(checks)
    first = checks.turn("a")
    await first.__aenter__()
    quitter = held.send("b")
    held.send("c")
    await held.in_line(1, 2)
    await first.__aexit__(None, None, None)  # hands "b" its turn, without letting "b" run
    quitter.cancel()
    await until(lambda: held.served == ["c"], "c's turn")
    assert checks.running == 1 and checks.waiting == 0
    await held.close()
