"""A Swiss event's standings (app/tournaments/swiss/tiebreaks.py): score, then
Buchholz, then Sonneborn-Berger, worked by hand."""

from __future__ import annotations

from app.tournaments.swiss.record import Entrant, Game
from app.tournaments.swiss.tiebreaks import standings


def test_buchholz_ties_broken_by_sonneborn_berger_and_a_bye_adds_to_neither() -> None:
    ann, bob, cy, dee, eve = (Entrant(k, n, 1500) for k, n in enumerate(("Ann", "Bob", "Cy", "Dee", "Eve"), 1))
    games = [Game(1, 1, 2, "white"), Game(1, 3, 4, "draw"), Game(1, 5, None, "bye"),
             Game(2, 3, 1, "draw"), Game(2, 2, 4, "white")]  # Eve sits round 2 out
    table = [(line.name, line.score / 2, line.games, line.buchholz / 2, line.sonneborn_berger / 4)
             for line in standings([ann, bob, cy, dee, eve], games)]
    # Ann 1.5: beat Bob (1), drew Cy (1): Buchholz 2, SB 1 + 0.5.
    # Cy and Bob 1 each, Buchholz 2 each (Dee 0.5 + Ann 1.5; Ann 1.5 + Dee 0.5):
    # Cy's SB is half of Dee's and half of Ann's (1.0), Bob's is Dee's (0.5).
    # Eve's 1 is the bye: no game, no tie-break; she ranks below the Buchholz of 2.
    assert table == [("Ann", 1.5, 2, 2.0, 1.5), ("Cy", 1.0, 2, 2.0, 1.0), ("Bob", 1.0, 2, 2.0, 0.5),
                     ("Eve", 1.0, 0, 0.0, 0.0), ("Dee", 0.5, 2, 2.0, 0.5)]
    assert [line.rank for line in standings([ann, bob, cy, dee, eve], games)] == [1, 2, 3, 4, 5]


def test_a_double_forfeit_scores_nothing_and_is_no_game() -> None:
    ann, bob = Entrant(1, "Ann", 1500), Entrant(2, "Bob", 1500)
    table = standings([ann, bob], [Game(1, 1, 2, "aborted")])
    assert [(line.name, line.score, line.games, line.buchholz) for line in table] == [("Ann", 0, 0, 0),
                                                                                      ("Bob", 0, 0, 0)]
