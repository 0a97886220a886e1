"""Seeding for bench/admin.py: real template matches played through the match
service, then copied in bulk (COPY through asyncpg) into as many matches as
asked, each with its seats, its whole log and its figures' summary.

A template is a whole match as the server stores it: played by the service
on the bench's own database (random legal actions, a think time drawn for
each, then an ending: resign, an admin's adjudication or abort, a draw by
agreement, or the rules' own end). A copy takes a template's rows and gives
them a new id, new player names (in the log's public states too), and
timestamps moved to its own creation time.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg

from app.admin import figures
from app.bots import random_bot
from app.config import Settings
from app.db import make_engine
from app.matches import MatchService
from app.rules import VARIANTS

# The length of a template's log is drawn from these shares: most matches on a
# live server are short (abandoned, aborted, resigned early), some are long.
LENGTHS = ((0.40, 3, 8), (0.45, 10, 40), (0.15, 50, 120))
BOT_SHARE = 0.3
NAMES = 5000


@dataclass
class Template:
    match: dict[str, Any]
    seats: list[dict[str, Any]]
    log: list[dict[str, Any]]
    summary: figures.Summary
    names: dict[str, str] = field(default_factory=dict)  # colour -> the name used in the template


def _length(rng: random.Random) -> int:
    """A log length drawn from LENGTHS."""
    share = rng.random()
    for part, low, high in LENGTHS:
        if share < part:
            return rng.randint(low, high)
        share -= part
    return rng.randint(LENGTHS[-1][1], LENGTHS[-1][2])


async def _play(service: MatchService, match_id: str, humans: list[str], target: int, rng: random.Random,
                now: list[float], quiet: bool = False) -> None:
    """Random legal actions by the human seats until the log reaches `target`
    entries; `quiet` players mostly decline their powers, so the match lasts."""
    while True:
        rec = await service.keeper.get(match_id)
        if rec.status == "finished" or rec.version >= target:
            return
        colour = rec.seat_to_move()
        if colour not in humans:  # the bot's seat: played here as the bot runner would
            await service.mover.act(match_id, colour, random_bot(rec.state, rng), rec.version)
            continue
        legal = await service.reads.legal(match_id, colour)
        if legal["setup"]:
            row = list(legal["setup"])
            rng.shuffle(row)
            action = {"type": "setup", "backrow": row}
        else:
            calm = [a for a in legal["actions"] if a["type"] != "remove" or a["power"] is None]
            action = rng.choice(calm if quiet and calm and rng.random() < 0.9 else legal["actions"])
        now[0] += rng.lognormvariate(1.5, 1.0)  # a few seconds' thought, a long tail
        await service.mover.act(match_id, colour, action, legal["version"])


async def _end(service: MatchService, match_id: str, humans: list[str], rng: random.Random) -> None:
    rec = await service.keeper.get(match_id)
    if rec.status == "finished":
        return
    roll = rng.random()
    if rec.status == "waiting" or roll < 0.12:
        await service.finisher.moderate(match_id, "abort", "bench: called off")
    elif roll < 0.22:
        await service.finisher.moderate(match_id, rng.choice(("white", "black", "draw")), "bench: settled")
    elif roll < 0.37 and len(humans) == 2:
        await service.finisher.draw(match_id, "white", True)
        await service.finisher.draw(match_id, "black", True)
    else:
        await service.finisher.resign(match_id, rng.choice(humans))


async def play_templates(url: str, count: int, long_actions: int, rng: random.Random) -> list[Template]:
    """`count` templates, then one human match of at least `long_actions` log
    entries (the replay measure's), last."""
    settings = Settings(_env_file=None, database_url=url, bot_delay_seconds=0.0,  # type: ignore[call-arg]
                        sweep_seconds=3600.0)
    engine = make_engine(url, 4, 0)
    service = MatchService(engine, settings)
    now = [datetime(2025, 1, 1, tzinfo=UTC).timestamp()]
    service.clock = lambda: now[0]
    ids = []
    try:
        for i in range(count):
            bot = rng.random() < BOT_SHARE
            options = {"variant": rng.choice(VARIANTS)}
            made = await service.lobby.create(options, "white", "bot:random" if bot else "human", f"TplW{i:04d}")
            humans = ["white"]
            if not bot and rng.random() > 0.03:  # a few are never joined
                await service.lobby.join(made.match["id"], f"TplB{i:04d}")
                humans.append("black")
            if len(humans) == 2 or bot:
                await _play(service, made.match["id"], humans, _length(rng), rng, now)
            now[0] += rng.uniform(1, 30)
            await _end(service, made.match["id"], humans, rng)
            ids.append(made.match["id"])
            now[0] += 60
        for attempt in range(20):  # a random match may end by the rules before it is long enough
            options = {"variant": "standard", "no_progress_rounds": 0}
            made = await service.lobby.create(options, "white", "human", f"TplW{count + attempt:04d}")
            await service.lobby.join(made.match["id"], f"TplB{count + attempt:04d}")
            await _play(service, made.match["id"], ["white", "black"], long_actions, rng, now, quiet=True)
            reached = await service.keeper.get(made.match["id"])
            if reached.version >= long_actions:
                await _end(service, made.match["id"], ["white", "black"], random.Random(1))
                ids.append(made.match["id"])
                break
        else:
            raise RuntimeError(f"no random match reached {long_actions} log entries")
    finally:
        await service.close()
        await engine.dispose()
    return await read_templates(url, ids)


async def read_templates(url: str, ids: list[str]) -> list[Template]:
    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        out = []
        for match_id in ids:
            match = dict(await conn.fetchrow("SELECT * FROM matches WHERE id = $1", match_id))
            seats = [dict(r) for r in await conn.fetch("SELECT * FROM seats WHERE match_id = $1", match_id)]
            log = [dict(r) for r in await conn.fetch(
                "SELECT * FROM actions WHERE match_id = $1 ORDER BY version", match_id)]
            moves, think = figures.moves_and_think(
                (e["player"], _json_type(e["action"]), e["automatic"], e["at"]) for e in log)
            result = _loads(match["result"]) or {}
            summary = figures.Summary(
                match_id, match["finished_at"], match["variant"], any(s["bot"] for s in seats),
                result.get("winner"), result.get("reason", "aborted"), _loads(match["state"])["round"], moves, think)
            out.append(Template(match, seats, log, summary, {s["colour"]: s["name"] for s in seats}))
        await conn.execute("TRUNCATE actions, draw_offers, seats, matches CASCADE")
        return out
    finally:
        await conn.close()


def _loads(text: Any) -> Any:
    import json

    return json.loads(text) if isinstance(text, str) else text


def _json_type(text: str) -> str:
    return str(_loads(text)["type"])


MATCH_COLUMNS = ("id", "status", "variant", "options", "seed", "seed_commitment", "custom", "chaos", "state",
                 "version", "white_ms", "black_ms", "clock_running", "clock_since_ms", "due_at_ms", "draw_offer",
                 "result", "created_at", "updated_at", "finished_at")
SEAT_COLUMNS = ("match_id", "colour", "name", "token_hash", "bot", "connected", "last_seen", "joined_at")
ACTION_COLUMNS = ("match_id", "version", "player", "action", "automatic", "at", "client_id", "public")
SUMMARY_COLUMNS = ("match_id", "finished_at", "day", "variant", "against_bot", "winner", "reason", "rounds",
                   "actions", "think")


@dataclass
class Loaded:
    matches: int = 0
    actions: int = 0
    summaries: list[figures.Summary] = field(default_factory=list)
    long_id: str = ""
    names: Counter[str] = field(default_factory=Counter)


def _copy_of(t: Template, new_id: str, created: datetime, names: dict[str, str]) -> tuple[
        tuple[Any, ...], list[tuple[Any, ...]], list[tuple[Any, ...]], figures.Summary]:
    shift = created - t.match["created_at"]

    def moved(at: datetime | None) -> datetime | None:
        return None if at is None else at + shift

    m = t.match
    match_row = tuple(
        new_id if c == "id" else moved(m[c]) if c in ("created_at", "updated_at", "finished_at") else m[c]
        for c in MATCH_COLUMNS)
    seat_rows = [(new_id, s["colour"], names.get(s["colour"], s["name"]), s["token_hash"], s["bot"], False,
                  moved(s["last_seen"]), moved(s["joined_at"])) for s in t.seats]
    swaps = [(m["id"], new_id)] + [(f'"{t.names[c]}"', f'"{names[c]}"') for c in names if c in t.names]
    log_rows = []
    for e in t.log:
        public = e["public"]
        for old, new in swaps:
            public = public.replace(old, new)
        log_rows.append((new_id, e["version"], e["player"], e["action"], e["automatic"], moved(e["at"]),
                         None, public))
    s = t.summary
    summary = figures.Summary(new_id, s.finished_at + shift, s.variant, s.against_bot, s.winner, s.reason,
                              s.rounds, s.actions, s.think)
    return match_row, seat_rows, log_rows, summary


async def bulk_load(url: str, templates: list[Template], count: int, days: int, rng: random.Random,
                    end: datetime, chunk: int = 10_000, with_summaries: bool = True,
                    prefix: str = "bench") -> Loaded:
    """`count` finished matches copied from `templates` (the last one, the long
    match, once: the middle one, unless `prefix` is not "bench"), created evenly
    over the `days` before `end`, with ids `<prefix><number>`."""
    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    loaded = Loaded()
    players = [f"player{k:04d}" for k in range(NAMES)]
    ordinary, long_match = templates[:-1], templates[-1]
    start = end - timedelta(days=days)
    step = (end - start) / max(count, 1)
    try:
        for first in range(0, count, chunk):
            match_rows: list[tuple[Any, ...]] = []
            seat_rows: list[tuple[Any, ...]] = []
            log_rows: list[tuple[Any, ...]] = []
            summaries = []
            for i in range(first, min(first + chunk, count)):
                t = long_match if i == count // 2 and prefix == "bench" else rng.choice(ordinary)
                new_id = f"{prefix}{i:07d}"
                names = {c: rng.choice(players) for c in t.names if not any(
                    s["bot"] for s in t.seats if s["colour"] == c)}
                loaded.names.update(names.values())
                row, seats_of, log_of, summary = _copy_of(t, new_id, start + step * i, names)
                match_rows.append(row)
                seat_rows += seats_of
                log_rows += log_of
                summaries.append(summary)
                if t is long_match:
                    loaded.long_id = new_id
            await conn.copy_records_to_table("matches", records=match_rows, columns=MATCH_COLUMNS)
            await conn.copy_records_to_table("seats", records=seat_rows, columns=SEAT_COLUMNS)
            await conn.copy_records_to_table("actions", records=log_rows, columns=ACTION_COLUMNS)
            if with_summaries:
                await conn.copy_records_to_table("match_summaries", columns=SUMMARY_COLUMNS, records=[
                    tuple(s.row()[c] if c != "think" else _dumps(s.think) for c in SUMMARY_COLUMNS)
                    for s in summaries])
                loaded.summaries += summaries
            loaded.matches += len(match_rows)
            loaded.actions += len(log_rows)
            print(f"  loaded {loaded.matches:,} matches, {loaded.actions:,} log rows", flush=True)
    finally:
        await conn.close()
    return loaded


def _dumps(value: Any) -> str:
    import json

    return json.dumps(value)
