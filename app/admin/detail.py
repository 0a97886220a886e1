"""One match as the admin sees it: players, options, the timeline, the public
state at any version (the replay viewer's frames), the chat (both
rooms, hidden lines marked), and the export, which keeps the chat with the match.

The seed and the chaos deck's order are secret while the match runs (R20):
they appear here only once it is over.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.chat.service import admin_view
from app.db.account_models import accounts
from app.db.chat_models import chat_lines
from app.db.models import actions, matches, seats
from app.kernel.errors import NotFound
from app.kernel.ids import is_match_id
from app.matches.replay import initial_state
from app.matches.telling import told
from app.rules import State, public_view
from app.rules.mages import MAGES, PRIVATE_BLACK, PRIVATE_WHITE

EXPORT_FORMAT = "magery-match/1"


async def _match_row(conn: AsyncConnection, match_id: str) -> Any:
    if not is_match_id(match_id):
        raise NotFound(f"no match {match_id!r}")
    cols = [c for c in matches.c if c.name not in ("state", "rematch_token")]  # a token hash: never needed here
    row = (await conn.execute(select(*cols).where(matches.c.id == match_id))).first()
    if row is None:
        raise NotFound(f"no match {match_id!r}")
    return row


async def _players(conn: AsyncConnection, match_id: str) -> dict[str, Any]:
    out: dict[str, Any] = {"white": None, "black": None}
    rows = await conn.execute(select(seats, accounts.c.name.label("account"))
                              .outerjoin(accounts, accounts.c.id == seats.c.account_id)
                              .where(seats.c.match_id == match_id))
    for s in rows:  # `account`: the account that played the seat (None: a guest)
        out[s.colour] = {"name": s.name, "bot": s.bot, "account": s.account, "joined_at": s.joined_at.isoformat(),
                         "last_seen": s.last_seen.isoformat(), "connected": s.connected}
    return out


async def _timeline(conn: AsyncConnection, match_id: str) -> list[dict[str, Any]]:
    rows = list(await conn.execute(
        select(actions.c.version, actions.c.player, actions.c.action, actions.c.automatic, actions.c.at,
               actions.c.public)
        .where(actions.c.match_id == match_id).order_by(actions.c.version)))
    # Each entry in the engine's words, told from the state the row before it left.
    return [{"version": r.version, "player": r.player, "action": r.action, "automatic": r.automatic,
             "at": r.at.isoformat(), "words": words} for r, words in zip(rows, told(None, rows), strict=True)]


async def _chat(conn: AsyncConnection, match_id: str) -> list[dict[str, Any]]:
    """Both rooms' lines, oldest first, hidden ones marked: never who wrote them
    beyond the name shown (no address, no account id)."""
    rows = await conn.execute(select(chat_lines).where(chat_lines.c.match_id == match_id).order_by(chat_lines.c.id))
    return [{k: v for k, v in admin_view(r).items() if k != "match_id"} for r in rows]


def chaos_deck(first: State) -> dict[str, Any]:
    """How the chaos cards were dealt at the start, and the order of the rest."""
    floors = sorted((floor, MAGES[m]) for m, floor in enumerate(first.seat) if 13 <= floor <= 16)
    return {
        "floors": [{"floor": f, "mage": name} for f, name in floors],
        "private": {"white": [MAGES[m] for m, s in enumerate(first.seat) if s == PRIVATE_WHITE],
                    "black": [MAGES[m] for m, s in enumerate(first.seat) if s == PRIVATE_BLACK]},
        "deck": [MAGES[m] for m in first.deck],
    }


def _secrets(row: Any) -> dict[str, Any]:
    if row.status != "finished":
        return {"seed": None, "chaos_deck": None}
    first = initial_state(row.seed, row.options, row.chaos, row.custom)
    return {"seed": row.seed, "chaos_deck": chaos_deck(first)}


async def detail(engine: AsyncEngine, match_id: str) -> dict[str, Any]:
    """`GET /admin/api/matches/{id}`: the match with its timeline."""
    async with engine.connect() as conn:
        row = await _match_row(conn, match_id)
        players = await _players(conn, match_id)
        timeline = await _timeline(conn, match_id)
        chat = await _chat(conn, match_id)
    return {
        "id": row.id, "status": row.status, "variant": row.variant, "options": row.options,
        "time_control": row.options.get("time_control"), "custom": row.custom, "players": players,
        "created_at": row.created_at.isoformat(),
        "finished_at": row.finished_at.isoformat() if row.finished_at else None,
        "version": row.version, "result": row.result, "seed_commitment": row.seed_commitment,
        **_secrets(row), "timeline": timeline, "chat": chat,
    }


async def at_version(engine: AsyncEngine, match_id: str, version: int) -> dict[str, Any]:
    """The public state as it stood at `version`, as its update carried it (the
    log row keeps it); version 0 is the engine's starting position."""
    async with engine.connect() as conn:
        row = await _match_row(conn, match_id)
        if not 0 <= version <= row.version:
            raise NotFound(f"match {match_id} has versions 0 to {row.version}, not {version}")
        if version == 0:
            first = initial_state(row.seed, row.options, row.chaos, row.custom)
            state = {"id": row.id, "version": 0, "status": "waiting", **public_view(first),
                     "options": row.options, "players": await _players(conn, match_id), "clock": None}
            return {"version": 0, "last": row.version, "entry": None, "match": state}
        entry = (await conn.execute(
            select(actions.c.player, actions.c.action, actions.c.automatic, actions.c.at, actions.c.public)
            .where(actions.c.match_id == match_id, actions.c.version == version))).one()
    return {"version": version, "last": row.version,
            "entry": {"player": entry.player, "action": entry.action, "automatic": entry.automatic,
                      "at": entry.at.isoformat()},
            "match": entry.public}


async def export(engine: AsyncEngine, match_id: str) -> dict[str, Any]:
    """The match as one JSON document: options, the seed once over, the full log.
    `app.matches.replay.replay(seed, options, chaos, custom, log)` rebuilds its state."""
    async with engine.connect() as conn:
        row = await _match_row(conn, match_id)
        players = await _players(conn, match_id)
        log = await _timeline(conn, match_id)
        chat = await _chat(conn, match_id)
    over = row.status == "finished"
    return {
        "format": EXPORT_FORMAT, "id": row.id, "status": row.status, "options": row.options,
        "custom": row.custom, "chaos": row.chaos if over or row.custom else None,
        "seed": row.seed if over else None, "seed_commitment": row.seed_commitment,
        "players": {c: ({"name": p["name"], "bot": p["bot"]} if p else None) for c, p in players.items()},
        "created_at": row.created_at.isoformat(),
        "finished_at": row.finished_at.isoformat() if row.finished_at else None,
        "version": row.version, "result": row.result, "log": log, "chat": chat,
    }
