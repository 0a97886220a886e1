"""tests/waiting.py: a poll returns what held, and a poll that never holds fails
naming what it waited for."""

from __future__ import annotations

import pytest

from tests.waiting import NeverHappened, until, until_sync


async def test_until_returns_the_first_true_answer_of_a_plain_or_a_coroutine_predicate() -> None:
    asked: list[int] = []

    def third() -> int | None:
        asked.append(1)
        return len(asked) if len(asked) == 3 else None

    async def ready() -> str:
        return "ready"

    assert await until(third, "the third ask") == 3
    assert await until(ready, "a coroutine's answer") == "ready"


async def test_until_fails_naming_what_never_came() -> None:
    with pytest.raises(NeverHappened, match="waited 0.05 s for the bot to move; the last answer was False"):
        await until(lambda: False, "the bot to move", seconds=0.05)


def test_until_sync_pauses_through_what_it_is_given() -> None:
    paused: list[float] = []
    assert until_sync(lambda: len(paused) == 2 and "done", "two pauses", pause=paused.append) == "done"
    assert paused == [0.01, 0.01]
    with pytest.raises(NeverHappened, match="for nothing"):
        until_sync(lambda: 0, "nothing", seconds=0.0, pause=paused.append)
