"""The account page's grid of notifications, as the template draws it: for each
kind of notice, which channels reach the player (the bell's inbox, web push,
email), read from the notifications' preferences (app/notify/preferences.py),
the one truth that `PUT /api/v1/account/notification-preferences` and the email
API's switches also write. Email is offered only for the kinds a mail is
written for, and only once the account has a confirmed address on a server
that sends mail; the column says why when it cannot be changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.notify import preferences
from app.notify.kinds import (
    CHALLENGE,
    CHALLENGE_ACCEPTED,
    CHALLENGE_DECLINED,
    CHANNELS,
    CLOCK_ALARM,
    KINDS,
    MAILED,
    MATCH_ENDED,
    REMATCH_OFFERED,
    REPORT_HANDLED,
    TOURNAMENT_STARTING,
    YOUR_TURN,
)

# Each kind as the grid's row says it.
KIND_WORDS = {
    YOUR_TURN: "Your turn in a correspondence match",
    CLOCK_ALARM: "Your correspondence clock is running low",
    CHALLENGE: "A challenge to you",
    CHALLENGE_ACCEPTED: "Your challenge accepted",
    CHALLENGE_DECLINED: "Your challenge declined",
    MATCH_ENDED: "A match of yours ended",
    REMATCH_OFFERED: "A rematch offered to you",
    TOURNAMENT_STARTING: "An arena you joined has begun",
    REPORT_HANDLED: "A chat line you reported was looked at",
}
CHANNEL_WORDS = {"inbox": "Bell", "push": "Push", "email": "Email"}  # the columns' heads
CHANNEL_PHRASES = {"inbox": "in the bell", "push": "by push", "email": "by email"}


@dataclass(frozen=True, slots=True)
class Cell:
    kind: str
    channel: str
    on: bool
    usable: bool  # False: shown, but disabled (email with no confirmed address)
    offered: bool  # False: this channel never carries this kind (no mail is written for it)

    @property
    def name(self) -> str:
        return f"{self.kind}.{self.channel}"

    @property
    def label(self) -> str:
        return f"{KIND_WORDS[self.kind]}: {CHANNEL_PHRASES[self.channel]}"


def email_blocked(email: dict[str, Any]) -> str | None:
    """Why the email column cannot be changed now, or None when it can."""
    if not email["enabled"]:
        return "This server sends no email (its operator has not set SMTP_URL)."
    if not email["address"]:
        return "Give an email address in the Email section and confirm it to choose what is mailed."
    if email["bounced"]:
        return "Your address's mail server refused it: give it again in the Email section and confirm it."
    if not email["verified"]:
        return "Confirm your address first: follow the link mailed to it."
    return None


def offered(kind: str, channel: str) -> bool:
    return channel != "email" or kind in MAILED


async def grid(engine: AsyncEngine, account_id: int, email: dict[str, Any]) -> dict[str, Any]:
    """What the template draws: a row per kind, a cell per channel, and why email is off."""
    choices = await preferences.read(engine, account_id)
    blocked = email_blocked(email)
    rows = [(kind, KIND_WORDS[kind], [Cell(kind, channel, choices[kind][channel],
                                           channel != "email" or blocked is None, offered(kind, channel))
                                      for channel in CHANNELS]) for kind in KINDS]
    return {"rows": rows, "channels": [(c, CHANNEL_WORDS[c]) for c in CHANNELS], "email_blocked": blocked}


def editable(kind: str, channel: str, email_usable: bool) -> bool:
    """Whether a form may change this cell: a kind and channel the grid shows, and not disabled."""
    return kind in KINDS and channel in CHANNELS and offered(kind, channel) and (channel != "email" or email_usable)
