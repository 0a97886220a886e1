"""The figures: what finished matches add up to, kept as sums per day.

A finished match never changes, so each is summarised once (`match_summaries`:
its day, variant, opponent kind, result, length in rounds and moves, and a
histogram of the times between moves) and added to its day's and its month's
rows of `figure_sums`. The figures then read one row per month (and per day at
the range's ends), variant and opponent kind, whatever the number of matches. Nothing in the match service writes
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

from sqlalchemy import and_, delete, exists, func, literal_column, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.sql import Select
from sqlalchemy.sql.elements import ColumnClause

from app.db.admin_models import figure_marks, figure_sums, match_summaries
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


def pending_statement(since: datetime | None) -> Select[Any]:
    """Finished matches not summarised yet, from `since` on, oldest first."""
    q = (select(matches.c.id, matches.c.variant, matches.c.finished_at, matches.c.result, ROUND.label("round"))
         .where(matches.c.status == "finished", matches.c.finished_at.is_not(None))
         .where(~exists().where(match_summaries.c.match_id == matches.c.id)))
    if since is not None:
        q = q.where(matches.c.finished_at >= since)
    return q.order_by(matches.c.finished_at, matches.c.id).limit(BATCH)


def per_day_statement(start: date, end: date) -> Select[Any]:
    """Matches finished per day and opponent kind: plain columns, no JSON to read."""
    return (select(figure_sums.c.day, figure_sums.c.against_bot, func.sum(figure_sums.c.finished))
            .where(figure_sums.c.span == "day", figure_sums.c.day >= start, figure_sums.c.day <= end)
            .group_by(figure_sums.c.day, figure_sums.c.against_bot))


def sums_statement(start: date, end: date) -> Select[Any]:
    """The rows that add up to the days from `start` to `end`: a month's row for
    each whole month inside them, a day's row for each day left at either end."""
    cols = (figure_sums.c.variant, figure_sums.c.finished, figure_sums.c.white_wins, figure_sums.c.black_wins,
            figure_sums.c.counts)
    first_month = start if start.day == 1 else _month(start.replace(day=28) + timedelta(days=4))
    after_end = end + timedelta(days=1)
    end_month = _month(after_end)  # months start before this one
    if first_month >= end_month:
        return select(*cols).where(figure_sums.c.span == "day", figure_sums.c.day >= start,
                                   figure_sums.c.day <= end)
    return select(*cols).where(or_(
        and_(figure_sums.c.span == "month", figure_sums.c.day >= first_month, figure_sums.c.day < end_month),
        and_(figure_sums.c.span == "day", figure_sums.c.day >= start, figure_sums.c.day < first_month),
        and_(figure_sums.c.span == "day", figure_sums.c.day >= end_month, figure_sums.c.day <= end)))


def playing_statement() -> Select[Any]:
    return (select(matches.c.status, func.count()).where(matches.c.status.in_(("active", "waiting")))
            .group_by(matches.c.status))


async def _summarise(conn: AsyncConnection, since: datetime | None) -> list[Summary]:
    rows = (await conn.execute(pending_statement(since))).all()
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


def _month(day: date) -> date:
    return day.replace(day=1)


async def add_to_sums(conn: AsyncConnection, summaries: list[Summary]) -> None:
    """Add `summaries` to the rows of their days and months (the caller holds
    the mark's lock)."""
    groups: dict[tuple[str, date, str, bool], list[Summary]] = defaultdict(list)
    for s in summaries:
        groups[("day", s.day, s.variant, s.against_bot)].append(s)
        groups[("month", _month(s.day), s.variant, s.against_bot)].append(s)
    for (span, day, variant, bot), group in groups.items():
        key = (figure_sums.c.span == span, figure_sums.c.day == day, figure_sums.c.variant == variant,
               figure_sums.c.against_bot == bot)
        row = (await conn.execute(select(figure_sums).where(*key))).first()
        finished = row.finished if row else 0
        white, black = (row.white_wins, row.black_wins) if row else (0, 0)
        counts: dict[str, int] = dict(row.counts) if row else {}
        for s in group:
            finished += 1
            white += s.winner == "white"
            black += s.winner == "black"
            _add(counts, {f"reason:{s.reason}": 1, f"rounds:{bucket(s.rounds, ROUND_BOUNDS)}": 1,
                          f"moves:{bucket(s.actions, MOVE_BOUNDS)}": 1})
            _add(counts, {f"think:{k}": n for k, n in s.think.items()})
        values = {"finished": finished, "white_wins": white, "black_wins": black, "counts": counts}
        if row is None:
            await conn.execute(figure_sums.insert().values(span=span, day=day, variant=variant, against_bot=bot,
                                                           **values))
        else:
            await conn.execute(figure_sums.update().where(*key).values(**values))


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
            await add_to_sums(conn, found)
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
        await conn.execute(delete(figure_sums))
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
        days = (await conn.execute(per_day_statement(start, end))).all()
        rows = (await conn.execute(sums_statement(start, end))).all()
        now: dict[str, int] = dict((await conn.execute(playing_statement())).all())
    per_day: dict[date, dict[str, int]] = {}
    day = start
    while day <= end:
        per_day[day] = {"finished": 0, "against_bots": 0}
        day += timedelta(days=1)
    bot_matches = 0
    for day, against_bot, finished in days:
        per_day[day]["finished"] += finished
        if against_bot:
            per_day[day]["against_bots"] += finished
            bot_matches += finished
    variants = {v: {"finished": 0, "white": 0, "black": 0, "draw": 0} for v in VARIANTS}
    counts: dict[str, int] = {}
    for r in rows:
        v = variants.setdefault(r.variant, {"finished": 0, "white": 0, "black": 0, "draw": 0})
        v["finished"] += r.finished
        v["white"] += r.white_wins
        v["black"] += r.black_wins
        v["draw"] += r.finished - r.white_wins - r.black_wins - r.counts.get("reason:aborted", 0)
        _add(counts, r.counts)
    split: dict[str, dict[str, int]] = {"reason": {}, "rounds": {}, "moves": {}, "think": {}}
    for key, n in counts.items():
        kind, _, value = key.partition(":")
        split[kind][value] = n
    total = sum(v["finished"] for v in variants.values())
    played = {c: sum(v[c] for v in variants.values()) for c in ("white", "black", "draw")}
    decided = sum(played.values())

    def rate(n: int, of: int) -> float | None:
        return round(n / of, 4) if of else None

    think_median = median_of(split["think"], lambda k: 2 ** ((k + 0.5) / 2))
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
        "reasons": {r: split["reason"].get(r, 0) for r in REASONS},
        "rounds": {"median": median_of(split["rounds"], lambda k: ROUND_BOUNDS[k]),
                   "histogram": _bars(split["rounds"], ROUND_BOUNDS)},
        "actions": {"median": median_of(split["moves"], lambda k: MOVE_BOUNDS[k]),
                    "histogram": _bars(split["moves"], MOVE_BOUNDS)},
        "median_seconds_per_action": round(think_median / 1000, 3) if think_median is not None else None,
        "against_bots": {"matches": bot_matches, "share": rate(bot_matches, total)},
    }
