"""The computer offered to a player nobody was paired with: the level whose
rating in the pool's variant is nearest the player's (a guest counts as a new
player, 1500). A level never rated counts as new too; between levels as near,
the one nearer the middle of the levels is offered.

A player waiting in several pools is offered the computer in the pool where
the level offered is nearest their rating there (`gap`), the longest waited
of those as near: the offer is meant as a fair match, and every one of those
pools is a game the player asked for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.ratings import NEW


def nearest_level(levels: Sequence[str], ratings: Mapping[str, float | None], rating: float | None) -> str:
    """
    >>> nearest_level(("random", "greedy", "strong"), {"random": 900.0, "greedy": 1400.0, "strong": 1900.0}, 1800.0)
    'strong'
    >>> nearest_level(("random", "greedy", "strong"), {}, None)
    'greedy'
    """
    mine = NEW.rating if rating is None else rating
    middle = (len(levels) - 1) / 2

    def distance(at: int) -> tuple[float, float]:
        theirs = ratings.get(levels[at])
        return abs((NEW.rating if theirs is None else theirs) - mine), abs(at - middle)

    return levels[min(range(len(levels)), key=distance)]


def gap(ratings: Mapping[str, float | None], level: str, rating: float | None) -> float:
    """How far the level's rating is from the player's (either unknown: a new player's).

    >>> gap({"strong": 1900.0}, "strong", 1850.0)
    50.0
    """
    theirs = ratings.get(level)
    return abs((NEW.rating if theirs is None else theirs) - (NEW.rating if rating is None else rating))
