"""The API's schema checked against the service's shapes by mypy, not only by
tests: each model of the public state is built here from the TypedDict the
service makes (app/matches/shapes.py, app/rules/view_shape.py), so a key that
one has and the other lacks is a type error.
"""

from __future__ import annotations

from app.accounts.profiles import RatingView
from app.matches import shapes
from app.rules import view_shape

from .schemas import LogEntry
from .state_schema import (
    Chamber,
    Chaos,
    MatchState,
    MinionCounts,
    Player,
    PrivateChamber,
    Rating,
    Rematch,
    Result,
)


def held_to_the_service(state: shapes.MatchState, player: shapes.PlayerView, counts: view_shape.MinionCounts,
                         chamber: view_shape.ChamberView, private: view_shape.PrivateChamberView,
                         chaos: view_shape.ChaosView, result: view_shape.ResultView,
                         rematch: shapes.RematchView, rating: RatingView, entry: shapes.LogEntry) -> None:
    """For mypy first (tests also call it with a real state). Each model is built from the TypedDict
    the service makes (app/matches/shapes.py, app/rules/view_shape.py), so a key
    that one has and the other lacks is a type error, not only a failing test.
    (The clock's two forms share one TypedDict with optional keys, and the effects
    are a union: tests/api/test_schema_honest.py holds those.)"""
    MatchState(**state)
    Player(**player)
    MinionCounts(**counts)
    Chamber(**chamber)
    PrivateChamber(**private)
    Chaos(**chaos)
    Result(**result)
    Rematch(**rematch)
    Rating(**rating)
    LogEntry(**entry)
