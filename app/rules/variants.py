"""The match options that change the tower (R17-R19): one engine, four variants."""

from __future__ import annotations

from dataclasses import dataclass

VARIANTS = ("standard", "rotating", "archmage", "ultimate_archmage")


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    chaos_floors: tuple[int, ...]  # floors dealt a chaos card, lowest first
    private_cards: int  # private chambers per player (R18, R19)
    rotates: bool  # R17


VARIANT_RULES = (
    Variant("standard", (13, 14, 15, 16), 0, False),
    Variant("rotating", (13, 14, 15, 16), 0, True),
    Variant("archmage", (13, 14, 15), 1, False),
    Variant("ultimate_archmage", (13,), 3, False),
)
