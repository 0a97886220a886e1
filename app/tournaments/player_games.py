"""One player's page of an arena: their standing and every game they played
in it, from their side (the opponent, the opponent's rating when paired, the
result, the points it scored, whether it counted). Pure: rows in, body out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import NoSuchPlayer
from .standings import Standing


def _outcome(result: str | None, colour: str) -> str | None:
    if result is None or result == "aborted":
        return result
    if result == "draw":
        return "draw"
    return "win" if result == colour else "loss"


def body(name: str, joined: Sequence[Any], played: Sequence[Any], table: Sequence[Standing]) -> dict[str, Any]:
    """`joined` every player who joined (one an admin removed has no page, but
    their name shows as an opponent), `played` the arena's games newest first,
    `table` the standings; the player found whatever the name's case."""
    me = next((p for p in joined if p.name.lower() == name.lower() and p.removed_ms is None), None)
    if me is None:
        raise NoSuchPlayer(f"nobody named {name!r} plays in this tournament")
    standing = next(s for s in table if s.name == me.name)
    names = {p.account_id: p.name for p in joined}
    games: list[dict[str, Any]] = []
    for g in played:
        if me.account_id not in (g.white, g.black):
            continue
        colour = "white" if g.white == me.account_id else "black"
        other, rating = (g.black, g.black_rating) if colour == "white" else (g.white, g.white_rating)
        points = g.white_points if colour == "white" else g.black_points
        games.append({"match": g.match_id, "colour": colour, "opponent": names.get(other),
                      "opponent_rating": round(rating), "status": g.status, "result": _outcome(g.result, colour),
                      "points": points, "counted": bool(g.counted) and g.result != "aborted"})
    return {"name": me.name, "rank": standing.rank, "score": standing.score, "games": standing.games,
            "streak": standing.streak, "performance": standing.performance, "pairings": games}
