"""Each player's choices: which kinds reach them by which channel.

Only a change from the defaults (kinds.DEFAULTS) is stored; setting a choice
back to its default deletes its row.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sqlalchemy import and_, delete, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.db.notify_models import notification_preferences as prefs
from app.kernel.errors import BadRequest

from .kinds import CHANNELS, DEFAULTS, KINDS, MAILED

Choices = dict[str, dict[str, bool]]  # kind → channel → on


async def chosen(conn: AsyncConnection, account_ids: Iterable[int]) -> dict[tuple[int, str, str], bool]:
    """{(account, kind, channel): on} of what these accounts changed."""
    ids = sorted(set(account_ids))
    if not ids:
        return {}
    rows = (await conn.execute(select(prefs).where(prefs.c.account_id.in_(ids)))).all()
    return {(r.account_id, r.kind, r.channel): r.enabled for r in rows}


def wants(changed: Mapping[tuple[int, str, str], bool], account_id: int, kind: str, channel: str) -> bool:
    if channel == "email" and kind not in MAILED:
        return False  # never a mail for it, whatever an older choice kept
    return changed.get((account_id, kind, channel), DEFAULTS.get((kind, channel), False))


async def read(engine: AsyncEngine, account_id: int) -> Choices:
    """Every kind and channel, as the account has it now."""
    async with engine.connect() as conn:
        changed = await chosen(conn, [account_id])
    return {kind: {channel: wants(changed, account_id, kind, channel) for channel in CHANNELS} for kind in KINDS}


def check(body: object) -> dict[tuple[str, str], bool]:
    """{(kind, channel): on} from a body `{kind: {channel: bool}}`; BadRequest naming what is wrong."""
    if not isinstance(body, dict):
        raise BadRequest("the body is an object of kinds, each an object of channels: "
                         '{"your_turn": {"push": true}}', field="body")
    found: dict[tuple[str, str], bool] = {}
    for kind, channels in body.items():
        if kind not in KINDS:
            raise BadRequest(f"no kind {str(kind)[:40]!r}: the kinds are {', '.join(KINDS)}", field=str(kind)[:40])
        if not isinstance(channels, dict):
            raise BadRequest(f"{kind} is an object of channels, each true or false", field=kind)
        for channel, on in channels.items():
            if channel not in CHANNELS:
                raise BadRequest(f"no channel {str(channel)[:40]!r}: the channels are {', '.join(CHANNELS)}",
                                 field=f"{kind}.{str(channel)[:40]}")
            if not isinstance(on, bool):
                raise BadRequest(f"{kind}.{channel} is true or false", field=f"{kind}.{channel}")
            if channel == "email" and kind not in MAILED:
                continue  # no mail is written for it: taken, as documented, and nothing kept
            found[(kind, channel)] = on
    return found


async def change(engine: AsyncEngine, account_id: int, changes: Mapping[tuple[str, str], bool]) -> Choices:
    """Store these choices (the others stay as they are); answers them all."""
    async with engine.begin() as conn:
        for (kind, channel), on in changes.items():
            await conn.execute(delete(prefs).where(and_(prefs.c.account_id == account_id, prefs.c.kind == kind,
                                                        prefs.c.channel == channel)))
            if on != DEFAULTS[(kind, channel)]:
                await conn.execute(prefs.insert().values(account_id=account_id, kind=kind, channel=channel,
                                                         enabled=on))
    return await read(engine, account_id)
