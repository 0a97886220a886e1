"""R1-R5: squares and sides, minions, movement, the backrow rule, summoning."""

from __future__ import annotations

import pytest

from app.rules import apply, new_match
from tests.rules.helpers import (
    BACKROW,
    SEED,
    arena_of,
    dead_of,
    play,
    position,
    powers,
    refused,
    remove,
    reserve_of,
    totals,
)

FAR_BLACK = {"h8": "u"}  # a black minion out of everyone's way


def moves_from(s, mage, square):
    return sorted(p["move"][1] for p in powers(s, mage) if p and "move" in p and p["move"][0] == square)


# ---- R1 squares and sides --------------------------------------------------

def test_r1_white_backrow_is_rank_1_and_black_backrow_is_rank_8():
    s = new_match(seed=SEED)
    s = play(s, {"type": "setup", "backrow": BACKROW})
    s = play(s, {"type": "setup", "backrow": BACKROW})
    arena = arena_of(s)
    assert {sq[1] for sq, letter in arena.items() if letter.isupper()} == {"1"}
    assert {sq[1] for sq, letter in arena.items() if letter.islower()} == {"8"}
    assert arena["a1"] == "C" and arena["a8"] == "c" and arena["h1"] == "M"


def test_r1_white_side_is_ranks_1_to_4_and_black_side_ranks_5_to_8():
    # A minor minion is summoned on its owner's side (R5), so the sides show.
    s = position({"a1": "C", "h8": "c"}, tower={"druid": "F"})
    targets = sorted(p["summon"] for p in powers(s, "druid") if p and "summon" in p)
    assert targets == sorted(f + r for f in "abcdefgh" for r in "1234" if f + r != "a1")
    s = position({"a1": "C", "h8": "c"}, turn="ab", tower={"druid": "f"})
    targets = sorted(p["summon"] for p in powers(s, "druid") if p and "summon" in p)
    assert targets == sorted(f + r for f in "abcdefgh" for r in "5678" if f + r != "h8")


# ---- R2 minions ------------------------------------------------------------

def test_r2_each_player_owns_24_minions_three_of_each_type():
    s = new_match(seed=SEED)
    assert totals(s) == [24, 24]
    assert all(reserve_of(s, c, k) == 3 for c in ("white", "black") for k in BACKROW)


def test_r2_a_captured_minion_goes_to_its_owners_dead_pile():
    s = position({"d4": "C", "d7": "e", "a8": "u"}, tower={"artificer": "U"})
    s = play(s, remove("artificer", {"move": ["d4", "d7"]}))
    assert arena_of(s) == {"d7": "C", "a8": "u"}
    assert dead_of(s, "black", "elemental") == 1
    assert totals(s) == [24, 24]


# ---- R3 movement -----------------------------------------------------------

@pytest.mark.parametrize(
    ("letter", "expected"),
    [
        ("F", "b3 b5 c2 c6 e2 e6 f3 f5"),  # fey: knight
        ("S", "a3 a5 c1 c7 e1 e7 g3 g5"),  # spirit: (3,1) leap
        ("M", "b2 b4 b6 d2 d6 f2 f4 f6"),  # myrmidon: exactly 2, 8 directions
        ("U", "c4 d3 d5 e4"),  # undead: 1 orthogonally
        ("B", "c3 c5 e3 e5"),  # beast: 1 diagonally
        ("C", "a4 b4 c4 d1 d2 d3 d5 d6 d7 d8 e4 f4 g4 h4"),  # construct: rook
        ("E", "a1 a7 b2 b6 c3 c5 e3 e5 f2 f6 g1 g7 h8"),  # elemental: bishop
    ],
)
def test_r3_each_type_moves_by_its_own_movement(letter, expected):
    # Black's only minion, on h8, is a capture target for the bishop only.
    s = position({"d4": letter, "h8": "u"}, tower={"animist": "U"})
    assert moves_from(s, "animist", "d4") == sorted(expected.split())


def test_r3_dragon_moves_like_a_queen():
    s = position({"d4": "D", "h8": "u"}, tower={"animist": "U"})
    rook = "a4 b4 c4 e4 f4 g4 h4 d1 d2 d3 d5 d6 d7 d8"
    bishop = "a1 b2 c3 e5 f6 g7 h8 a7 b6 c5 e3 f2 g1"
    assert moves_from(s, "animist", "d4") == sorted((rook + " " + bishop).split())


def test_r3_slides_are_blocked_and_capture_the_first_enemy_only():
    s = position({"d4": "C", "d6": "F", "f4": "b", "h4": "u", "a8": "u"}, tower={"artificer": "U"})
    assert moves_from(s, "artificer", "d4") == sorted(
        ["a4", "b4", "c4", "d1", "d2", "d3", "d5", "e4", "f4"])
    refused(s, remove("artificer", {"move": ["d4", "d7"]}), "R3")
    refused(s, remove("artificer", {"move": ["d4", "g4"]}), "R3")


def test_r3_leaps_ignore_what_stands_between():
    ring = dict(zip(("c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"), "UUBBMMSS", strict=True))
    s = position({"d4": "F", **ring, "h8": "u"}, tower={"druid": "C"})
    assert moves_from(s, "druid", "d4") == sorted(["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"])


def test_r3_a_minion_never_moves_onto_its_owners_minion():
    s = position({"d4": "F", "e6": "B", "f5": "b", "h8": "u"}, tower={"druid": "U"})
    moves = moves_from(s, "druid", "d4")
    assert "e6" not in moves and "f5" in moves
    refused(s, remove("druid", {"move": ["d4", "e6"]}), "R3", "owner")
    s = play(s, remove("druid", {"move": ["d4", "f5"]}))
    assert dead_of(s, "black", "beast") == 1 and arena_of(s)["f5"] == "F"


def test_r3_a_move_outside_the_movement_is_refused():
    s = position({"d4": "F", "h8": "u"}, tower={"druid": "U"})
    refused(s, remove("druid", {"move": ["d4", "d5"]}), "R3")


# ---- R4 the backrow rule ---------------------------------------------------

def test_r4_construct_on_backrow_cannot_slide_to_far_backrow():
    s = position({"a1": "C", "h8": "u"}, tower={"artificer": "U"})
    moves = moves_from(s, "artificer", "a1")
    assert "a7" in moves and "a8" not in moves
    err = refused(s, remove("artificer", {"move": ["a1", "a8"]}), "R4")
    assert "backrow" in str(err)


def test_r4_construct_on_backrow_cannot_capture_on_far_backrow():
    s = position({"a1": "C", "a8": "s", "h8": "u"}, tower={"artificer": "U"})
    assert "a8" not in moves_from(s, "artificer", "a1")
    refused(s, remove("artificer", {"move": ["a1", "a8"]}), "R4")


def test_r4_greater_minion_off_its_backrow_may_reach_the_far_backrow():
    s = position({"a2": "C", "a8": "s", "h8": "u"}, tower={"artificer": "U"})
    s = play(s, remove("artificer", {"move": ["a2", "a8"]}))
    assert arena_of(s)["a8"] == "C"


def test_r4_elemental_and_dragon_on_backrow_too():
    s = position({"a1": "E", "d1": "D", "b8": "u"}, tower={"animist": "U"})
    assert "h8" not in moves_from(s, "animist", "a1")
    assert "g7" in moves_from(s, "animist", "a1")
    assert "d8" not in moves_from(s, "animist", "d1") and "d7" in moves_from(s, "animist", "d1")
    refused(s, remove("animist", {"move": ["a1", "h8"]}), "R4")
    refused(s, remove("animist", {"move": ["d1", "d8"]}), "R4")


def test_r4_black_greater_minion_on_rank_8_cannot_reach_rank_1():
    s = position({"d8": "d", "h1": "U"}, turn="ab", tower={"dragon_lord": "u"})
    moves = moves_from(s, "dragon_lord", "d8")
    assert "d1" not in moves and "d2" in moves
    refused(s, remove("dragon_lord", {"move": ["d8", "d1"]}), "R4")


def test_r4_minor_and_pawn_minions_are_not_bound_by_it():
    # A fey on a1 reaches rank 8 by the Mystic: R4 is about greater minions.
    s = position({"a1": "F", "h8": "u"}, tower={"mystic": "U"})
    s = play(s, remove("mystic", {"move": ["a1", "a8"]}))
    assert arena_of(s)["a8"] == "F"


def test_r4_holds_for_the_mystics_jump():
    s = position({"c1": "C", "b2": "E", "h8": "u"}, tower={"mystic": "U"})
    targets = moves_from(s, "mystic", "c1")
    assert "a8" not in targets and "g8" not in targets and "a7" in targets
    refused(s, remove("mystic", {"move": ["c1", "a8"]}), "R4", "Mystic")
    # Off its backrow the same minion jumps anywhere empty.
    assert "a8" in moves_from(s, "mystic", "b2")


def test_r4_holds_for_the_mystics_jump_for_black():
    s = position({"e8": "e", "a1": "U"}, turn="ab", tower={"mystic": "u"})
    targets = moves_from(s, "mystic", "e8")
    assert not any(t.endswith("1") for t in targets) and "h2" in targets
    refused(s, remove("mystic", {"move": ["e8", "b1"]}), "R4")


def test_r4_holds_for_moves_made_by_the_mentalist():
    s = position({"a8": "c", "h1": "U"}, tower={"mentalist": "U"}, chaos=("mentalist", "seer", "magus", "force_mage"))
    targets = moves_from(s, "mentalist", "a8")
    assert "a1" not in targets and "a2" in targets
    refused(s, remove("mentalist", {"move": ["a8", "a1"]}), "R4")


def test_r4_holds_with_rune_master_knight_leaps():
    # Knight leaps are added to a greater minion on its backrow; the slide
    # to the far backrow stays forbidden.
    s = position({"b1": "C", "h8": "u"}, tower={"artificer": "U"}, runes="w")
    moves = moves_from(s, "artificer", "b1")
    assert {"a3", "c3", "d2"} <= set(moves)
    assert "b8" not in moves and "b7" in moves
    refused(s, remove("artificer", {"move": ["b1", "b8"]}), "R4")


def test_r4_does_not_hold_for_illusionist_swaps():
    s = position({"a1": "C", "a8": "u", "h8": "u"}, tower={"illusionist": "U"},
                 chaos=("illusionist", "seer", "magus", "force_mage"))
    s = play(s, remove("illusionist", {"swap": ["a1", "a8"]}))
    assert arena_of(s)["a8"] == "C" and arena_of(s)["a1"] == "u"


def test_r4_does_not_hold_for_alchemist_or_enchanter_replacements():
    s = position({"a8": "F", "h8": "u", "b1": "U"}, tower={"alchemist": "U"},
                 chaos=("alchemist", "seer", "magus", "force_mage"))
    s = play(s, remove("alchemist", {"square": "a8", "minion": "construct"}))
    assert arena_of(s)["a8"] == "C"
    s = position({"a8": "c", "h8": "u", "b1": "U"}, tower={"enchanter": "U"},
                 chaos=("enchanter", "seer", "magus", "force_mage"))
    s = play(s, remove("enchanter", {"square": "a8"}))
    assert arena_of(s)["a8"] == "C"


# ---- R5 summoning ----------------------------------------------------------

def test_r5_greater_minion_is_summoned_onto_its_owners_backrow_only():
    s = position({"a1": "C", "h8": "u"}, tower={"dragon_lord": "U"})
    targets = sorted(p["summon"] for p in powers(s, "dragon_lord") if p and "summon" in p)
    assert targets == ["b1", "c1", "d1", "e1", "f1", "g1", "h1"]
    refused(s, remove("dragon_lord", {"summon": "d2"}), "R5", "backrow")
    refused(s, remove("dragon_lord", {"summon": "a1"}), "R5", "occupied")
    s = play(s, remove("dragon_lord", {"summon": "d1"}))
    assert arena_of(s)["d1"] == "D" and reserve_of(s, "white", "dragon") == 2


def test_r5_black_greater_minion_is_summoned_onto_rank_8():
    s = position({"a1": "C", "h8": "u"}, turn="ab", tower={"artificer": "b"})
    targets = sorted(p["summon"] for p in powers(s, "artificer") if p and "summon" in p)
    assert targets == ["a8", "b8", "c8", "d8", "e8", "f8", "g8"]


def test_r5_minor_minion_is_summoned_onto_its_owners_side():
    s = position({"a1": "C", "h8": "u"}, tower={"warlock": "U"})
    refused(s, remove("warlock", {"summon": "d5"}), "R5", "side")
    s = play(s, remove("warlock", {"summon": "d4"}))
    assert arena_of(s)["d4"] == "S"


def test_r5_pawn_minion_is_summoned_onto_any_empty_square():
    s = position({"a1": "C", "h8": "u"}, tower={"sorcerer": "U"})
    targets = sorted(p["summon"] for p in powers(s, "sorcerer") if p and "summon" in p)
    assert len(targets) == 62
    s = play(s, remove("sorcerer", {"summon": "g8"}))
    assert arena_of(s)["g8"] == "B"


def test_r5_summon_needs_a_minion_of_that_type_in_reserve():
    # All three white myrmidons are in the arena: the Wizard can only move one.
    s = position({"a1": "M", "b1": "M", "c1": "M", "h8": "u"}, tower={"wizard": "U"})
    assert reserve_of(s, "white", "myrmidon") == 0
    assert not any(p and "summon" in p for p in powers(s, "wizard"))
    refused(s, remove("wizard", {"summon": "d1"}), "R5", "reserve")


def test_r5_summoned_minion_leaves_the_reserve():
    s = position({"a1": "C", "h8": "u"}, tower={"necromancer": "B"})
    before = reserve_of(s, "white", "undead")
    s, _ = apply(s, remove("necromancer", {"summon": "e5"}))
    assert reserve_of(s, "white", "undead") == before - 1
    assert reserve_of(s, "white", "beast") == 3  # the beast came off the chamber
