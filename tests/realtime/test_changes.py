"""Compact updates as pure functions (app/realtime/changes.py): over random
matches of every variant, each `delta`, once through JSON, applied to the state
of the version before gives the full state of its version exactly, whatever the
live fields (presence, spectators, a clock a snapshot had run down) did between."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from app.realtime.changes import Unusable, applied, changes, delta
from app.rules import OVER, SETUP, VARIANTS, apply, legal_actions, new_match, public_view
from app.rules.minions import TYPES

STEPS = 400  # versions per match: a whole game is rarely longer, and each one is checked


def stamp(ms: int) -> str:
    return f"2026-11-29T14:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}Z"


def committed(view: dict[str, Any], version: int, rng: random.Random, ms: int, status: str) -> dict[str, Any]:
    """A state shaped as the server's (app/matches/record.py `present`), from the engine's view."""
    players = {colour: {"name": colour.title(), "connected": rng.random() < 0.5, "bot": None, "account": None,
                        "computer": False, "title": None, "rating": 1500, "rating_change": None}
               for colour in ("white", "black")}
    clock = {"white": rng.randrange(0, 300_000), "black": rng.randrange(0, 300_000),
             "running": rng.choice(["white", "black", None]), "increment": 2000}
    return {"id": "Xb3kq9", "version": version, "status": status, **view, "players": players,
            "clock": clock, "draw_offer": rng.choice([None, "white"]), "result": None,
            "created_at": stamp(0), "finished_at": None, "server_time": stamp(ms)}


def wired(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """What a full update carries: this moment's presence over the committed state (room.py `patch`)."""
    out = copy.deepcopy(state)
    for player in out["players"].values():
        player["connected"] = rng.random() < 0.5
    out["spectators"] = rng.randrange(0, 40)
    return out


def matches(seed: int, variant: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """A random legal match: (update, the wired state) for each version."""
    rng = random.Random(seed)
    s = new_match(seed=f"{rng.getrandbits(128):032x}", variant=variant)
    out = []
    ms = 0
    for version in range(1, STEPS + 1):
        if s.phase == OVER:
            break
        legal = legal_actions(s)
        if s.phase == SETUP:
            row = list(TYPES)
            rng.shuffle(row)
            action: Any = {"type": "setup", "backrow": row}
        else:
            action = rng.choice(legal)
        s, _ = apply(s, action)
        ms += rng.randrange(100, 20_000)
        view = json.loads(json.dumps(public_view(s)))  # the server's states are plain JSON values
        status = "finished" if s.phase == OVER else "active"
        state = committed(view, version, rng, ms, status)
        update = {"type": "update", "version": version, "action": {"type": "x"}, "player": "white",
                  "automatic": False, "words": "White plays.", "at": stamp(ms) if rng.random() < 0.9 else stamp(ms + 1),
                  "match": state}
        out.append((update, wired(state, rng)))
    return out


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_delta_rebuilds_the_full_state_exactly(variant: str, seed: int) -> None:
    played = matches(seed, variant)
    assert len(played) > 20
    rng = random.Random(seed)
    held = json.loads(json.dumps(played[0][1]))
    sizes = []
    for (before, _), (update, full) in zip(played, played[1:], strict=False):
        # What a client held: the full state of the version before, or that state as a
        # snapshot said it (a clock run down, other presence), or after a `presence` message.
        if rng.random() < 0.2:
            held["clock"] = {**(held["clock"] or {}), "white": 1}
            held["spectators"] = 999
            held["players"]["black"]["connected"] = not held["players"]["black"]["connected"]
        message = json.loads(json.dumps(delta(update, before["match"], full)))
        assert "match" not in message and message["base"] == update["version"] - 1
        held = applied(held, message)
        assert held == json.loads(json.dumps(full))
        sizes.append(len(json.dumps(message["changes"])))
    assert sorted(sizes)[len(sizes) // 2] < 1000  # the point of it: a move changes little


def test_arrays_are_diffed_by_index_when_of_one_length_and_set_whole_otherwise() -> None:
    a = {"v": [1, 2, 3], "w": [1, 2], "gone": 1, "same": {"x": True}, "t": 1}
    b = {"v": [1, 5, 3], "w": [1, 2, 3], "new": None, "same": {"x": True}, "t": True}
    assert changes(a, b) == [[["gone"]], [["v", 1], 5], [["w"], [1, 2, 3]], [["new"], None], [["t"], True]]


def test_a_delta_for_another_version_is_refused_not_applied() -> None:
    played = matches(7, VARIANTS[0])
    (first, full1), (second, full2), (third, _) = played[:3]
    message = json.loads(json.dumps(delta(third, second["match"], full2)))
    with pytest.raises(Unusable):
        applied(full1, message)  # the client holds version 1, the delta is on version 2
    assert full1 == played[0][1]  # and what it held is left as it was


def test_a_long_ascii_string_is_spliced_and_a_short_or_other_one_set_whole() -> None:
    long_a = "1umfcbD1/8/4e3/7C/3MF3/4M3/4sB2/UFED1SMS dw w 2 11110022"
    long_b = "1umfcbD1/8/4e3/7C/3MF3/4M3/4sB2/UFED1SMS db w 2 11010022"
    assert changes({"p": long_a}, {"p": long_b}) == [[["p"], 42, 9, "b w 2 110"]]
    assert changes({"p": "short a"}, {"p": "short b"}) == [[["p"], "short b"]]
    accented = long_a.replace("w w", "w é")
    assert changes({"p": long_a}, {"p": accented}) == [[["p"], accented]]  # not ASCII: whole
    state = {"version": 1, "p": long_a, "players": {}}
    message = {"type": "delta", "format": 1, "base": 1, "version": 2, "at": "t", "changes": changes(state, {"p": long_b}),
               "clock": None, "connected": {}, "spectators": 0}
    assert applied(state, message)["p"] == long_b
