"""The shape of the engine's public view (`view.public_view`), written once as
TypedDicts so that mypy holds every reader and writer of it, and the API's
schema (app/api/state_schema.py) is checked against it. Plain dicts at run
time: the compiled engine builds them as fast as untyped ones.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict


class MinionView(TypedDict):
    owner: str
    minion: str


class ChamberView(TypedDict):
    floor: int
    mage: str
    occupant: MinionView | None


class PrivateChamberView(TypedDict):
    mage: str
    occupant: MinionView | None


# "construct" is a word the class syntax would accept, but the eight types are
# read by name everywhere, so the functional form keeps them one list.
class MinionCounts(TypedDict):
    dragon: int
    elemental: int
    construct: int
    fey: int
    spirit: int
    myrmidon: int
    undead: int
    beast: int


class CountsByColour(TypedDict):
    white: MinionCounts
    black: MinionCounts


class PrivateByColour(TypedDict):
    white: list[PrivateChamberView]
    black: list[PrivateChamberView]


class PassedByColour(TypedDict):
    white: bool
    black: bool


class WardEffect(TypedDict):
    mage: Literal["force_mage"]
    square: str


class RunesEffect(TypedDict):
    mage: Literal["rune_master"]
    player: str


class SeerEffect(TypedDict):
    mage: Literal["seer"]
    owed: list[str]


Effect = WardEffect | RunesEffect | SeerEffect


class ChaosView(TypedDict):
    deck_count: int
    discard: list[str]
    not_in_play: list[str]


class ResultView(TypedDict):
    winner: str | None
    reason: str
    abandoned: NotRequired[str]  # after a claim: the seat that had gone
    late: NotRequired[str]  # an abort for a setup not made in time: that side


class ViewOptions(TypedDict):
    variant: str
    no_progress_rounds: int


class BoardView(TypedDict):
    """The position as clients see it: what the engine's view and the match
    state share (R20: no secret while the match runs)."""

    round: int
    phase: str
    to_move: str | None
    orb: str
    arena: dict[str, MinionView | None]
    reserve: CountsByColour
    dead: CountsByColour
    tower: list[ChamberView]
    private: PrivateByColour
    passed: PassedByColour
    effects: list[Effect]
    quiet_rounds: int
    chaos: ChaosView
    result: ResultView | None
    custom: bool
    seed_commitment: str
    seed: str | None
    position: str


class PublicView(BoardView):
    """What the engine shows of a state: the position and the engine's options."""

    options: ViewOptions
