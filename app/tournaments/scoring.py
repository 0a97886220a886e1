"""An arena's scoring, as lichess's: a win 2, a draw 1, a loss 0; after two
wins in a row every game counts double (the streak, shown as a flame) until a
game is not won; a berserk win adds 1; a short draw scores nothing.

Pure: a player's score is a function of their games' outcomes in order, so the
standings can always be made again from the games (tests check they are).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

WIN, DRAW, LOSS = "win", "draw", "loss"
OUTCOMES = (WIN, DRAW, LOSS)

# A draw in which either player made fewer than 10 actions of their own (places,
# passes and removals: not the setup, nor an offer or a resignation) scores
# nothing: lichess's arena uses 10 moves, the point where a game has been
# played rather than agreed; Magery's actions are as fine-grained as chess's
# moves, so the same count makes a pre-arranged draw cost a real game's play.
SHORT_DRAW_ACTIONS = 10
FIRE_AFTER = 2  # wins in a row before the games count double


@dataclass(frozen=True, slots=True)
class Outcome:
    """One finished game, seen from one player: `result` (win, draw, loss),
    whether they went berserk, and the fewer of the two players' own actions."""

    result: str
    berserk: bool = False
    actions: int = SHORT_DRAW_ACTIONS

    def __post_init__(self) -> None:
        if self.result not in OUTCOMES:
            raise ValueError(f"an outcome is one of {OUTCOMES}, not {self.result!r}")


@dataclass(frozen=True, slots=True)
class Sheet:
    """A player's score after their games: points, games, the wins in a row now
    (the streak), and the points of each game in order."""

    score: int = 0
    games: int = 0
    streak: int = 0
    points: tuple[int, ...] = ()

    @property
    def on_fire(self) -> bool:
        return self.streak >= FIRE_AFTER


def points(outcome: Outcome, on_fire: bool) -> int:
    """The points one game scores for a player on fire (two wins in a row before it) or not."""
    if outcome.result == WIN:
        base = 2
    elif outcome.result == DRAW:
        base = 1 if outcome.actions >= SHORT_DRAW_ACTIONS else 0
    else:
        base = 0
    scored = base * 2 if on_fire else base
    if outcome.result == WIN and outcome.berserk:
        scored += 1
    return scored


def add(sheet: Sheet, outcome: Outcome) -> Sheet:
    """The sheet after one more game."""
    scored = points(outcome, sheet.on_fire)
    streak = sheet.streak + 1 if outcome.result == WIN else 0
    return Sheet(sheet.score + scored, sheet.games + 1, streak, sheet.points + (scored,))


def sheet_of(outcomes: Iterable[Outcome]) -> Sheet:
    """A player's sheet made from all their games, in the order they ended."""
    sheet = Sheet()
    for outcome in outcomes:
        sheet = add(sheet, outcome)
    return sheet
