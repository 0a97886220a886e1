"""What each kind of mail says. Links are the site's public pages: a match's
page shows the match to anyone, so the link gives nothing away."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .compose import Words


def verify(name: str, link: str, hours: float) -> Words:
    return Words(f"Confirm your email address for Magery Online ({name})",
                 (f"Someone (we hope you) gave this address to the Magery Online account {name}.",
                  f"Open the link within {hours:g} hours to confirm it; until then nothing else is sent here.",
                  "If it was not you, do nothing: no other mail will come."),
                 (("Confirm this address", link),))


def turn(site: str, payload: Mapping[str, Any]) -> Words:
    opponent = str(payload.get("opponent") or "your opponent")
    return Words(f"Your turn against {opponent}", (f"{opponent} has moved: it is your turn.",),
                 (("Open the match", f"{site}/matches/{payload['match_id']}"),))


def alarm(site: str, payload: Mapping[str, Any]) -> Words:
    opponent = str(payload.get("opponent") or "your opponent")
    hours = float(payload.get("hours_left") or 0)
    left = f"about {hours:.0f} hours" if hours >= 2 else "little time"
    return Words(f"Your time is running out against {opponent}",
                 (f"You have {left} left to move against {opponent}, or you lose on time.",),
                 (("Open the match", f"{site}/matches/{payload['match_id']}"),))


def challenge(site: str, payload: Mapping[str, Any]) -> Words:
    who = str(payload.get("challenger") or "A player")
    return Words(f"{who} challenges you", (f"{who} challenges you to a match of Magery.",),
                 (("See the challenge", f"{site}/"),))


def digest(site: str, awaiting: Sequence[tuple[str, str]]) -> Words:
    """`awaiting`: (match id, opponent) of each correspondence match awaiting your move."""
    count = len(awaiting)
    noun = "match awaits" if count == 1 else "matches await"
    return Words(f"{count} correspondence {noun} your move",
                 (f"{count} of your correspondence {noun} your move:",),
                 tuple((f"Against {opponent}", f"{site}/matches/{match_id}") for match_id, opponent in awaiting))


WHY = {
    "turn": "You asked for a mail when it is your turn in a correspondence match.",
    "alarm": "You asked for a mail when it is your turn in a correspondence match.",
    "challenge": "You asked for a mail when someone challenges you.",
    "digest": "You asked for a daily mail of the correspondence matches awaiting your move.",
}
