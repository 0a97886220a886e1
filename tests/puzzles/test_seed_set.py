"""The shipped puzzles: each one's solution legal, each solver's action still
the only win at a shallower depth than the one that confirmed it, its themes
read again from the line, and the set made again from its seeds."""

from __future__ import annotations

import pytest

from app.puzzles.miner import DEEP, QUICK, Puzzle, minable, replay, still_unique
from app.puzzles.mining import mine_games, puzzle_id
from app.puzzles.service import read_seed
from app.puzzles.themes import themes_of
from app.rules import OVER, from_text, to_text

SEED = read_seed()
SEED_NAME = "ship"  # python -m app.puzzles mine --seed ship (docs/puzzles.md)


def test_the_seed_set_is_not_empty_and_ids_are_the_positions_digests() -> None:
    assert SEED
    assert len({rec["id"] for rec in SEED}) == len(SEED)
    for rec in SEED:
        assert rec["id"] == puzzle_id(rec["position"])
        assert to_text(from_text(rec["position"])) == rec["position"]


@pytest.mark.parametrize("rec", SEED, ids=[rec["id"] for rec in SEED])
def test_every_solution_is_legal_and_its_themes_are_what_it_does(rec: dict) -> None:
    start = from_text(rec["position"])
    assert minable(start)  # the action phase of a variant whose hidden deck no line can reach (R20)
    states = replay(start, rec["solution"])  # raises on an illegal action
    for ply, before in zip(rec["solution"], states, strict=False):
        assert ply["player"] == ("white", "black")[before.to_move]  # whose turn is read from the state
    assert rec["solution"][0]["player"] == ("white", "black")[start.to_move]
    assert themes_of(start, rec["solution"]) == rec["themes"]
    last = states[-1]
    assert last.phase != OVER or last.result["winner"] == rec["solution"][0]["player"]


@pytest.mark.parametrize("rec", SEED, ids=[rec["id"] for rec in SEED])
def test_each_solver_action_is_still_the_only_win_at_a_shallower_depth(rec: dict) -> None:
    assert QUICK < DEEP
    puzzle = Puzzle(from_text(rec["position"]), rec["solution"], rec["themes"])
    assert still_unique(puzzle, QUICK)


def test_the_same_seed_mines_the_same_puzzles() -> None:
    """One match of the shipped run, mined again, gives the shipped records of that match."""
    number = min(int(rec["source"]["match"].rsplit("-", 1)[1]) for rec in SEED)
    shipped = [rec for rec in SEED if rec["source"]["match"].endswith(f"-{number:06d}")]
    [(_, again, _)] = list(mine_games(SEED_NAME, 1, first=number))
    assert again == shipped
