"""What a chat line may say, and how often (the flood check): pure checks, no I/O.

A line is 1-140 characters of text (shown as text, never markup); a guest (a
seat or a spectator with no account) picks one of the stock phrases; the
fifth line in 10 seconds, or a repeat of either of one's last two lines, is
refused with its reason (as lichess's flood filter does, in our own words).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from app.kernel import text as stored_text
from app.kernel.ids import shows

from .errors import Flooded, GuestPhrasesOnly, Repeated, TooLong

ROOMS = ("players", "spectators")
PHRASES = ("Hello", "Good luck", "Have fun", "Thanks", "Good game", "Well played")
MAX_LENGTH = 140
FLOOD_LINES = 4  # lines one writer may send within FLOOD_SECONDS; the next is refused
FLOOD_SECONDS = 10.0
REPEAT_LOOKBACK = 2  # a line equal to one of one's last two is refused
# The embeddings and overrides (U+202A-202E) and isolates (U+2066-2069): a
# line holding one reorders what follows it on the reader's screen.
OVERRIDES = re.compile("[\u202a-\u202e\u2066-\u2069]")


@dataclass(frozen=True, slots=True)
class Earlier:
    """One of the writer's recent lines, newest first."""

    text: str
    at: datetime


def checked(text: object, guest: bool) -> str:
    """The line to store (trimmed), or the refusal naming what is wrong."""
    if not isinstance(text, str):
        raise TooLong("a chat line is a string of 1 to 140 characters")
    line = " ".join(stored_text.check("text", text, line_breaks=False).split())
    if (override := OVERRIDES.search(line)) is not None:
        raise TooLong(f"a chat line holds no direction override (\\u{ord(override.group()):04x} at character "
                      f"{override.start() + 1}): it would show the rest of the line, and the next, reordered")
    if line and not any(shows(c) for c in line):
        raise TooLong("a chat line shows something: this one is made only of invisible characters")
    if not line:
        raise TooLong("a chat line says something: 1 to 140 characters")
    if len(line) > MAX_LENGTH:
        raise TooLong(f"a chat line is at most {MAX_LENGTH} characters; this one has {len(line)}")
    if guest and line not in PHRASES:
        raise GuestPhrasesOnly("guests write only the stock phrases: " + ", ".join(PHRASES)
                               + "; sign in to write your own words", phrases=list(PHRASES))
    return line


def not_flooding(line: str, earlier: list[Earlier], now: datetime, window: float = FLOOD_SECONDS) -> None:
    """Refuse the fifth line within `window` seconds, or a repeat of one of the last two."""
    if any(e.text.casefold() == line.casefold() for e in earlier[:REPEAT_LOOKBACK]):
        raise Repeated("you said that just now: say something else")
    recent = [e for e in earlier[:FLOOD_LINES] if now - e.at < timedelta(seconds=window)]
    if len(recent) >= FLOOD_LINES:
        wait = window - (now - recent[-1].at).total_seconds()
        seconds = max(1, int(wait + 0.999))
        raise Flooded(f"at most {FLOOD_LINES} lines in {window:g} seconds: wait {seconds} s",
                      retry_after=seconds)
