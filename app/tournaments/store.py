"""The arenas' statements on their tables (app/db/tournament_models.py).

A player's rows change in one transaction at a time, on every process: on
PostgreSQL under a transaction-scoped advisory lock on the account (taken in
the order of the keys, so two pairings never wait on each other in a circle);
on SQLite every such transaction begins with a write, which holds the
database's one write lock until it commits. A pairing checks, under those
locks and in the transaction that inserts the match, that both players still
wait and play nowhere else, so a player is never in two games at once: in no
other arena's, and in no other real-time match at all (a pool's, a seek's, a
challenge's: app/matches/playing.py, whose hold every maker of a game takes).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.account_models import accounts, ratings
from app.db.models import actions, matches
from app.db.tournament_models import tournament_games as games
from app.db.tournament_models import tournament_players as players
from app.db.tournament_models import tournaments
from app.matches import playing

from .errors import Removed
from .scoring import Outcome, Sheet, add

PLAYS = ("place", "pass", "remove")  # a player's own actions in the game: not a setup, an offer, a resignation


class Lost(Exception):
    """A pairing found one of its two players paired, withdrawn or playing elsewhere already."""


@dataclass(frozen=True, slots=True)
class Arena:
    id: str
    name: str
    variant: str
    time_control: str
    rated: bool
    starts_ms: int
    ends_ms: int
    password_hash: str | None = None  # rules of entry (entry.py)
    min_rating: int | None = None
    max_rating: int | None = None
    bots: bool = False
    cancelled_ms: int | None = None  # an admin's cancel (moderation.py)
    scheduled: bool = False  # made by the server's schedule (schedule.py)


async def _lock(conn: AsyncConnection, accounts: Iterable[int]) -> None:
    if conn.dialect.name == "postgresql":
        for account in sorted(set(accounts)):
            await conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"arena:{account}"})


async def _hold(conn: AsyncConnection, tournament_id: str, accounts: Iterable[int]) -> None:
    """The accounts' rows, held (see the module's words): locked on PostgreSQL;
    on SQLite this write, which changes nothing, takes the write lock first."""
    accounts = list(accounts)
    await _lock(conn, accounts)
    await conn.execute(update(players).where(players.c.tournament_id == tournament_id,
                                             players.c.account_id.in_(accounts))
                       .values(joined_ms=players.c.joined_ms))


hold = _hold  # for the admin's changes (moderation.py), under the same locks


def _arena(row: Any) -> Arena:
    return Arena(row.id, row.name, row.variant, row.time_control, row.rated, row.starts_ms, row.ends_ms,
                 row.password_hash, row.min_rating, row.max_rating, bool(row.bots),
                 row.cancelled_ms, row.schedule_key is not None)


class Limited(Exception):
    """The account made `most` arenas within the window already: the next may be made in `wait_ms`."""

    def __init__(self, most: int, window_ms: int, wait_ms: int) -> None:
        super().__init__(f"{most} arenas within {window_ms} ms")
        self.most, self.window_ms, self.wait_ms = most, window_ms, wait_ms


row_arena = _arena  # an arena from a row of `tournaments` read elsewhere (people.py)


async def create(engine: AsyncEngine, arena: Arena, created_by: int, now_ms: int,
                 limits: Iterable[tuple[int, int]] = ()) -> None:
    """Insert the arena, unless the account made `most` arenas within `window_ms`
    for one of `limits` (Limited). The count and the insert are one transaction
    under the account's lock, so two processes never both make the one too many."""
    async with engine.begin() as conn:
        limits = [(w, m) for w, m in limits if m > 0]
        if limits:
            await _lock_maker(conn, created_by)
            for window_ms, most in limits:
                made = list((await conn.execute(
                    select(tournaments.c.created_ms).where(tournaments.c.created_by == created_by,
                                                           tournaments.c.created_ms > now_ms - window_ms)
                    .order_by(tournaments.c.created_ms.desc()).limit(most))).scalars())
                if len(made) >= most:
                    raise Limited(most, window_ms, made[-1] + window_ms - now_ms)
        await conn.execute(tournaments.insert().values(
            id=arena.id, kind="arena", name=arena.name, variant=arena.variant, time_control=arena.time_control,
            rated=arena.rated, starts_ms=arena.starts_ms, ends_ms=arena.ends_ms, created_by=created_by,
            created_ms=now_ms, password_hash=arena.password_hash, min_rating=arena.min_rating,
            max_rating=arena.max_rating, bots=arena.bots))


async def _lock_maker(conn: AsyncConnection, account_id: int) -> None:
    """The account's arena making, one at a time: an advisory lock on PostgreSQL;
    on SQLite a write that changes nothing takes the database's write lock."""
    if conn.dialect.name == "postgresql":
        await conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"arena-maker:{account_id}"})
    else:
        await conn.execute(update(tournaments).where(tournaments.c.created_by == account_id,
                                                     tournaments.c.id == "")
                           .values(created_ms=tournaments.c.created_ms))


async def arena(engine: AsyncEngine, tournament_id: str) -> Arena | None:
    async with engine.connect() as conn:
        row = (await conn.execute(select(tournaments).where(tournaments.c.id == tournament_id))).first()
    return None if row is None else _arena(row)


async def listing(engine: AsyncEngine, limit: int) -> list[Arena]:
    """The arenas, the latest to start first."""
    async with engine.connect() as conn:
        rows = (await conn.execute(select(tournaments).order_by(tournaments.c.starts_ms.desc(), tournaments.c.id)
                                   .limit(limit))).all()
    return [_arena(r) for r in rows]


async def join(engine: AsyncEngine, tournament_id: str, account_id: int, name: str, now_ms: int) -> None:
    """The account plays in the arena (again, after a withdrawal: its score kept)."""
    async with engine.begin() as conn:
        await _hold(conn, tournament_id, [account_id])
        row = (await conn.execute(select(players).where(players.c.tournament_id == tournament_id,
                                                        players.c.account_id == account_id))).first()
        if row is not None and row.removed_ms is not None:
            raise Removed("an admin removed you from this arena: you cannot join it again")
        if row is None:
            await conn.execute(players.insert().values(
                tournament_id=tournament_id, account_id=account_id, name=name, active=True, score=0, games=0,
                streak=0, joined_ms=now_ms, free_ms=now_ms))
        elif not row.active:
            await conn.execute(update(players).where(players.c.id == row.id).values(
                active=True, name=name, free_ms=now_ms if row.match_id is None else row.free_ms))


async def rating_of(engine: AsyncEngine, account_id: int, variant: str) -> tuple[float | None, bool]:
    """The account's rating in `variant` (None: no rated game there) and whether it is a bot account."""
    async with engine.connect() as conn:
        rating = (await conn.execute(select(ratings.c.rating).where(
            ratings.c.account_id == account_id, ratings.c.variant == variant))).scalar_one_or_none()
        bot_at = (await conn.execute(select(accounts.c.bot_at).where(accounts.c.id == account_id))).scalar_one_or_none()
    return rating, bot_at is not None


async def game_of(engine: AsyncEngine, tournament_id: str, account_id: int) -> tuple[str, str] | None:
    """The account's game under way in the arena: its match and the account's colour (None: none)."""
    async with engine.connect() as conn:
        row = (await conn.execute(select(games.c.match_id, games.c.white, games.c.black).where(
            games.c.tournament_id == tournament_id, games.c.status == "playing",
            (games.c.white == account_id) | (games.c.black == account_id)).order_by(games.c.id.desc()))).first()
    if row is None:
        return None
    return row.match_id, "white" if row.white == account_id else "black"


async def mark_berserk(engine: AsyncEngine, match_id: str, colour: str) -> None:
    """The game's berserk flag for `colour` (the match's log holds it too: settle reads both)."""
    column = "white_berserk" if colour == "white" else "black_berserk"
    async with engine.begin() as conn:
        await conn.execute(update(games).where(games.c.match_id == match_id).values({column: True}))


async def withdraw(engine: AsyncEngine, tournament_id: str, account_id: int) -> bool:
    """A pause: not paired again until the account joins again (a game under way
    is played out). False: the account never joined."""
    async with engine.begin() as conn:
        await _hold(conn, tournament_id, [account_id])
        done = await conn.execute(update(players).where(players.c.tournament_id == tournament_id,
                                                        players.c.account_id == account_id).values(active=False))
    return bool(done.rowcount)


async def waiting(engine: AsyncEngine, tournament_id: str, variant: str) -> list[Any]:
    """The arena's players free to be paired (playing no game of any arena, nor any
    other real-time game), with
    their rating in its variant (None: never rated)."""
    elsewhere = players.alias("elsewhere")
    busy = select(elsewhere.c.id).where(elsewhere.c.account_id == players.c.account_id,
                                        elsewhere.c.match_id.is_not(None))
    query = (select(players, ratings.c.rating)
             .select_from(players.outerjoin(ratings, and_(ratings.c.account_id == players.c.account_id,
                                                          ratings.c.variant == variant)))
             .where(players.c.tournament_id == tournament_id, players.c.active.is_(True),
                    players.c.match_id.is_(None), ~busy.exists(), playing.free(players.c.account_id)))
    async with engine.connect() as conn:
        return list((await conn.execute(query)).all())


async def claim(conn: AsyncConnection, tournament_id: str, pair: tuple[int, int], ratings_now: tuple[float, float],
                match_id: str, colours: tuple[str, str], now_ms: int) -> None:
    """In the transaction that inserts the match: both accounts, still active and
    free here and playing no other arena's game, now play `match_id`, and the
    game is written. Raises Lost (and so the match is not made) otherwise."""
    await _hold(conn, tournament_id, pair)
    rows = (await conn.execute(select(players).where(players.c.tournament_id == tournament_id,
                                                     players.c.account_id.in_(pair)))).all()
    free = [r for r in rows if r.active and r.match_id is None]
    if len(free) != 2 or pair[0] == pair[1]:
        raise Lost(f"{pair} are no longer both free in {tournament_id}")
    busy = (await conn.execute(select(func.count()).select_from(players).where(
        players.c.account_id.in_(pair), players.c.match_id.is_not(None)))).scalar_one()
    if busy:
        raise Lost(f"one of {pair} plays in another arena")
    await playing.hold(conn, pair)
    if await playing.busy(conn, pair, match_id):
        raise Lost(f"one of {pair} plays a real-time game elsewhere")
    for me, other in ((pair[0], pair[1]), (pair[1], pair[0])):
        await conn.execute(update(players).where(players.c.tournament_id == tournament_id,
                                                 players.c.account_id == me)
                           .values(match_id=match_id, last_opponent=other))
    seat = dict(zip(colours, zip(pair, ratings_now, strict=True), strict=True))
    await conn.execute(games.insert().values(
        tournament_id=tournament_id, match_id=match_id, white=seat["white"][0], black=seat["black"][0],
        white_rating=seat["white"][1], black_rating=seat["black"][1], status="playing", made_ms=now_ms))


async def ended(engine: AsyncEngine, tournament_id: str | None = None, match_id: str | None = None) -> list[Any]:
    """Games still playing here whose match is over (of one arena, or one match)."""
    query = (select(games.c.id, games.c.tournament_id, games.c.match_id, matches.c.result, matches.c.finished_at,
                    tournaments.c.ends_ms, tournaments.c.cancelled_ms)
             .select_from(games.join(matches, matches.c.id == games.c.match_id)
                          .join(tournaments, tournaments.c.id == games.c.tournament_id))
             .where(games.c.status == "playing", matches.c.status == "finished"))
    if tournament_id is not None:
        query = query.where(games.c.tournament_id == tournament_id)
    if match_id is not None:
        query = query.where(games.c.match_id == match_id)
    async with engine.connect() as conn:
        return list((await conn.execute(query)).all())


def result_of(match_result: dict[str, Any] | None) -> str:
    """A finished match's result in an arena's words: "white", "black", "draw" or "aborted"."""
    result = match_result or {}
    if result.get("reason") == "aborted":
        return "aborted"
    winner = result.get("winner")
    return winner if winner in ("white", "black") else "draw"


OUTCOME = {"white": {"white": "win", "black": "loss"}, "black": {"white": "loss", "black": "win"},
           "draw": {"white": "draw", "black": "draw"}}


async def settle(engine: AsyncEngine, game_id: int, match_result: dict[str, Any] | None, now_ms: int,
                 counted: bool = True) -> bool:
    """Write a game's end once (False: another process did): its result and each
    player's points, added to the player's kept sheet; both players free again.
    An aborted game scores nothing and counts as no game, nor does one not
    `counted` (it ended after its arena did: podium.counts)."""
    async with engine.begin() as conn:
        game = (await conn.execute(select(games).where(games.c.id == game_id))).first()
        if game is None:
            return False
        await _hold(conn, game.tournament_id, [game.white, game.black])
        game = (await conn.execute(select(games).where(games.c.id == game_id))).first()
        if game is None or game.status != "playing":
            return False
        result = result_of(match_result)
        counts = {"white": 0, "black": 0}
        # A berserk is in the match's log before the game's flag is set: the log
        # decides, so a berserk whose flag was never written still scores.
        berserks = {"white": bool(game.white_berserk), "black": bool(game.black_berserk)}
        for colour, action in (await conn.execute(select(actions.c.player, actions.c.action).where(
                actions.c.match_id == game.match_id, actions.c.automatic.is_(False)))).all():
            if colour in counts and isinstance(action, dict) and action.get("type") in PLAYS:
                counts[colour] += 1
            if colour in berserks and isinstance(action, dict) and action.get("type") == "berserk":
                berserks[colour] = True
        fewest = min(counts.get("white", 0), counts.get("black", 0))
        scored: dict[str, int | None] = {"white": None, "black": None}
        for colour in ("white", "black"):
            account = game.white if colour == "white" else game.black
            row = (await conn.execute(select(players).where(players.c.tournament_id == game.tournament_id,
                                                            players.c.account_id == account))).one()
            values: dict[str, Any] = {"match_id": None, "free_ms": now_ms}
            if result != "aborted" and counted:
                berserk = berserks[colour]
                before = Sheet(row.score, row.games, row.streak)
                after = add(before, Outcome(OUTCOME[result][colour], berserk, fewest))
                scored[colour] = after.score - before.score
                values.update(score=after.score, games=after.games, streak=after.streak)
            await conn.execute(update(players).where(players.c.id == row.id, players.c.match_id == game.match_id)
                               .values(**values))
        await conn.execute(update(games).where(games.c.id == game_id).values(
            white_berserk=berserks["white"], black_berserk=berserks["black"],
            status="finished", result=result, actions=fewest, white_points=scored["white"],
            black_points=scored["black"], ended_ms=now_ms, counted=counted))
    return True


async def players_of(engine: AsyncEngine, tournament_id: str) -> list[Any]:
    async with engine.connect() as conn:
        return list((await conn.execute(select(players).where(players.c.tournament_id == tournament_id))).all())


async def games_of(engine: AsyncEngine, tournament_id: str) -> list[Any]:
    """The arena's games, newest first, with their players' names."""
    async with engine.connect() as conn:
        return list((await conn.execute(select(games).where(games.c.tournament_id == tournament_id)
                                        .order_by(games.c.id.desc()))).all())


async def arena_of_game(engine: AsyncEngine, match_id: str) -> str | None:
    """The arena a match is a game of (None: it is no arena's)."""
    async with engine.connect() as conn:
        return (await conn.execute(select(games.c.tournament_id).where(games.c.match_id == match_id))).scalar()
