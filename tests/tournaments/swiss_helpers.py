"""Helpers for the Swiss events' tests: an event's rows, games ended by every
way a match ends, and the standings made again from the matches alone."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import select

from app.db.models import matches
from app.db.swiss_models import swiss_games, swiss_rounds
from app.matches import Caller
from app.tournaments.swiss import NewSwiss, Swisses

from ..conftest import ROW, FakeTime


def event(name: str = "Sunday Swiss", rounds: int = 3, interval: int = 120, starts_in_seconds: int = 60,
          time_control: Any = "1+0", rated: bool = False) -> NewSwiss:
    return NewSwiss(name, "standard", time_control, rounds, interval, starts_in_seconds, rated)


def caller(member: Any) -> Caller:
    return Caller(account_id=member.account.id, account=member.name)


async def games(app: Any, tid: str) -> list[Any]:
    async with app.state.parts.engine.connect() as conn:
        return list((await conn.execute(select(swiss_games).where(swiss_games.c.tournament_id == tid)
                                        .order_by(swiss_games.c.round, swiss_games.c.board))).all())


async def rounds_paired(app: Any, tid: str) -> list[int]:
    async with app.state.parts.engine.connect() as conn:
        return list((await conn.execute(select(swiss_rounds.c.round).where(swiss_rounds.c.tournament_id == tid)
                                        .order_by(swiss_rounds.c.round))).scalars())


async def match_results(app: Any, ids: list[str]) -> dict[str, Any]:
    async with app.state.parts.engine.connect() as conn:
        rows = (await conn.execute(select(matches.c.id, matches.c.status, matches.c.result)
                                   .where(matches.c.id.in_(ids)))).all()
    return {r.id: r for r in rows}


async def end_by(app: Any, how: str, game: Any, white: Any, black: Any) -> None:
    """Ends a Swiss game's match: "white resigns"/"black resigns", "draw" (agreed),
    "flag" (after the setups, the side to move's clock runs out: call it last in
    a round, as it moves the match service's clock an hour on), "abort"."""
    gateway, service = app.state.parts.gateway, app.state.parts.service
    mid = game.match_id
    if how in ("white resigns", "black resigns"):
        await gateway.resign(mid, caller(white if how == "white resigns" else black))
    elif how == "draw":
        await gateway.draw(mid, caller(white), True)
        await gateway.draw(mid, caller(black), True)
    elif how == "abort":
        await gateway.abort(mid, caller(white))
    elif how == "flag":
        for who in (white, black):
            version = (await service.reads.get(mid))["version"]
            await gateway.play(mid, caller(who), {"type": "setup", "backrow": ROW}, version)
        time = FakeTime(service)
        time.advance(3600)  # far past a 1-minute clock: the side to move loses on time
        assert await service.finisher.sweep() >= 1
        state = await service.reads.get(mid)
        assert state["result"]["reason"] == "timeout"
    else:
        raise ValueError(how)


async def recomputed(app: Any, tid: str) -> tuple[dict[int, float], dict[int, float]]:
    """Each player's score and Buchholz from the matches' own results alone: a
    win 1, a draw 0.5, the bye 1, a match aborted nothing and no game."""
    rows = await games(app, tid)
    made = await match_results(app, [g.match_id for g in rows if g.match_id])
    score: Counter[int] = Counter()
    met: list[tuple[int, int]] = []
    for g in rows:
        if g.black is None:
            score[g.white] += 1
            continue
        if made[g.match_id].status != "finished":
            continue  # still on: counts for nobody yet
        result = made[g.match_id].result or {}
        if result.get("reason") == "aborted":
            continue
        met += [(g.white, g.black), (g.black, g.white)]
        winner = result.get("winner")
        if winner is None:
            score[g.white] += 0.5
            score[g.black] += 0.5
        else:
            score[g.white if winner == "white" else g.black] += 1
    buchholz: Counter[int] = Counter()
    for me, them in met:
        buchholz[me] += score[them]
    return dict(score), dict(buchholz)


def swisses(app: Any) -> Swisses:
    found: Swisses = app.state.parts.swisses
    return found
