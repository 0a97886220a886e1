"""Whether a finished match moves ratings, and what each side scored.

The service knows a finished match by its public `result` ({"winner",
"reason"}, with "abandoned" after a claim) and its log; `finished` reads those
into the small summary `Finished`, and `scores` decides from the summary alone:

- a match that was not rated moves nothing;
- an abort moves nothing, whoever called it: a player before both setups were
  done, the setup time running out ("late"), nobody joining, or an admin;
- nor does any other ending before both sides have made their first action
  after setup (an action of their own, not a pass the server played for
  them), so a match walked away from at its start costs nobody points;
- an admin's adjudication counts as it stands, even that early: an admin who
  wants no rating to move aborts instead;
- otherwise the winner scores 1 and the loser 0, or each 0.5 for a draw.

    >>> scores(Finished(rated=True, ending=Ending.RESIGN, winner="black", both_acted=True))
    Scores(white=0.0, black=1.0)
    >>> scores(Finished(rated=True, ending=Ending.RESIGN, winner="black", both_acted=False)) is None
    True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, NamedTuple

COLOURS = ("white", "black")


class Ending(StrEnum):
    """How a match ended, as far as ratings care."""

    ABORT = "abort"  # called off: by a player, the setup time, the join timeout or an admin
    RESIGN = "resign"
    FLAG = "flag"  # a clock ran out
    CLAIM = "claim"  # a win or a draw claimed against an opponent gone too long
    ADJUDICATE = "adjudicate"  # an admin's verdict: a winner or a draw
    VICTORY = "victory"  # won by the rules (R15)
    AGREEMENT = "agreement"  # a draw offered and accepted
    NO_PROGRESS = "no_progress"  # drawn by the rounds without a capture, or a dead position


# Endings that always have a winner, and those that never do; the others
# (claim, adjudicate) may be either.
WON = frozenset({Ending.RESIGN, Ending.FLAG, Ending.VICTORY})
DRAWN = frozenset({Ending.AGREEMENT, Ending.NO_PROGRESS, Ending.ABORT})

# The match's result.reason (docs/api.md) to its ending. "timeout" is a
# flag or, with "abandoned" in the result, a claim: see ending_of.
REASONS: Mapping[str, Ending] = {
    "eliminated": Ending.VICTORY,
    "five_greater": Ending.VICTORY,
    "three_of_a_kind": Ending.VICTORY,
    "resigned": Ending.RESIGN,
    "timeout": Ending.FLAG,
    "agreement": Ending.AGREEMENT,
    "no_progress": Ending.NO_PROGRESS,
    "aborted": Ending.ABORT,
    "adjudicated": Ending.ADJUDICATE,
}

# The game actions a player makes after setup (docs/api.md, "The log").
TURN_ACTIONS = frozenset({"place", "pass", "remove"})


@dataclass(frozen=True, slots=True)
class Finished:
    """What ratings need to know of a finished match."""

    rated: bool  # both seats agreed to a rated match when it was made
    ending: Ending
    winner: str | None  # "white", "black", or None: a draw (or nobody, for an abort)
    both_acted: bool  # both sides made an action of their own after setup

    def __post_init__(self) -> None:
        if self.winner is not None and self.winner not in COLOURS:
            raise ValueError(f"the winner is white, black or None, not {self.winner!r}")
        if self.ending in WON and self.winner is None:
            raise ValueError(f"a match ended by {self.ending} has a winner")
        if self.ending in DRAWN and self.winner is not None:
            raise ValueError(f"a match ended by {self.ending} has no winner")


class Scores(NamedTuple):
    white: float
    black: float


def scores(finished: Finished) -> Scores | None:
    """Each side's score for its rating, or None: the match moves no rating."""
    if not finished.rated or finished.ending is Ending.ABORT:
        return None
    if not finished.both_acted and finished.ending is not Ending.ADJUDICATE:
        return None
    if finished.winner is None:
        return Scores(0.5, 0.5)
    return Scores(1.0, 0.0) if finished.winner == "white" else Scores(0.0, 1.0)


def ending_of(result: Mapping[str, Any]) -> Ending:
    """The ending of a match from its public `result`. A reason this module
    does not know is refused: a new way to end a match must be placed here on
    purpose, not counted by accident."""
    reason = result.get("reason")
    if not isinstance(reason, str) or reason not in REASONS:
        raise ValueError(f"no ending known for the result reason {reason!r}")
    if reason == "timeout" and result.get("abandoned") is not None:
        return Ending.CLAIM
    return REASONS[reason]


def both_sides_acted(log: Iterable[tuple[str | None, str, bool]]) -> bool:
    """Whether each side made an action of its own after setup, from the log's
    entries as (player, action type, automatic): a place, pass or remove that
    the server did not play for it (an automatic pass is nobody's choice)."""
    acted = {player for player, kind, automatic in log if kind in TURN_ACTIONS and not automatic}
    return all(colour in acted for colour in COLOURS)


def finished(rated: bool, result: Mapping[str, Any], log: Iterable[tuple[str | None, str, bool]]) -> Finished:
    """The summary of a finished match from what the service holds: whether it
    was rated, its public `result` and its log (see both_sides_acted)."""
    return Finished(rated, ending_of(result), result.get("winner"), both_sides_acted(log))


Side = Literal["account", "computer", "guest"]


def may_play_rated(white: Side, black: Side) -> bool:
    """Only two accounts, or an account and a computer level, play rated."""
    sides = sorted((white, black))
    return sides in (["account", "account"], ["account", "computer"])
