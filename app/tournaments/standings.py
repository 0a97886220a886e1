"""An arena's ranking: by score, ties broken by performance rating (then by
name, so every process shows the same order)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .scoring import DRAW, LOSS, WIN, Sheet

PERFORMANCE_SPREAD = 500  # a win counts as the opponent's rating + 500, a loss - 500 (as lichess's)


@dataclass(frozen=True, slots=True)
class Result:
    """One finished game from one player's side: the result and the opponent's rating when it began."""

    result: str
    opponent_rating: float


def performance(results: Iterable[Result]) -> int | None:
    """The rating the results are worth: the opponents' mean rating, moved
    500 up per win and down per loss over the games (None: no game yet)."""
    games = list(results)
    if not games:
        return None
    if any(r.result not in (WIN, DRAW, LOSS) for r in games):
        raise ValueError("a result is a win, a draw or a loss")
    total = sum(r.opponent_rating for r in games)
    total += PERFORMANCE_SPREAD * sum((r.result == WIN) - (r.result == LOSS) for r in games)
    return round(total / len(games))


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    name: str
    score: int
    games: int
    streak: int
    performance: int | None


def ranked(entries: Sequence[tuple[str, Sheet, int | None]]) -> list[Standing]:
    """Each (name, sheet, performance) with its rank: score first, then
    performance (a player with no game below any with one), then name."""
    order = sorted(entries, key=lambda e: (-e[1].score, -(e[2] if e[2] is not None else -10**9), e[0].lower(), e[0]))
    return [Standing(i, name, sheet.score, sheet.games, sheet.streak, perf)
            for i, (name, sheet, perf) in enumerate(order, start=1)]
