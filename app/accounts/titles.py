"""A player's title, as the API and the pages show it beside the name:
"BOT" marks a bot account (bots.py), which a program plays, as `computer` marks
a computer level's seat. Kept apart, with no import, so the match records can
read it without the accounts' service."""

from __future__ import annotations

from datetime import datetime

BOT = "BOT"


def title_of(bot_at: datetime | None) -> str | None:
    """The title of an account whose `bot_at` is this: "BOT", or none."""
    return BOT if bot_at is not None else None
