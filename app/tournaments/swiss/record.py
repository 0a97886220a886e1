"""A Swiss event's facts as the pure code sees them: its players, in their
starting order, and its games round by round. Scores are kept in half points
(a win 2, a draw 1) so that every sum is a whole number.

Pure: the pairing (dutch.py), the TRF (trf.py) and the standings
(tiebreaks.py) are functions of these alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIN, DRAW, LOSS = 2, 1, 0  # half points
BYE = 2  # a pairing-allocated bye scores a win (as lichess's)
MISSED = 0  # a round not played (joined later, withdrawn, or a double forfeit) scores nothing (as lichess's)

RESULTS = ("white", "black", "draw", "aborted", "bye")


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player: `key` (the account), the name shown, the rating when they joined."""

    key: int
    name: str
    rating: int


@dataclass(frozen=True, slots=True)
class Game:
    """One pairing of a round: `black` None is a bye. `result` None: still playing."""

    round: int
    white: int
    black: int | None
    result: str | None

    def __post_init__(self) -> None:
        if self.result is not None and self.result not in RESULTS:
            raise ValueError(f"a Swiss game's result is one of {RESULTS}, not {self.result!r}")
        if (self.black is None) != (self.result == "bye"):
            raise ValueError("a bye, and only a bye, has no black player")


def starting_order(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The starting ranks (FIDE's initial order): the highest rating first, then
    by name, so every process numbers the players alike."""
    return sorted(entrants, key=lambda e: (-e.rating, e.name.lower(), e.key))


def half_points(game: Game, key: int) -> int:
    """What a finished game scored for player `key`, in half points."""
    if game.result == "bye":
        return BYE
    if game.result == "draw":
        return DRAW
    if game.result == "aborted" or game.result is None:
        return MISSED  # nobody moved: a double forfeit, nothing for either
    winner = game.white if game.result == "white" else game.black
    return WIN if winner == key else LOSS


def scores(entrants: Sequence[Entrant], games: Sequence[Game]) -> dict[int, int]:
    """Each player's score in half points, made from the finished games alone."""
    total = {e.key: 0 for e in entrants}
    for g in games:
        if g.result is None:
            continue
        for key in (g.white, g.black):
            if key is not None:
                total[key] = total.get(key, 0) + half_points(g, key)
    return total
