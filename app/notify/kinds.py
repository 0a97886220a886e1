"""What a player is told of, by which channel, and in which words.

The kinds are fixed; each has a default for every channel. A player's changes
are stored (app/notify/preferences.py), never the defaults themselves, so a
default changed here reaches everyone who never chose. Email is off by default:
nothing is mailed to anyone who has not asked for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

YOUR_TURN = "your_turn"  # a correspondence match awaits your move
CLOCK_ALARM = "clock_alarm"  # 80% of a correspondence move's time used: move or lose on time
CHALLENGE = "challenge"  # a challenge to you
CHALLENGE_ACCEPTED = "challenge_accepted"  # your challenge, accepted: its match is on
CHALLENGE_DECLINED = "challenge_declined"
MATCH_ENDED = "match_ended"
REMATCH_OFFERED = "rematch_offered"
TOURNAMENT_STARTING = "tournament_starting"  # an arena you joined has begun
REPORT_HANDLED = "report_handled"  # a chat line you reported was hidden or dismissed

KINDS = (YOUR_TURN, CLOCK_ALARM, CHALLENGE, CHALLENGE_ACCEPTED, CHALLENGE_DECLINED, MATCH_ENDED, REMATCH_OFFERED,
         TOURNAMENT_STARTING, REPORT_HANDLED)
INBOX = "inbox"
# The kinds a mail is written for (app/mail/notices.py writes each): the rest would
# only ever queue a mail that cannot be written, so email is refused for them.
MAILED = (YOUR_TURN, CLOCK_ALARM, CHALLENGE)
CHANNELS = (INBOX, "push", "email")  # the inbox is always here; the others when registered (app/notify/channel.py)

# What each channel carries when the player has not said: the inbox everything;
# a push what asks for an answer soon; email nothing until asked.
_PUSHED = {YOUR_TURN, CLOCK_ALARM, CHALLENGE, CHALLENGE_ACCEPTED, REMATCH_OFFERED, TOURNAMENT_STARTING}
DEFAULTS: Mapping[tuple[str, str], bool] = {
    **{(kind, INBOX): True for kind in KINDS},
    **{(kind, "push"): kind in _PUSHED for kind in KINDS},
    **{(kind, "email"): False for kind in KINDS},
}


def text(kind: str, data: Mapping[str, Any]) -> str:
    """The notice as one sentence, for the bell and for a channel's message."""
    who = data.get("opponent") or data.get("by") or "your opponent"
    if kind == YOUR_TURN:
        return f"Your move against {who}."
    if kind == CLOCK_ALARM:
        return f"Your time is running out against {who}: move or lose on time."
    if kind == CHALLENGE:
        return f"{who} challenges you to a match."
    if kind == CHALLENGE_ACCEPTED:
        return f"{who} accepted your challenge: the match is on."
    if kind == CHALLENGE_DECLINED:
        reason = data.get("reason_text")
        return f"{who} declined your challenge" + (f": {who} {reason}." if reason else ".")
    if kind == MATCH_ENDED:
        outcome = {"won": "You won", "lost": "You lost", "draw": "A draw", "aborted": "Aborted"}.get(
            str(data.get("outcome")), "Over")
        return f"{outcome}: your match against {who} has ended."
    if kind == REMATCH_OFFERED:
        return f"{who} offers you a rematch."
    if kind == TOURNAMENT_STARTING:
        return f"The arena {data.get('name', '')} has begun: your first game is being paired."
    if kind == REPORT_HANDLED:
        done = "hidden from everyone" if data.get("outcome") == "hidden" else "looked at and left as it is"
        return f"The chat line you reported was {done}. Thank you."
    return kind
