"""The JSON Schema of an action, for the OpenAPI description (issue 12, defect 5).

The server reads an action with the rules' own parser (app/rules/actions.py,
`parse_action`), whose refusals name the problem; this schema says the same
shapes in JSON Schema, so that nothing it admits is refused as malformed. What
it admits may still be illegal in the position (422 `illegal_action`, naming
the rule): that is the game's to judge, not a schema's.
"""

from __future__ import annotations

from typing import Any

from app.rules.mages import MAGES
from app.rules.minions import COLOURS, TYPES

SQUARE: dict[str, Any] = {"type": "string", "pattern": "^[a-h][1-8]$"}
MAGE: dict[str, Any] = {"enum": list(MAGES)}
MINION: dict[str, Any] = {"enum": list(TYPES)}
TWO_SQUARES: dict[str, Any] = {"type": "array", "items": SQUARE, "minItems": 2, "maxItems": 2}


def _exactly(**fields: Any) -> dict[str, Any]:
    """An object with exactly these fields."""
    return {"type": "object", "properties": fields, "required": list(fields), "additionalProperties": False}


# The forms of a mage's power, by the mages that use them (docs/notation.md).
_POWERS = [
    {"type": "object", "maxProperties": 0},  # oracle, rune_master: just use it
    _exactly(move=TWO_SQUARES),
    _exactly(summon=SQUARE),
    _exactly(target=MAGE),
    _exactly(player={"enum": list(COLOURS)}),
    _exactly(square=SQUARE, minion=MINION),
    _exactly(square=SQUARE),
    _exactly(swap=TWO_SQUARES),
]
POWER: dict[str, Any] = {
    "anyOf": [*_POWERS, _exactly(mage=MAGE, power={"anyOf": _POWERS})],  # dream_lord borrows one
    "description": "the power's payload, by mage; null declines the power",
}

ACTION: dict[str, Any] = {
    "oneOf": [
        _exactly(type={"const": "setup"},
                 backrow={"type": "array", "items": MINION, "minItems": 8, "maxItems": 8}),
        _exactly(type={"const": "place"}, mage=MAGE, minion=MINION),
        _exactly(type={"const": "pass"}),
        _exactly(type={"const": "remove"}, mage=MAGE, power={"anyOf": [POWER, {"type": "null"}]}),
    ],
    "description": "an action in the contract's JSON form (docs/notation.md)",
}
