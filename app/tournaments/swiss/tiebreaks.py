"""A Swiss event's standings: by score, then Buchholz (the sum of the
opponents' scores), then Sonneborn-Berger (the scores of the opponents beaten,
and half of those drawn), then name. A bye or a missed round adds nothing to
either tie-break, and a double forfeit is no game: there was no opponent.
Pure, made from the games alone."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .record import DRAW, WIN, Entrant, Game, half_points, scores


@dataclass(frozen=True, slots=True)
class Line:
    """One row of the standings; scores in half points."""

    rank: int
    key: int
    name: str
    score: int
    games: int  # games played over the board (not byes, not forfeits)
    buchholz: int
    sonneborn_berger: int  # in quarter points: half of a drawn opponent's half points


def standings(entrants: Sequence[Entrant], games: Sequence[Game]) -> list[Line]:
    score = scores(entrants, games)
    buchholz = dict.fromkeys(score, 0)
    berger = dict.fromkeys(score, 0)
    played = dict.fromkeys(score, 0)
    for g in games:
        if g.black is None or g.result in (None, "aborted", "bye"):
            continue
        for me, them in ((g.white, g.black), (g.black, g.white)):
            got = half_points(g, me)
            played[me] += 1
            buchholz[me] += score[them]
            berger[me] += 2 * score[them] if got == WIN else score[them] if got == DRAW else 0
    names = {e.key: e.name for e in entrants}
    order = sorted(score, key=lambda k: (-score[k], -buchholz[k], -berger[k], names[k].lower(), k))
    return [Line(i, k, names[k], score[k], played[k], buchholz[k], berger[k]) for i, k in enumerate(order, start=1)]
