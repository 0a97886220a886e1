"""A real match state, as the server made it: White to set up
at version 1 of a joined real-time match, Black's seat taken by a guest. The
OpenAPI description's example of `MatchState`; tests/api/test_schema_honest.py
checks it against the schema."""

from typing import Any

from app.rules import COLOURS
from app.rules.minions import TYPES

MATCH_EXAMPLE: dict[str, Any] = {
    "id": "q3J9xk2LmA0b",
    "version": 1,
    "status": "active",
    "options": {
        "variant": "standard",
        "no_progress_rounds": 10,
        "time_control": {"type": "realtime", "minutes": 10.0, "increment": 5.0},
        "join_timeout_seconds": 86400,
        "abandon_seconds": 60,
        "setup_seconds": 60,
    },
    "round": 1,
    "phase": "setup",
    "to_move": "white",
    "orb": "white",
    "arena": {},
    # Every type's three minions in each reserve, none dead yet: the engine's own list of types.
    "reserve": {colour: dict.fromkeys(TYPES, 3) for colour in COLOURS},
    "dead": {colour: dict.fromkeys(TYPES, 0) for colour in COLOURS},
    "tower": [
        {"floor": 1, "mage": "necromancer", "occupant": None},
        {"floor": 2, "mage": "sorcerer", "occupant": None},
        {"floor": 3, "mage": "wizard", "occupant": None},
        {"floor": 4, "mage": "warlock", "occupant": None},
        {"floor": 5, "mage": "druid", "occupant": None},
        {"floor": 6, "mage": "artificer", "occupant": None},
        {"floor": 7, "mage": "elemental_master", "occupant": None},
        {"floor": 8, "mage": "dragon_lord", "occupant": None},
        {"floor": 9, "mage": "animist", "occupant": None},
        {"floor": 10, "mage": "mystic", "occupant": None},
        {"floor": 11, "mage": "oracle", "occupant": None},
        {"floor": 12, "mage": "magician", "occupant": None},
        {"floor": 13, "mage": "mentalist", "occupant": None},
        {"floor": 14, "mage": "alchemist", "occupant": None},
        {"floor": 15, "mage": "conjurer", "occupant": None},
        {"floor": 16, "mage": "illusionist", "occupant": None},
    ],
    "private": {"white": [], "black": []},
    "passed": {"white": False, "black": False},
    "effects": [],
    "quiet_rounds": 0,
    "chaos": {
        "deck_count": 7,
        "discard": [],
        "not_in_play": [
            "seer",
            "magus",
            "enchanter",
            "dream_lord",
            "force_mage",
            "shadow_mage",
            "rune_master",
        ],
    },
    "result": None,
    "custom": False,
    "seed_commitment": "d98405036f0624e0e61516819f74b6b70371975b728e24b9848431563eb00c0c",
    "seed": None,
    "position": "8/8/8/8/8/8/8/8 sw w 1 33333333/33333333 00000000/00000000 ............|me.,al.,co.,il. "
                "-/- - - - - 0 ? ? standard:10 -",
    "players": {
        "white": {
            "name": "Ada",
            "connected": True,
            "bot": None,
            "account": None,
            "computer": False,
            "title": None,
            "rating": None,
            "rating_change": None,
        },
        "black": {
            "name": "Bo",
            "connected": False,
            "bot": None,
            "account": None,
            "computer": False,
            "title": None,
            "rating": None,
            "rating_change": None,
        },
    },
    "clock": {
        "type": "realtime",
        "white": 600000,
        "black": 600000,
        "running": None,
        "increment": 5000,
        "setup": 50739,
    },
    "draw_offer": None,
    "takeback_offer": None,
    "rated": False,
    "rematch": None,
    "rematch_of": None,
    "created_at": "2026-11-21T15:00:00.000Z",
    "finished_at": None,
    "server_time": "2026-11-21T15:00:09.250Z",
}
