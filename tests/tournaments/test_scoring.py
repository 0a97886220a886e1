"""An arena's scoring, ranking and pairing rules (app/tournaments), pure."""

from __future__ import annotations

import itertools
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments.pairing import GROUP, SAME_AGAIN, Waiting, cost, pairs
from app.tournaments.scoring import (
    DRAW,
    LOSS,
    SHORT_DRAW_ACTIONS,
    WIN,
    Outcome,
    Sheet,
    add,
    points,
    sheet_of,
)
from app.tournaments.standings import Result, performance, ranked


def test_a_win_a_draw_and_a_loss_score_two_one_and_nothing() -> None:
    assert [points(Outcome(r), False) for r in (WIN, DRAW, LOSS)] == [2, 1, 0]


def test_after_two_wins_in_a_row_the_games_count_double_until_one_is_not_won() -> None:
    sheet = sheet_of([Outcome(WIN), Outcome(WIN), Outcome(WIN), Outcome(WIN), Outcome(DRAW), Outcome(WIN)])
    assert sheet.points == (2, 2, 4, 4, 2, 2)
    assert sheet.score == 16 and sheet.games == 6 and sheet.streak == 1
    assert sheet_of([Outcome(WIN), Outcome(WIN), Outcome(LOSS), Outcome(WIN)]).points == (2, 2, 0, 2)


def test_a_berserk_win_adds_one_point_and_a_berserk_loss_or_draw_adds_none() -> None:
    assert points(Outcome(WIN, berserk=True), False) == 3
    assert points(Outcome(WIN, berserk=True), True) == 5
    assert points(Outcome(DRAW, berserk=True), False) == 1
    assert points(Outcome(LOSS, berserk=True), False) == 0


def test_a_short_draw_scores_nothing_and_ends_the_streak() -> None:
    assert points(Outcome(DRAW, actions=SHORT_DRAW_ACTIONS - 1), False) == 0
    assert points(Outcome(DRAW, actions=SHORT_DRAW_ACTIONS), False) == 1
    sheet = sheet_of([Outcome(WIN), Outcome(WIN), Outcome(DRAW, actions=3)])
    assert sheet.points == (2, 2, 0) and sheet.streak == 0


def test_an_unknown_result_is_refused() -> None:
    with pytest.raises(ValueError, match="outcome"):
        Outcome("forfeit")


def test_performance_is_the_opponents_mean_moved_500_per_win_or_loss() -> None:
    assert performance([]) is None
    assert performance([Result(WIN, 1500)]) == 2000
    assert performance([Result(WIN, 1500), Result(LOSS, 1700), Result(DRAW, 1600)]) == 1600
    assert performance([Result(WIN, 1500), Result(WIN, 1700)]) == 2100


def test_the_ranking_is_by_score_then_performance() -> None:
    a, b = sheet_of([Outcome(WIN)]), sheet_of([Outcome(DRAW), Outcome(DRAW)])
    table = ranked([("ann", a, 1900), ("bob", b, 2000), ("cy", sheet_of([]), None), ("dee", a, 2100)])
    assert [(s.rank, s.name, s.score) for s in table] == [(1, "dee", 2), (2, "bob", 2), (3, "ann", 2), (4, "cy", 0)]


outcomes = st.builds(Outcome, st.sampled_from([WIN, DRAW, LOSS]), st.booleans(), st.integers(0, 30))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), outcomes), max_size=60))
def test_standings_kept_game_by_game_always_equal_a_recomputation_from_the_games(games: list[tuple[int, int, Outcome]]) -> None:
    """As the service keeps them: each game's end adds to its player's sheet;
    made again from all of a player's games in order, the sheet is the same."""
    kept: dict[int, Sheet] = {}
    played: dict[int, list[Outcome]] = {}
    for white, black, outcome in games:
        if white == black:
            continue
        other = Outcome({WIN: LOSS, LOSS: WIN, DRAW: DRAW}[outcome.result], False, outcome.actions)
        for player, seen in ((white, outcome), (black, other)):
            kept[player] = add(kept.get(player, Sheet()), seen)
            played.setdefault(player, []).append(seen)
    for player, theirs in played.items():
        assert kept[player] == sheet_of(theirs)


def test_pairing_pairs_everyone_it_can_preferring_close_scores() -> None:
    waiting = [Waiting("a", 10, 1500), Waiting("b", 0, 1500), Waiting("c", 9, 1500), Waiting("d", 1, 1500)]
    made = {frozenset((x.player, y.player)) for x, y in pairs(waiting)}
    assert made == {frozenset("ac"), frozenset("bd")}


def test_pairing_prefers_close_ratings_among_equal_scores() -> None:
    waiting = [Waiting("a", 0, 1500), Waiting("b", 0, 2000), Waiting("c", 0, 1550), Waiting("d", 0, 2100)]
    assert {frozenset((x.player, y.player)) for x, y in pairs(waiting)} == {frozenset("ac"), frozenset("bd")}


def test_pairing_avoids_the_last_opponent_while_another_waits() -> None:
    waiting = [Waiting("a", 4, 1500, "b"), Waiting("b", 4, 1500, "a"), Waiting("c", 4, 1500, "d"),
               Waiting("d", 4, 1500, "c")]
    assert {frozenset((x.player, y.player)) for x, y in pairs(waiting)} in (
        {frozenset("ac"), frozenset("bd")}, {frozenset("ad"), frozenset("bc")})
    assert cost(waiting[0], waiting[1]) >= SAME_AGAIN


def test_two_who_just_met_meet_again_rather_than_wait() -> None:
    made = pairs([Waiting("a", 2, 1500, "b"), Waiting("b", 0, 1500, "a")])
    assert [(x.player, y.player) for x, y in made] == [("a", "b")]


def test_one_waiting_alone_is_not_paired_and_an_odd_one_out_waits() -> None:
    assert pairs([Waiting("a", 0, 1500)]) == []
    assert len(pairs([Waiting(str(i), i, 1500) for i in range(5)])) == 2


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(800, 2800)), max_size=40))
def test_pairing_pairs_all_but_one_at_most_and_each_player_once(rows: list[tuple[int, int]]) -> None:
    waiting = [Waiting(f"p{i}", s, r, f"p{i + 1}") for i, (s, r) in enumerate(rows)]
    made = pairs(waiting)
    seen = [w.player for w in itertools.chain.from_iterable(made)]
    assert len(seen) == len(set(seen)) == 2 * (len(waiting) // 2)


def test_a_repeated_player_is_refused() -> None:
    with pytest.raises(ValueError, match="once"):
        pairs([Waiting("a", 0, 1500), Waiting("a", 0, 1500)])


def test_two_hundred_waiting_are_paired_quickly() -> None:
    waiting = [Waiting(f"p{i}", i % 23, 1000 + (i * 37) % 1500) for i in range(200)]
    started = time.perf_counter()
    assert len(pairs(waiting)) == 100
    assert time.perf_counter() - started < 5  # a generous bound on a loaded machine; bench/ is for figures


def test_a_large_arena_is_matched_in_groups_whose_odd_one_joins_the_next() -> None:
    waiting = [Waiting(f"p{i}", i % 7, 1000 + (i * 53) % 1700) for i in range(2 * GROUP + 3)]
    made = pairs(waiting)
    seen = [w.player for w in itertools.chain.from_iterable(made)]
    assert len(made) == GROUP + 1 and len(seen) == len(set(seen))
