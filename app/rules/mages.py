"""The mages of the tower and the chaos deck (R6, R12, R14): who they are.

A mage is an int: its index in `MAGES`. The twelve fixed mages are 0-11 and sit
on floors 1-12 (floor = index + 1); the eleven chaos mages are 12-22 and are
dealt onto floors 13-16 and private chambers. What each mage's power does is
its record in fixed_mages.py, chaos_mages.py or dream_lord.py.
"""

from __future__ import annotations

from typing import Final

MAGES = (
    "necromancer", "sorcerer", "wizard", "warlock", "druid", "artificer",
    "elemental_master", "dragon_lord", "animist", "mystic", "oracle", "magician",
    "seer", "magus", "alchemist", "mentalist", "enchanter", "dream_lord",
    "force_mage", "illusionist", "shadow_mage", "rune_master", "conjurer",
)
MAGE_INDEX = {name: i for i, name in enumerate(MAGES)}
(NECROMANCER, SORCERER, WIZARD, WARLOCK, DRUID, ARTIFICER, ELEMENTAL_MASTER,
 DRAGON_LORD, ANIMIST, MYSTIC, ORACLE, MAGICIAN, SEER, MAGUS, ALCHEMIST,
 MENTALIST, ENCHANTER, DREAM_LORD, FORCE_MAGE, ILLUSIONIST, SHADOW_MAGE,
 RUNE_MASTER, CONJURER) = range(23)

FIXED_MAGES = tuple(range(12))
CHAOS_MAGES = tuple(range(12, 23))  # the deck of 11 cards (R6)
TOP_FLOOR: Final = 16

# Two-letter codes of the position text form.
MAGE_CODES = (
    "ne", "so", "wi", "wa", "dr", "ar", "em", "dl", "an", "my", "or", "mc",
    "se", "mg", "al", "me", "en", "dm", "fm", "il", "sh", "rm", "co",
)
MAGE_BY_CODE = {c: i for i, c in enumerate(MAGE_CODES)}

# Where a mage is (`State.seat`): off the board, on a floor, or a private chamber.
# Final: a compiled build (mypyc) reads these from C statics, not the module's dict.
OFF: Final = 0
PRIVATE_WHITE: Final = 17
PRIVATE_BLACK: Final = 18


def private_seat(colour: int) -> int:
    return PRIVATE_WHITE + colour
