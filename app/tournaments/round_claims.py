"""A whole round of an arena's pairing claimed in the one transaction that
inserts its matches (app/matches/pairing_round.py): the same checks as
`store.claim` makes for one game, under the same locks taken in the same
order, but a statement for all the round's players where `claim` spends one
per player or per game.

Each game is checked on its own: a pair with a player another process paired
first (or who withdrew, or plays a real-time game elsewhere) is answered as
lost and nothing is written for it, while the rest of the round goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.advisory import lock_in_order
from app.db.tournament_models import tournament_games as games
from app.db.tournament_models import tournament_players as players
from app.matches import playing


@dataclass(frozen=True, slots=True)
class Game:
    """One game of the round: its two accounts (in the order the match was asked
    for), their ratings as paired (kept on the game), its match and colours."""

    pair: tuple[int, int]
    ratings_now: tuple[float, float]
    match_id: str
    colours: tuple[str, str]


async def claim_round(conn: AsyncConnection, tournament_id: str, round_: Sequence[Game], now_ms: int) -> set[str]:
    """In the transaction that inserts the round's matches: each game whose two
    accounts are still active and free here, and play no other arena's game nor
    any other real-time match, is written and its players now play it. Answers
    the match ids of the games lost (not written)."""
    accounts = sorted({a for game in round_ for a in game.pair})
    if not accounts:
        return set()
    # As store._hold, for all at once: the arena's locks in the order of the accounts ...
    await lock_in_order(conn, [f"arena:{a}" for a in accounts])
    await conn.execute(update(players).where(players.c.tournament_id == tournament_id,
                                             players.c.account_id.in_(accounts))
                       .values(joined_ms=players.c.joined_ms))
    here = {r.account_id: r for r in (await conn.execute(
        select(players.c.account_id, players.c.active, players.c.match_id)
        .where(players.c.tournament_id == tournament_id, players.c.account_id.in_(accounts)))).all()}
    in_arenas = set((await conn.execute(select(players.c.account_id).where(
        players.c.account_id.in_(accounts), players.c.match_id.is_not(None)))).scalars())
    # ... then, as every maker of a game, the real-time hold, after its own locks.
    await playing.hold(conn, accounts)
    elsewhere = await playing.busy_beside(conn, accounts, {game.match_id for game in round_})
    lost: set[str] = set()
    taken: set[int] = set()
    kept: list[Game] = []
    for game in round_:
        a, b = game.pair
        free = all(here.get(p) is not None and here[p].active and here[p].match_id is None for p in game.pair)
        if (a == b or not free or {a, b} & (in_arenas | elsewhere | taken)):
            lost.add(game.match_id)
            continue
        taken.update(game.pair)
        kept.append(game)
    if kept:
        await conn.execute(
            update(players).where(players.c.tournament_id == tournament_id,
                                  players.c.account_id == bindparam("me"))
            .values(match_id=bindparam("game"), last_opponent=bindparam("other")),
            [{"me": me, "other": other, "game": game.match_id}
             for game in kept for me, other in (game.pair, game.pair[::-1])])
        await conn.execute(games.insert(), [_game_row(tournament_id, game, now_ms) for game in kept])
    return lost


def _game_row(tournament_id: str, game: Game, now_ms: int) -> dict[str, object]:
    seat = dict(zip(game.colours, zip(game.pair, game.ratings_now, strict=True), strict=True))
    return {"tournament_id": tournament_id, "match_id": game.match_id, "white": seat["white"][0],
            "black": seat["black"][0], "white_rating": seat["white"][1], "black_rating": seat["black"][1],
            "status": "playing", "made_ms": now_ms}
