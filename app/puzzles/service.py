"""The puzzles as the server keeps them: the shipped set loaded, the next
puzzle for a player, an attempt judged and rated.

Puzzles and players are both rated by Glicko-2 (app/ratings), a try being a
match between the player and the puzzle: solved, the player won. Only an
account's first finished try at a puzzle is rated, and recorded in its
history; a guest may solve as many as they like, unrated. A puzzle is
served to an account near its puzzle rating, one it has not tried first.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Select, exists, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.puzzle_models import puzzle_attempts, puzzle_ratings, puzzles
from app.ratings import NEW, Rating, rate_match
from app.rules import (
    COLOURS,
    IllegalAction,
    MageryError,
    State,
    action_json,
    describe,
    from_text,
    legal_actions,
    public_text,
    public_view,
)

from .errors import IllegalMove, NoPuzzles, NoSuchPuzzle, TooMany, Unreadable
from .judge import TooManyActions, judge

SEED_FILE = Path(__file__).with_name("seed.jsonl")
PUZZLE_RD = 300.0  # a new puzzle's RD: its first rating is a guess from its length
PUZZLE_VOLATILITY = 0.09
NEAREST = 12  # a guest is served one of the puzzles nearest 1500, at random
HISTORY = 20  # tries shown on a profile


def read_seed(path: Path = SEED_FILE) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    with path.open() as lines:
        return [json.loads(line) for line in lines if line.strip()]


def _public(state: State) -> dict[str, Any]:
    return {"position": public_text(state), "state": public_view(state),
            "legal": [action_json(a) for a in legal_actions(state)]}


def _rating_of(row: Any) -> Rating:
    return Rating(row.rating, row.rd, row.volatility, getattr(row, "games", getattr(row, "plays", 0)),
                  datetime.fromtimestamp(row.last_ms / 1000, UTC) if getattr(row, "last_ms", None) else None)


class Puzzles:
    def __init__(self, engine: AsyncEngine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock
        self.rng = random.Random()

    def _ms(self) -> int:
        return int(self.clock() * 1000)

    async def load(self, records: list[dict[str, Any]], source: str = "seed") -> int:
        """Adds the puzzles not yet held (by id); answers how many were added.
        Safe to run on every start, by every process at once."""
        if not records:
            return 0
        async with self.engine.begin() as conn:
            held = set((await conn.execute(select(puzzles.c.id))).scalars())
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            now = self._ms()
            rows = []
            for rec in records:
                if rec["id"] in held:
                    continue
                held.add(rec["id"])
                colour = COLOURS[from_text(rec["position"]).to_move]
                moves = sum(1 for ply in rec["solution"] if ply["player"] == colour)
                rows.append({"id": rec["id"], "position": rec["position"], "solution": json.dumps(rec["solution"]),
                             "themes": ",".join(rec["themes"]), "moves": moves, "rating": float(rec["rating"]),
                             "rd": PUZZLE_RD, "volatility": PUZZLE_VOLATILITY, "plays": 0, "source": source,
                             "added_ms": now})
            if rows:  # one statement: another process loading at once adds nothing twice
                await conn.execute(dialect.insert(puzzles).on_conflict_do_nothing(index_elements=["id"]), rows)
        return len(rows)

    async def player_rating(self, account_id: int) -> Rating | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(puzzle_ratings).where(
                puzzle_ratings.c.account_id == account_id))).first()
        return None if row is None else _rating_of(row)

    async def next_for(self, account_id: int | None) -> dict[str, Any]:
        """The puzzle to try next: near the account's puzzle rating and not
        tried by it yet; once it has tried them all, one of the NEAREST
        nearest its rating at random (not the same one every time); a guest's
        one of those nearest 1500."""
        mine = await self.player_rating(account_id) if account_id is not None else None
        target = (mine or NEW).rating
        async with self.engine.connect() as conn:
            row = None
            if account_id is not None:
                untried = await _nearest(conn, target, 1, account_id)
                row = untried[0] if untried else None
            if row is None:
                rows = await _nearest(conn, target, NEAREST)
                row = self.rng.choice(rows) if rows else None
        if row is None:
            raise NoPuzzles("this server holds no puzzles yet")
        return self._shown(row, mine)

    async def one(self, puzzle_id: str, account_id: int | None) -> dict[str, Any]:
        row = await self._row(puzzle_id)
        mine = await self.player_rating(account_id) if account_id is not None else None
        return self._shown(row, mine)

    def _shown(self, row: Any, mine: Rating | None) -> dict[str, Any]:
        state = from_text(row.position)
        line = json.loads(row.solution)
        colour = COLOURS[state.to_move]
        first = next(ply["action"] for ply in line if ply["player"] == colour)
        return {"id": row.id, "to_move": colour, "rating": round(row.rating), "themes": row.themes.split(","),
                "moves": row.moves, "plays": row.plays, "hint": first.get("mage"),
                "player_rating": None if mine is None else round(mine.rating), **_public(state)}

    async def _row(self, puzzle_id: str) -> Any:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(puzzles).where(puzzles.c.id == puzzle_id))).first()
        if row is None:
            raise NoSuchPuzzle(f"no puzzle {puzzle_id!r}")
        return row

    async def attempt(self, puzzle_id: str, account_id: int | None, actions: list[Any]) -> dict[str, Any]:
        """The solver's actions so far, judged; the first finished try of an
        account rates it and the puzzle."""
        row = await self._row(puzzle_id)
        start = from_text(row.position)
        line = json.loads(row.solution)
        try:
            judged = judge(start, line, actions)
        except IllegalAction as error:
            raise IllegalMove(str(error)) from None
        except TooManyActions as error:
            raise TooMany(str(error)) from None
        except MageryError as error:
            raise Unreadable(str(error)) from None
        out: dict[str, Any] = {"correct": judged.correct, "complete": judged.complete,
                               "solution": None, "rating_change": None, "replies": judged.replies,
                               "player_rating": None}
        if not judged.complete:
            return {**out, **_public(judged.state)}
        out["solution"] = line
        out["replay"] = _replay(start, line)
        if account_id is not None:
            change, after = await self._rate(row.id, account_id, judged.correct)
            out["rating_change"] = change
            out["player_rating"] = after
        return {**out, **_public(judged.state)}

    async def _rate(self, puzzle_id: str, account_id: int, solved: bool) -> tuple[float | None, int | None]:
        """(the change, the rating after) of this try; (None, rating) when the
        account has tried this puzzle before (not rated again)."""
        now_ms = self._ms()
        when = datetime.fromtimestamp(now_ms / 1000, UTC)
        async with self.engine.begin() as conn:
            postgres = conn.dialect.name == "postgresql"

            def lock(query: Select[Any]) -> Select[Any]:  # two tries at once wait in turn (PostgreSQL)
                return query.with_for_update() if postgres else query

            before_row = (await conn.execute(lock(select(puzzle_ratings).where(
                puzzle_ratings.c.account_id == account_id)))).first()
            player = NEW if before_row is None else _rating_of(before_row)
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            tried = await conn.execute(dialect.insert(puzzle_attempts).values(
                account_id=account_id, puzzle_id=puzzle_id, solved=solved, rating_before=player.rating,
                rating_after=player.rating, at_ms=now_ms,
            ).on_conflict_do_nothing(index_elements=["account_id", "puzzle_id"]).returning(puzzle_attempts.c.id))
            attempt_id = tried.scalar()
            if attempt_id is None:
                return None, round(player.rating)
            prow = (await conn.execute(lock(select(puzzles).where(puzzles.c.id == puzzle_id)))).one()
            puzzle = Rating(prow.rating, prow.rd, prow.volatility, prow.plays)
            player_after, puzzle_after = rate_match(player, puzzle, 1.0 if solved else 0.0, when)
            values = {"rating": player_after.rating, "rd": player_after.rd,
                      "volatility": player_after.volatility, "games": player_after.games, "last_ms": now_ms}
            if before_row is None:
                await conn.execute(puzzle_ratings.insert().values(account_id=account_id, **values))
            else:
                await conn.execute(puzzle_ratings.update().where(
                    puzzle_ratings.c.account_id == account_id).values(**values))
            await conn.execute(puzzles.update().where(puzzles.c.id == puzzle_id).values(
                rating=puzzle_after.rating, rd=puzzle_after.rd, volatility=puzzle_after.volatility,
                plays=puzzles.c.plays + 1))
            await conn.execute(puzzle_attempts.update().where(puzzle_attempts.c.id == attempt_id).values(
                rating_after=player_after.rating))
        return round(player_after.rating - player.rating, 1), round(player_after.rating)

    async def history(self, account_id: int, most: int = HISTORY) -> dict[str, Any]:
        """An account's puzzle rating and its latest rated tries, newest first."""
        mine = await self.player_rating(account_id)
        query = (select(puzzle_attempts, puzzles.c.rating.label("puzzle_rating"), puzzles.c.themes)
                 .join(puzzles, puzzles.c.id == puzzle_attempts.c.puzzle_id)
                 .where(puzzle_attempts.c.account_id == account_id)
                 .order_by(puzzle_attempts.c.at_ms.desc(), puzzle_attempts.c.id.desc()).limit(most))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {
            "rating": None if mine is None else {"rating": round(mine.rating), "rd": round(mine.rd),
                                                 "games": mine.games, "shown": mine.shown()},
            "history": [{"puzzle": r.puzzle_id, "solved": r.solved, "at": r.at_ms,
                         "rating_change": round(r.rating_after - r.rating_before, 1),
                         "puzzle_rating": round(r.puzzle_rating), "themes": r.themes.split(",")}
                        for r in rows],
        }


async def _nearest(conn: AsyncConnection, target: float, count: int, untried_by: int | None = None) -> list[Any]:
    """The `count` puzzles nearest `target` in rating (the nearer first, then by
    id), those `untried_by` that account only. Two walks of the rating index,
    up from the target and down from it, each stopping at `count` rows: a
    puzzle is served without reading or sorting the whole table."""
    up = select(puzzles).where(puzzles.c.rating >= target).order_by(puzzles.c.rating, puzzles.c.id)
    down = select(puzzles).where(puzzles.c.rating < target).order_by(puzzles.c.rating.desc(), puzzles.c.id)
    if untried_by is not None:
        tried = exists().where(puzzle_attempts.c.account_id == untried_by,
                               puzzle_attempts.c.puzzle_id == puzzles.c.id)
        up, down = up.where(~tried), down.where(~tried)
    rows = [*(await conn.execute(up.limit(count))).all(), *(await conn.execute(down.limit(count))).all()]
    rows.sort(key=lambda r: (abs(r.rating - target), r.id))
    return rows[:count]


def _replay(start: State, line: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The solution step by step, each with the public state after it: the page replays it."""
    from .miner import replay

    states = replay(start, line)
    return [{"player": ply["player"], "action": ply["action"], "words": describe(before, ply["action"]),
             "state": public_view(after)}
            for ply, before, after in zip(line, states, states[1:], strict=False)]
