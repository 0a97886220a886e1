"""A guest's seats claimed into an account (app/matches/claims.py): only with
the seat's own token, only a seat of no account yet, and never both seats of a
match for one account, even when two processes claim them at the same moment."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.accounts import Accounts
from app.matches import MatchService
from tests.accounts.conftest import player


async def _both_seats(service: MatchService) -> tuple[str, dict[str, str]]:
    made = await service.lobby.create({}, seat="white", name="Guest")
    joined = await service.lobby.join(made.match["id"], "Guest again")
    return made.match["id"], {made.seat: made.token, joined.seat: joined.token}


async def test_a_seat_is_claimed_with_its_token_once(service: MatchService, accounts: Accounts) -> None:
    ada, bo = await player(accounts, "Ada"), await player(accounts, "Bo")
    match_id, tokens = await _both_seats(service)
    wrong = await service.claims.claim(ada.id, [(match_id, "x" * 43)])
    assert wrong.claimed == [] and wrong.refused == [{"match": match_id,
                                                      "reason": "this token holds no seat of this match"}]
    done = await service.claims.claim(ada.id, [(match_id, tokens["white"])])
    assert done.claimed == [match_id]
    taken = await service.claims.claim(bo.id, [(match_id, tokens["white"])])
    assert taken.refused[0]["reason"] == "the seat is another account's"
    rec = await service.keeper.get(match_id, fresh=True)
    assert rec.seat_accounts() == {"white": ada.id, "black": None}
    assert rec.version == 1  # the match itself did not change: no new version, no log entry


async def test_two_processes_never_give_one_account_both_seats(engine: AsyncEngine, settings: Any,
                                                               accounts: Accounts) -> None:
    ada = await player(accounts, "Ada")
    here, there = MatchService(engine, settings), MatchService(engine, settings)  # two processes' services
    for _ in range(5):
        match_id, tokens = await _both_seats(here)
        white, black = await asyncio.gather(here.claims.claim(ada.id, [(match_id, tokens["white"])]),
                                            there.claims.claim(ada.id, [(match_id, tokens["black"])]))
        assert len(white.claimed) + len(black.claimed) == 1, (white, black)
        seats = (await here.keeper.get(match_id, fresh=True)).seat_accounts()
        assert list(seats.values()).count(ada.id) == 1
