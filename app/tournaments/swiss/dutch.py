"""A Swiss round's pairing by the FIDE Dutch system, through py4swiss (a
maintained implementation of the handbook's C.04.3, checked by its author
against bbpPairings): the event so far is written as a TRF (trf.py) and the
engine pairs the next round from it. It keeps the absolute criteria: no two
players meet twice, nobody has the pairing-allocated bye twice, no colour three
times running nor a colour difference beyond two (but for topscorers in the
last round, as the handbook allows).

Pure but for py4swiss's reading of a temporary file."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from . import trf
from .record import Entrant, Game, starting_order


class Unpairable(Exception):
    """No pairing meets the absolute criteria (more rounds than the players can
    fill without a repeat, say): the event ends there."""


@dataclass(frozen=True, slots=True)
class Board:
    """One pairing made: `black` None is the pairing-allocated bye."""

    white: int
    black: int | None


def pair_round(entrants: Sequence[Entrant], games: Sequence[Game], played_rounds: int, rounds: int,
               present: Collection[int]) -> list[Board]:
    """The boards of round played_rounds + 1, for the players in `present`
    (the others sit it out), the top board first."""
    from py4swiss.engines import DutchEngine
    from py4swiss.engines.common import PairingError

    present = set(present)
    if len(present) < 2:
        raise Unpairable("fewer than two players to pair")
    order = starting_order(entrants)
    key_of = {n: e.key for n, e in enumerate(order, start=1)}
    absent = {e.key for e in entrants} - present
    document = trf.text("pairing", 0, 0, "", rounds, entrants, games, played_rounds, sitting_out=absent)
    try:
        made = DutchEngine.generate_pairings(trf.read(document))
    except PairingError as exc:
        raise Unpairable(str(exc)) from exc
    boards = [Board(key_of[p.white], None if p.black == 0 else key_of[p.black]) for p in made]
    seen = [k for b in boards for k in (b.white, b.black) if k is not None]
    if sorted(seen) != sorted(present):
        raise Unpairable(f"the engine paired {sorted(seen)}, not the players present {sorted(present)}")
    return boards
