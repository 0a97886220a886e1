"""Matches set up through the API for the newcomer tests (issue 16): a started
match, one brought to its action phase, one played on at random."""

from __future__ import annotations

import random
from typing import Any

from .conftest import ROW, Server


def seated(server: Server, creator: str = "white", options: dict[str, Any] | None = None) -> tuple[str, dict[str, str]]:
    """A match with both seats taken (Ada made it as `creator`, Bo joined): version 1."""
    body: dict[str, Any] = {"seat": creator, "name": "Ada"}
    if options:
        body["options"] = options
    made = server.call("POST", "/matches", body)
    match_id = made["match"]["id"]
    joined = server.call("POST", f"/matches/{match_id}/join", {"name": "Bo"})
    return match_id, {made["seat"]: made["token"], joined["seat"]: joined["token"]}


def set_up(server: Server, options: dict[str, Any] | None = None) -> tuple[str, dict[str, str]]:
    """Both setups done: White to place, version 3."""
    match_id, tokens = seated(server, options=options)
    server.act(match_id, tokens["white"], {"type": "setup", "backrow": ROW})
    server.act(match_id, tokens["black"], {"type": "setup", "backrow": ROW})
    return match_id, tokens


def to_action_phase(server: Server) -> tuple[str, dict[str, str], str]:
    """One minion placed each on a chamber whose power moves a minion, then both pass:
    the action phase; returns the match, the tokens and the colour to move."""
    match_id, tokens = set_up(server)
    server.act(match_id, tokens["white"], {"type": "place", "mage": "druid", "minion": "fey"})
    server.act(match_id, tokens["black"], {"type": "place", "mage": "sorcerer", "minion": "beast"})
    state = server.match(match_id)
    while state["phase"] == "decision":
        state = server.act(match_id, tokens[state["to_move"]], {"type": "pass"})
    return match_id, tokens, str(state["to_move"])


def play_on(server: Server, match_id: str, tokens: dict[str, str], until: int, seed: int = 3) -> dict[str, Any]:
    """Random legal actions (a fixed seed, placing and moving before passing) until
    the match is at version `until` (or over); returns the state."""
    rng = random.Random(seed)
    state = server.match(match_id)
    while state["status"] == "active" and state["version"] < until:
        colour = state["to_move"]
        legal = server.legal(match_id, tokens[colour])
        if legal["setup"]:
            action: dict[str, Any] = {"type": "setup", "backrow": ROW}
        else:
            busy = [a for a in legal["actions"] if a["type"] != "pass"]
            action = rng.choice(busy or legal["actions"])
        state = server.act(match_id, tokens[colour], action)
    return state
