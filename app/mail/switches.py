"""Which mails a player wants: one truth with the notifications' preferences.

The notifications' preferences (app/notify/preferences.py, `PUT
/api/v1/account/notification-preferences`) hold every kind by every channel,
email among them; the email API's switches `turn` and `challenge` are the
same choices by other names (`your_turn` and `challenge` by email), read and
written there. The daily digest has no notice of its own: its switch and its
hour stay with the address (mail_addresses). The address's own `turn` and
`challenge` columns are no longer read or written."""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy.ext.asyncio import AsyncEngine

from app.notify import preferences
from app.notify.kinds import CHALLENGE, CLOCK_ALARM, YOUR_TURN

EMAIL = "email"
# The email API's switch → the notification kind whose "email" choice it is.
SHARED = {"turn": YOUR_TURN, "challenge": CHALLENGE}
# `turn` covers the clock's alarm too (an alarm is about one's turn): both set together.
ALSO = {"turn": (CLOCK_ALARM,)}
# A mail's kind → the notification kind whose "email" choice decides whether it is sent:
# each its own, so the account page's grid (a row per kind) says what is mailed.
DECIDES = {"turn": YOUR_TURN, "alarm": CLOCK_ALARM, "challenge": CHALLENGE}


async def read(engine: AsyncEngine, account_id: int) -> dict[str, bool]:
    """{"turn": on, "challenge": on} as the notifications' preferences have them."""
    async with engine.connect() as conn:
        changed = await preferences.chosen(conn, [account_id])
    return {switch: preferences.wants(changed, account_id, kind, EMAIL) for switch, kind in SHARED.items()}


async def wanted(engine: AsyncEngine, account_id: int, mail_kind: str) -> bool:
    """Whether the player takes this kind of mail (of DECIDES) by email."""
    async with engine.connect() as conn:
        changed = await preferences.chosen(conn, [account_id])
    return preferences.wants(changed, account_id, DECIDES[mail_kind], EMAIL)


async def write(engine: AsyncEngine, account_id: int, changes: Mapping[str, bool]) -> None:
    """Set these switches (of SHARED) in the notifications' preferences."""
    if changes:
        await preferences.change(engine, account_id, {
            (kind, EMAIL): on for s, on in changes.items() for kind in (SHARED[s], *ALSO.get(s, ()))})
