"""`GET /api/v1/vocabulary`: every word the engine says about the game, as one
document (app/rules/vocabulary.py), for any client that draws a match."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.rules.vocabulary import vocabulary


class MageWords(BaseModel):
    name: str = Field(examples=["Dragon Lord"])
    power: str = Field(description="the power in plain words")
    rule: str = Field(examples=["R12"], description="the ruling that states the power")
    chaos: bool = Field(description="a chaos mage (R14), dealt from the deck; else a fixed mage of floors 1-12")
    floor: int | None = Field(description="a fixed mage's floor; null for a chaos mage")
    minion: str | None = Field(description="the type a floor 1-8 mage moves or summons")
    example: str = Field(description="one use of the power, told by the engine")
    use: str | None = Field(examples=["Take the Orb"], description="the words of the button that uses a power "
                                                                 "taking no choice; null when the power takes one")


class MinionWords(BaseModel):
    name: str = Field(examples=["Dragon"])
    rank: str = Field(examples=["greater"], description="greater, minor or pawn (R3)")
    moves: str = Field(description="how it moves, in words (R3)")
    summoned: str = Field(description="where it may be summoned, in words (R5)")
    summon_squares: dict[str, list[str]] = Field(description="per colour, every square it may be summoned onto (R5)")
    moves_from_d4: list[str] = Field(description="where it may move from d4 on an empty arena")


class VariantWords(BaseModel):
    name: str
    rules: str = Field(description="what the variant changes, in words (R17-R19)")


class Vocabulary(BaseModel):
    mages: dict[str, MageWords] = Field(description="by the mage's contract name")
    minions: dict[str, MinionWords] = Field(description="by the type's contract name")
    variants: dict[str, VariantWords]
    rulings: dict[str, str] = Field(description="R1-R20, one sentence each (docs/rules.md states them in full)")
    endings: dict[str, str] = Field(description="why a match ended, by `result.reason`, in words")
    types: list[str] = Field(description="the minion types in the engine's order")
    chaos: list[str] = Field(description="the eleven chaos mages (R6)")
    default_backrow: list[str] = Field(description="a backrow to start from, a to h (any order is legal, R7)")


router = APIRouter(tags=["game"])


@router.get("/vocabulary", response_model=Vocabulary, summary="The game's words, from the engine")
async def words() -> dict[str, Any]:
    """The mages' names and powers (with an example of each, told by the
    engine), the minion types and their moves, the variants and the
    rulings: what a client shows about the game, so that it holds no copy."""
    return vocabulary()
