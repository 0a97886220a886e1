"""The Magery rules engine: pure game logic, no I/O (see docs/rules.md).

    >>> from app.rules import new_match, apply, legal_actions
    >>> s = new_match(seed="0123456789abcdef0123456789abcdef")
    >>> row = ["construct", "fey", "elemental", "dragon", "undead", "beast", "spirit", "myrmidon"]
    >>> s, _ = apply(s, {"type": "setup", "backrow": row})
    >>> s, _ = apply(s, {"type": "setup", "backrow": row})
    >>> len(legal_actions(s))  # 16 chambers x 8 types in reserve, and a pass
    129
"""

from .actions import Action, Payload, Played, action_json, parse_action, parse_power, power_json
from .colours import BLACK, COLOURS, WHITE, other
from .deck import commitment, shuffle
from .engine import (
    apply,
    apply_steps,
    automatic_action,
    conclude,
    in_tower,
    legal_actions,
    setup_choices,
    usable_chambers,
    winning_reason,
)
from .errors import BadPosition, IllegalAction, MageryError, MalformedAction, MatchOver
from .notation import from_text, public_text, to_text
from .positions import playable, position_flaw
from .start import DEFAULT_NO_PROGRESS_ROUNDS, new_match
from .state import ACTION, DECISION, OVER, PHASES, SETUP, State
from .variants import VARIANTS
from .view import public_view
from .words import describe, power_words

# The engine's version: the magery-rules wheel is published under it (packages/rules
# reads it; its CHANGELOG.md says what each one changed). The minor number moves with
# any change to what the rules allow or how a position reads, the patch number with
# fixes that change neither. Here rather than in a module of its own: every module
# but this one is compiled (scripts/build_engine.py), and a constant gains nothing.
VERSION = "0.1.0"

__all__ = [
    "VERSION",
    "ACTION", "BLACK", "COLOURS", "DECISION", "DEFAULT_NO_PROGRESS_ROUNDS", "OVER", "PHASES",
    "SETUP", "VARIANTS", "WHITE",
    "Action", "BadPosition", "Payload", "Played", "IllegalAction", "MageryError", "MalformedAction", "MatchOver",
    "State", "action_json", "apply", "apply_steps", "automatic_action", "commitment", "conclude",
    "describe", "from_text", "in_tower", "legal_actions", "new_match", "other", "parse_action",
    "parse_power", "playable", "position_flaw", "power_json", "power_words", "public_text", "public_view", "setup_choices", "shuffle",
    "to_text", "usable_chambers", "winning_reason",
]
