"""A guest's seats claimed into an account (app/matches/claims.py): only with
the seat's own token, only a seat of no account yet, and never both seats of a
match for one account, even when two processes claim them at the same moment."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.accounts import Accounts
from app.db import make_engine
from app.matches import MatchService
from app.realtime import Hub, ServiceSource
from app.realtime.bus import MemoryBus
from app.realtime.service import share_claims
from tests.accounts.conftest import player
from tests.accounts.played import act_once
from tests.conftest import ROW
from tests.waiting import until


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


async def test_a_claimed_seat_is_the_accounts_on_every_process(database_url: str, settings: Any,
                                                               accounts: Accounts) -> None:
    """Issue 19: a claim moves no version, so another process's cached record
    of the match kept the guest's seat and wrote it into its next change's public
    state. The claim tells every process (a nudge on the bus, as main wires it)
    to forget its record; each process here has its own engine and hub."""
    ada = await player(accounts, "Ada")
    channel: list[Any] = []
    engines = [make_engine(database_url) for _ in "ab"]
    here, there = (MatchService(e, settings) for e in engines)
    hubs = [Hub(ServiceSource(s), MemoryBus(channel)) for s in (here, there)]
    for hub, service in zip(hubs, (here, there), strict=True):
        share_claims(service, hub.nudges)
        await hub.start()
    try:
        match_id, tokens = await _both_seats(here)
        await act_once(there, match_id, "white")  # the other process holds the match, the guest's seat
        assert there.keeper.cache.get(match_id) is not None
        assert (await here.claims.claim(ada.id, [(match_id, tokens["white"])])).claimed == [match_id]
        await until(lambda: there.keeper.cache.get(match_id) is None, "the other process to forget its record")
        # Its next change, made from its cache (no read first: a read may load the seats anew).
        after = await there.mover.act(match_id, "black", {"type": "setup", "backrow": ROW}, 2)
        white = after.match["players"]["white"]
        assert white["account"] == "Ada" and white["rating"]["rating"] == 1500
        logged = (await here.reads.states(match_id, 1, None))[0]["states"][-1]["match"]
        assert logged["players"]["white"]["account"] == "Ada"
        assert (await here.reads.get(match_id))["players"]["white"]["account"] == "Ada"
    finally:
        for hub in hubs:
            await hub.close()
        for e in engines:
            await e.dispose()
