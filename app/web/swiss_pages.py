"""A Swiss event's page (`/tournaments/{id}` of a Swiss event), drawn on the
server from what GET /api/v1/tournaments/{id} answers: the round (current of
total) and when the next is paired, the standings with Buchholz and
Sonneborn-Berger, the pairings round by round and board by board with the
bye, join and withdraw, and the TRF-16 export.

It is not pushed: a Swiss event changes a few times a round, rounds minutes
or days apart. static/js/swiss.js draws the page again (this same HTML, read
once) when the next round is due, after the player's own join or withdrawal,
and otherwise once a minute (REFRESH_SECONDS) while the event is not over.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import groupby
from typing import Any

REFRESH_SECONDS = 60  # 2,000 watchers: about 33 page reads a second (the arenas' budget is 50)


def points(value: float) -> str:
    """1.0 → "1", 1.5 → "1½"."""
    whole = int(value)
    return f"{whole}½" if value - whole else str(whole)


def figure(value: float) -> str:
    """A tie-break as a number: 2.0 → "2", 2.25 → "2.25"."""
    return f"{value:g}"


def control_words(control: Any) -> str:
    if isinstance(control, Mapping):
        days = control.get("days")
        return f"{days} day{'s' if days != 1 else ''} a move"
    return str(control)


def rounds_of(pairings: list[Mapping[str, Any]]) -> list[tuple[int, list[Mapping[str, Any]]]]:
    """The pairings grouped by round, the newest round first, board by board."""
    ordered = sorted(pairings, key=lambda p: (-p["round"], p["board"]))
    return [(n, list(boards)) for n, boards in groupby(ordered, key=lambda p: p["round"])]


def you(view: Mapping[str, Any], name: str | None) -> dict[str, Any] | None:
    """The signed-in viewer's place: joined (and still in) or not; None for a guest."""
    if name is None:
        return None
    mine = next((s for s in view["standings"] if s["name"] == name), None)
    over = view["status"] == "finished"
    closed = over or view["round"] >= view["rounds"]  # the last round paired: nobody joins now
    joined = mine is not None and not mine["withdrawn"]
    game = next((p["match"] for p in view["pairings"] if p["round"] == view["round"] and p["match"]
                 and p["status"] == "playing" and name in (p["white"], p["black"])), None)
    return {"standing": mine, "joined": joined, "can_join": not closed and not joined,
            "can_withdraw": not over and joined, "game": game}


def context(view: dict[str, Any], name: str | None) -> dict[str, Any]:
    return {"tournament": view, "control": control_words(view["time_control"]), "rounds": rounds_of(view["pairings"]),
            "you": you(view, name), "points": points, "figure": figure,
            "data": {"id": view["id"], "status": view["status"], "next_round_at": view["next_round_at"],
                     "refresh_seconds": REFRESH_SECONDS}}
