"""R15 victory, R16 the other endings (no progress, resignation, agreement, time)."""

from __future__ import annotations

import pytest

from app.rules import (
    DEFAULT_NO_PROGRESS_ROUNDS,
    OVER,
    SETUP,
    IllegalAction,
    MalformedAction,
    MatchOver,
    apply,
    conclude,
    legal_actions,
    new_match,
    winning_reason,
)
from tests.rules.helpers import (
    BACKROW,
    SEED,
    arena_of,
    play,
    position,
    refused,
    remove,
    snapshot,
    to_move,
)


def over_with(s, winner, reason):
    assert s.phase == OVER
    assert s.result == {"winner": winner, "reason": reason}
    assert legal_actions(s) == []


# ---- R15 victory -----------------------------------------------------------

def test_r15_eliminating_the_last_opponent_minion_wins_mid_phase():
    s = position({"d4": "C", "d7": "e"}, tower={"artificer": "U", "animist": "u", "mystic": "U"})
    s = play(s, remove("artificer", {"move": ["d4", "d7"]}))
    over_with(s, "white", "eliminated")
    # The tower still holds minions: the match ended mid-phase, at once.
    assert s.occupant.count(0) < len(s.occupant)
    err = refused(s, remove("mystic"), "R15")
    assert isinstance(err, MatchOver)


def test_r15_elimination_by_any_cause_shadow_mage():
    s = position({"d4": "U", "d5": "c"}, tower={"shadow_mage": "B", "animist": "u"})
    s = play(s, remove("shadow_mage", {"square": "d5"}))
    over_with(s, "white", "eliminated")


def test_r15_elimination_by_any_cause_enchanter():
    s = position({"d4": "U", "d5": "c"}, turn="ab", tower={"enchanter": "b", "animist": "U"},
                 chaos=("enchanter", "seer", "magus", "force_mage"))
    s = play(s, remove("enchanter", {"square": "d4"}))
    assert arena_of(s) == {"d4": "u", "d5": "c"}
    over_with(s, "black", "eliminated")


def test_r15_five_greater_minions_captured_wins():
    s = position({"d4": "C", "d7": "c", "h8": "u"}, tower={"artificer": "U", "animist": "u"},
                 dead={"black": {"dragon": 2, "elemental": 2}})
    s = play(s, remove("artificer", {"move": ["d4", "d7"]}))
    over_with(s, "white", "five_greater")


def test_r15_three_greater_minions_of_one_type_wins():
    s = position({"d4": "C", "d7": "c", "h8": "u"}, tower={"artificer": "U", "animist": "u"},
                 dead={"black": {"construct": 2, "dragon": 1}})
    s = play(s, remove("artificer", {"move": ["d4", "d7"]}))
    over_with(s, "white", "three_of_a_kind")


def test_r15_minor_and_pawn_captures_do_not_count():
    s = position({"d4": "C", "d7": "f", "h8": "u"}, tower={"artificer": "U", "animist": "u"},
                 dead={"black": {"fey": 2, "undead": 1, "beast": 3, "spirit": 3}})
    s = play(s, remove("artificer", {"move": ["d4", "d7"]}))
    assert not s.over and winning_reason(s, 0) is None


def test_r15_black_wins_too():
    s = position({"d4": "C", "d7": "c", "a1": "U"}, turn="ab",
                 tower={"artificer": "u", "animist": "U"}, dead={"white": {"dragon": 2}})
    s = play(s, remove("artificer", {"move": ["d7", "d4"]}))
    assert not s.over
    s = position({"d4": "D", "d7": "c", "a1": "U"}, turn="ab",
                 tower={"artificer": "u", "animist": "U"}, dead={"white": {"dragon": 2}})
    s = play(s, remove("artificer", {"move": ["d7", "d4"]}))
    over_with(s, "black", "three_of_a_kind")


def test_r15_both_at_once_the_player_who_acted_wins():
    # Both dead piles already hold three of a kind: whoever acts next wins.
    dead = {"white": {"dragon": 3}, "black": {"construct": 3}}
    board = {"a1": "C", "h8": "e"}
    s = position(board, turn="ab", dead=dead, tower={"animist": "u", "mystic": "U"})
    after = play(s, remove("animist"))
    over_with(after, "black", "three_of_a_kind")
    s = position(board, turn="aw", dead=dead, tower={"animist": "u", "mystic": "U"})
    after = play(s, remove("mystic"))
    over_with(after, "white", "three_of_a_kind")


def test_r15_both_at_once_elimination_and_five_greater_the_actor_wins():
    # White captures Black's last minion while White's own dead pile already
    # holds five greater minions: both would win, White acted.
    s = position({"d4": "C", "d7": "u"}, tower={"artificer": "U", "animist": "u"},
                 dead={"white": {"dragon": 2, "elemental": 2, "construct": 1}})
    s = play(s, remove("artificer", {"move": ["d4", "d7"]}))
    over_with(s, "white", "eliminated")


def test_r15_no_check_before_both_setups_are_done():
    s = new_match(seed=SEED)
    s = play(s, {"type": "setup", "backrow": BACKROW})
    assert s.phase == SETUP and not s.over and to_move(s) == "black"


def test_r15_every_action_is_refused_once_the_match_is_over():
    s = position({"d4": "C", "d7": "e"}, tower={"artificer": "U", "animist": "u"})
    s = play(s, remove("artificer", {"move": ["d4", "d7"]}))
    for action in ({"type": "pass"}, {"type": "setup", "backrow": BACKROW},
                   {"type": "place", "mage": "animist", "minion": "beast"}, remove("animist")):
        refused(s, action, "R15")


# ---- R16 other endings ----------------------------------------------------

def test_r16_default_no_progress_rounds_is_10():
    assert DEFAULT_NO_PROGRESS_ROUNDS == 10
    assert new_match(seed=SEED).no_progress_rounds == 10


def test_r16_a_round_without_capture_counts_towards_the_draw():
    s = position({"a1": "C", "h8": "c"}, tower={"animist": "U"}, quiet="3")
    s = play(s, remove("animist"))
    assert s.quiet == 4 and not s.over


def test_r16_draw_after_that_many_whole_rounds_without_capture():
    s = position({"a1": "C", "h8": "c"}, tower={"animist": "U"}, quiet="9")
    s = play(s, remove("animist"))
    over_with(s, None, "no_progress")


def test_r16_draw_uses_the_match_option():
    s = position({"a1": "C", "h8": "c"}, tower={"animist": "U"}, quiet="2", no_progress_rounds=3)
    s = play(s, remove("animist"))
    over_with(s, None, "no_progress")


def test_r16_a_capture_this_round_resets_the_count():
    s = position({"a1": "C", "h8": "c"}, tower={"animist": "U"}, quiet="9*")
    s = play(s, remove("animist"))
    assert not s.over and s.quiet == 0 and not s.captured


def test_r16_a_capture_on_the_last_turn_of_the_round_resets_the_count():
    s = position({"a1": "C", "a5": "u", "h8": "c"}, tower={"animist": "U"}, quiet="9")
    s = play(s, remove("animist", {"move": ["a1", "a5"]}))
    assert not s.over and s.quiet == 0


def test_r16_sending_to_reserve_is_not_a_capture():
    s = position({"d4": "U", "d5": "u", "h8": "c"}, tower={"shadow_mage": "B"}, quiet="9")
    s = play(s, remove("shadow_mage", {"square": "d5"}))
    over_with(s, None, "no_progress")


def test_r16_zero_turns_the_no_progress_draw_off():
    s = position({"a1": "C", "h8": "c"}, tower={"animist": "U"}, quiet="40", no_progress_rounds=0)
    s = play(s, remove("animist"))
    assert not s.over and s.quiet == 41


def test_r16_zero_off_in_a_whole_match():
    s = new_match(seed=SEED, no_progress_rounds=0)
    s = play(s, {"type": "setup", "backrow": BACKROW})
    s = play(s, {"type": "setup", "backrow": BACKROW})
    for _ in range(25):  # both pass: nothing ever happens
        s = play(s, {"type": "pass"})
        s = play(s, {"type": "pass"})
    assert not s.over and s.round == 26 and s.quiet == 25


def test_r16_whole_match_of_passes_is_drawn_after_ten_rounds():
    s = new_match(seed=SEED)
    s = play(s, {"type": "setup", "backrow": BACKROW})
    s = play(s, {"type": "setup", "backrow": BACKROW})
    for _ in range(9):
        s = play(s, {"type": "pass"})
        s = play(s, {"type": "pass"})
    assert not s.over and s.round == 10
    s = play(s, {"type": "pass"})
    s = play(s, {"type": "pass"})
    over_with(s, None, "no_progress")


@pytest.mark.parametrize(("winner", "reason"), [
    ("black", "resigned"), ("white", "resigned"), ("white", "timeout"), (None, "agreement"),
    (None, "aborted"),
])
def test_r16_resignation_time_and_agreement_end_the_match(winner, reason):
    s = position({"a1": "C", "h8": "c"}, tower={"animist": "U"})
    before = snapshot(s)
    after = conclude(s, winner, reason)
    assert snapshot(s) == before
    over_with(after, winner, reason)
    with pytest.raises(MatchOver):
        conclude(after, winner, reason)
    with pytest.raises(IllegalAction):
        apply(after, remove("animist"))


def test_r16_conclude_refuses_an_unknown_reason():
    s = position({"a1": "C", "h8": "c"}, tower={"animist": "U"})
    with pytest.raises(MalformedAction):
        conclude(s, "white", "checkmate")


def test_r16_engine_reading_a_dead_position_is_drawn_even_with_the_rule_off():
    # The last minions in the tower are summoned: every minion of both players
    # is then in the arena, nothing can ever be placed again (docs/rules.md).
    white = dict(zip([f + r for r in "123" for f in "abcdefgh"][:23], "DECFSMUB" * 2 + "DECFSMU", strict=True))
    black = dict(zip([f + r for r in "876" for f in "abcdefgh"][:23], "decfsmub" * 2 + "decfsmb", strict=True))
    s = position({**white, **black}, tower={"sorcerer": "B", "necromancer": "u"},
                 no_progress_rounds=0)
    s = play(s, remove("sorcerer", {"summon": "d4"}))
    assert not s.over and sum(s.reserve) == 0
    s = play(s, remove("necromancer", {"summon": "d5"}))
    over_with(s, None, "no_progress")
