"""The figures: what finished matches add up to, kept as sums per day.

A finished match never changes, so each is summarised once (`match_summaries`:
its day, variant, opponent kind, result, length in rounds and moves, and a
histogram of the times between moves) and added to its day's row of
`figure_days`. The figures then read one row per day, variant and opponent
kind, whatever the number of matches. Nothing in the match service writes
here: `catch_up` reads the matches finished since its mark (the finished_at
index) whenever figures are asked for, under a lock so two processes never
count a match twice. `rebuild` starts over from every finished match.

Histograms keep counts per bucket (`ROUND_BOUNDS`, `MOVE_BOUNDS`, and
half-octaves of milliseconds for the time per move); medians are read from
them, to the width of a bucket.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import delete, exists, func, literal_column, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.sql.elements import ColumnClause

from app.db.admin_models import figure_days, figure_marks, match_summaries
from app.db.models import actions, matches, seats
from app.matches.replay import ENGINE_ACTIONS
from app.rules import VARIANTS
from app.rules.state import REASONS

MARK = "summaries"
BATCH = 500
# A match whose commit lands later than this after its finished_at moment
# (never, in practice) would be missed by the next catch-up; rebuild finds it.
OVERLAP = timedelta(minutes=10)
ROUND_BOUNDS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 75, 100)
MOVE_BOUNDS = (0, 10, 20, 30, 40, 50, 60, 80, 100, 125, 150, 200, 250, 300, 400, 500, 750, 1000, 1500, 2000)
ROUND: ColumnClause[Any] = literal_column("(matches.state ->> 'round')")
KIND: ColumnClause[Any] = literal_column("(actions.action ->> 'type')")


def bucket(value: int, bounds: tuple[int, ...]) -> str:
    """The index of the bucket [bounds[i], bounds[i+1]) holding `value`."""
    return str(max(bisect_right(bounds, value) - 1, 0))


def think_bucket(ms: int) -> str:
    """Half-octaves: bucket k holds [2^(k/2), 2^((k+1)/2)) milliseconds."""
    return str(int(2 * math.log2(max(ms, 1))))


@dataclass(slots=True)
class Summary:
    match_id: str
    finished_at: datetime
    variant: str
    against_bot: bool
    winner: str | None
    reason: str
    rounds: int
    actions: int
    think: dict[str, int]

    @property
    def day(self) -> date:
        return self.finished_at.astimezone(UTC).date()

    def row(self) -> dict[str, Any]:
        return {"match_id": self.match_id, "finished_at": self.finished_at, "day": self.day,
                "variant": self.variant, "against_bot": self.against_bot, "winner": self.winner,
                "reason": self.reason, "rounds": self.rounds, "actions": self.actions, "think": self.think}


def moves_and_think(entries: Iterable[tuple[str | None, str, bool, datetime]]) -> tuple[int, dict[str, int]]:
    """(moves chosen by a player, histogram of the time each took), from the log
    entries (player, action type, automatic, at) in version order. A move's time
    runs from the entry before it, whatever that was."""
    moves = 0
    think: Counter[str] = Counter()
    before: datetime | None = None
    for player, kind, automatic, at in entries:
        if kind in ENGINE_ACTIONS and not automatic and player is not None:
            moves += 1
            if before is not None:
                think[think_bucket(round((at - before).total_seconds() * 1000))] += 1
        before = at
    return moves, dict(think)


def _add(into: dict[str, int], counts: dict[str, int]) -> None:
    for key, n in counts.items():
        into[key] = into.get(key, 0) + n


async def _lock_mark(conn: AsyncConnection) -> datetime | None:
    """The mark, locked till the transaction ends (FOR UPDATE on PostgreSQL; on
    SQLite the write transaction itself is the lock)."""
    for _ in range(2):
        row = (await conn.execute(
            select(figure_marks.c.finished_at).where(figure_marks.c.name == MARK).with_for_update())).first()
        if row is not None:
            mark: datetime | None = row.finished_at
            return mark
        try:
            async with conn.begin_nested():
                await conn.execute(figure_marks.insert().values(name=MARK, finished_at=None))
        except IntegrityError:  # another process made it first: lock theirs
            continue
    raise RuntimeError("the figures' mark cannot be locked")


async def _summarise(conn: AsyncConnection, since: datetime | None) -> list[Summary]:
    q = (select(matches.c.id, matches.c.variant, matches.c.finished_at, matches.c.result, ROUND.label("round"))
         .where(matches.c.status == "finished", matches.c.finished_at.is_not(None))
         .where(~exists().where(match_summaries.c.match_id == matches.c.id)))
    if since is not None:
        q = q.where(matches.c.finished_at >= since)
    rows = (await conn.execute(q.order_by(matches.c.finished_at, matches.c.id).limit(BATCH))).all()
    if not rows:
        return []
    ids = [r.id for r in rows]
    bots = set((await conn.execute(
        select(seats.c.match_id).where(seats.c.match_id.in_(ids), seats.c.bot.is_not(None)))).scalars())
    logs: dict[str, list[tuple[str | None, str, bool, datetime]]] = defaultdict(list)
    for e in await conn.execute(
            select(actions.c.match_id, actions.c.player, KIND.label("kind"), actions.c.automatic, actions.c.at)
            .where(actions.c.match_id.in_(ids)).order_by(actions.c.match_id, actions.c.version)):
        logs[e.match_id].append((e.player, e.kind, e.automatic, e.at))
    out = []
    for r in rows:
        moves, think = moves_and_think(logs[r.id])
        result = r.result or {}
        out.append(Summary(r.id, r.finished_at, r.variant, r.id in bots, result.get("winner"),
                           result.get("reason") or "aborted", int(r.round or 0), moves, think))
    return out


async def add_to_days(conn: AsyncConnection, summaries: list[Summary]) -> None:
    """Add `summaries` to their days' rows (the caller holds the mark's lock)."""
    groups: dict[tuple[date, str, bool], list[Summary]] = defaultdict(list)
    for s in summaries:
        groups[(s.day, s.variant, s.against_bot)].append(s)
    for (day, variant, bot), group in groups.items():
        key = (figure_days.c.day == day, figure_days.c.variant == variant, figure_days.c.against_bot == bot)
        row = (await conn.execute(select(figure_days).where(*key))).first()
        sums: dict[str, Any] = {
            "finished": row.finished if row else 0, "white_wins": row.white_wins if row else 0,
            "black_wins": row.black_wins if row else 0, "reasons": dict(row.reasons) if row else {},
            "rounds": dict(row.rounds) if row else {}, "actions": dict(row.actions) if row else {},
            "think": dict(row.think) if row else {},
        }
        for s in group:
            sums["finished"] += 1
            sums["white_wins"] += s.winner == "white"
            sums["black_wins"] += s.winner == "black"
            _add(sums["reasons"], {s.reason: 1})
            _add(sums["rounds"], {bucket(s.rounds, ROUND_BOUNDS): 1})
            _add(sums["actions"], {bucket(s.actions, MOVE_BOUNDS): 1})
            _add(sums["think"], s.think)
        if row is None:
            await conn.execute(figure_days.insert().values(day=day, variant=variant, against_bot=bot, **sums))
        else:
            await conn.execute(figure_days.update().where(*key).values(**sums))


async def catch_up(engine: AsyncEngine, max_batches: int = 20) -> int:
    """Summarise the matches finished since the mark; answers how many."""
    done = 0
    for _ in range(max_batches):
        async with engine.begin() as conn:
            mark = await _lock_mark(conn)
            found = await _summarise(conn, mark - OVERLAP if mark is not None else None)
            if not found:
                return done
            await conn.execute(match_summaries.insert(), [s.row() for s in found])
            await add_to_days(conn, found)
            newest = max(s.finished_at for s in found)
            await conn.execute(figure_marks.update().where(figure_marks.c.name == MARK)
                               .values(finished_at=max(newest, mark) if mark is not None else newest))
        done += len(found)
        if len(found) < BATCH:
            break
    return done


async def rebuild(engine: AsyncEngine) -> int:
    """Forget every summary and count every finished match again."""
    async with engine.begin() as conn:
        await _lock_mark(conn)
        await conn.execute(delete(match_summaries))
        await conn.execute(delete(figure_days))
        await conn.execute(figure_marks.update().where(figure_marks.c.name == MARK).values(finished_at=None))
    total = 0
    while True:
        n = await catch_up(engine, max_batches=1000)
        total += n
        if n == 0:
            return total


def median_of(hist: dict[str, int], value_of: Any) -> float | None:
    """The median of a histogram {bucket: count}, as `value_of(bucket)` of the
    bucket where half the counts are reached."""
    total = sum(hist.values())
    if not total:
        return None
    seen = 0
    for key in sorted(hist, key=int):
        seen += hist[key]
        if 2 * seen >= total:
            return float(value_of(int(key)))
    return None


def _bars(hist: dict[str, int], bounds: tuple[int, ...]) -> list[dict[str, Any]]:
    out = []
    for i, low in enumerate(bounds):
        high = bounds[i + 1] - 1 if i + 1 < len(bounds) else None
        out.append({"from": low, "to": high, "matches": hist.get(str(i), 0)})
    while out and not out[-1]["matches"]:
        out.pop()
    return out


async def stats(engine: AsyncEngine, start: date, end: date) -> dict[str, Any]:
    """`GET /admin/api/stats`: the figures of matches finished from `start` to
    `end` (days, UTC, both included), and the matches being played now."""
    await catch_up(engine)
    async with engine.connect() as conn:
        rows = (await conn.execute(select(figure_days).where(
            figure_days.c.day >= start, figure_days.c.day <= end))).all()
        now: dict[str, int] = dict((await conn.execute(
            select(matches.c.status, func.count()).where(matches.c.status.in_(("active", "waiting")))
            .group_by(matches.c.status))).all())
    per_day: dict[date, dict[str, int]] = {}
    day = start
    while day <= end:
        per_day[day] = {"finished": 0, "against_bots": 0}
        day += timedelta(days=1)
    variants = {v: {"finished": 0, "white": 0, "black": 0, "draw": 0, "aborted": 0} for v in VARIANTS}
    reasons = {r: 0 for r in REASONS}
    rounds: dict[str, int] = {}
    moves: dict[str, int] = {}
    think: dict[str, int] = {}
    bot_matches = 0
    for r in rows:
        per_day[r.day]["finished"] += r.finished
        if r.against_bot:
            per_day[r.day]["against_bots"] += r.finished
            bot_matches += r.finished
        v = variants.setdefault(r.variant, {"finished": 0, "white": 0, "black": 0, "draw": 0, "aborted": 0})
        aborted = r.reasons.get("aborted", 0)
        v["finished"] += r.finished
        v["white"] += r.white_wins
        v["black"] += r.black_wins
        v["aborted"] += aborted
        v["draw"] += r.finished - r.white_wins - r.black_wins - aborted
        _add(reasons, r.reasons)
        _add(rounds, r.rounds)
        _add(moves, r.actions)
        _add(think, r.think)
    total = sum(v["finished"] for v in variants.values())
    played = {c: sum(v[c] for v in variants.values()) for c in ("white", "black", "draw")}
    decided = sum(played.values())

    def rate(n: int, of: int) -> float | None:
        return round(n / of, 4) if of else None

    think_median = median_of(think, lambda k: 2 ** ((k + 0.5) / 2))
    return {
        "from": start.isoformat(), "to": end.isoformat(),
        "active_now": now.get("active", 0), "waiting_now": now.get("waiting", 0),
        "finished": total,
        "per_day": [{"day": d.isoformat(), **n} for d, n in per_day.items()],
        # Played matches only: an aborted match was won by nobody and drawn by nobody.
        "win_rate": {"played": decided, **{c: rate(n, decided) for c, n in played.items()}},
        "by_variant": {name: {"finished": v["finished"], "played": (p := v["white"] + v["black"] + v["draw"]),
                              "white": rate(v["white"], p), "black": rate(v["black"], p),
                              "draw": rate(v["draw"], p)} for name, v in variants.items()},
        "reasons": reasons,
        "rounds": {"median": median_of(rounds, lambda k: ROUND_BOUNDS[k]), "histogram": _bars(rounds, ROUND_BOUNDS)},
        "actions": {"median": median_of(moves, lambda k: MOVE_BOUNDS[k]), "histogram": _bars(moves, MOVE_BOUNDS)},
        "median_seconds_per_action": round(think_median / 1000, 3) if think_median is not None else None,
        "against_bots": {"matches": bot_matches, "share": rate(bot_matches, total)},
    }
