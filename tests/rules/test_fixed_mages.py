"""R12: the twelve fixed mages of floors 1-12."""

from __future__ import annotations

import pytest

from tests.rules.helpers import (
    arena_of,
    dead_of,
    occupant,
    play,
    position,
    powers,
    refused,
    remove,
    reserve_of,
    to_move,
)

TYPED = [
    ("necromancer", "undead", "U", "d4", "d5"),
    ("sorcerer", "beast", "B", "d4", "e5"),
    ("wizard", "myrmidon", "M", "d4", "f6"),
    ("warlock", "spirit", "S", "d4", "e7"),
    ("druid", "fey", "F", "d4", "e6"),
    ("artificer", "construct", "C", "d4", "d7"),
    ("elemental_master", "elemental", "E", "d4", "g7"),
    ("dragon_lord", "dragon", "D", "d4", "d8"),
]


@pytest.mark.parametrize(("mage", "kind", "letter", "start", "to"), TYPED)
def test_r12_typed_mage_moves_one_of_your_minions_of_its_type(mage, kind, letter, start, to):
    s = position({start: letter, "c2": "B" if kind != "beast" else "U", "h1": "u"},
                 tower={mage: "F" if kind != "fey" else "S"})
    moves = [p["move"] for p in powers(s, mage) if p and "move" in p]
    assert moves and all(m[0] == start for m in moves)
    s = play(s, remove(mage, {"move": [start, to]}))
    assert arena_of(s)[to] == letter


@pytest.mark.parametrize(("mage", "kind", "letter", "start", "to"), TYPED)
def test_r12_typed_mage_refuses_another_type(mage, kind, letter, start, to):
    other = "B" if kind != "beast" else "U"
    s = position({start: letter, "c2": other, "h1": "u"}, tower={mage: "F" if kind != "fey" else "S"})
    target = "d3" if other == "B" else "c3"  # a legal step for the other minion
    refused(s, remove(mage, {"move": ["c2", target]}), "R12", kind)


@pytest.mark.parametrize(("mage", "kind", "letter", "start", "to"), TYPED)
def test_r12_typed_mage_summons_one_of_its_type(mage, kind, letter, start, to):
    s = position({"h1": "u", "a8": "U"}, tower={mage: "F" if kind != "fey" else "S"})
    square = {"greater": "e1", "minor": "e4", "pawn": "e8"}[
        "greater" if kind in ("dragon", "elemental", "construct") else
        "minor" if kind in ("fey", "spirit", "myrmidon") else "pawn"]
    before = reserve_of(s, "white", kind)
    s = play(s, remove(mage, {"summon": square}))
    assert arena_of(s)[square] == letter
    assert reserve_of(s, "white", kind) == before - 1


def test_r12_typed_mage_moves_only_your_own_minions():
    s = position({"d4": "U", "e4": "u", "h8": "c"}, tower={"necromancer": "U"})
    assert all(p["move"][0] == "d4" for p in powers(s, "necromancer") if p and "move" in p)
    refused(s, remove("necromancer", {"move": ["e4", "e5"]}), "R12")


def test_r12_typed_mage_with_no_target_offers_only_declining():
    # No white undead in the arena and none in reserve (all three dead).
    s = position({"a1": "C", "h8": "c"}, tower={"necromancer": "B"},
                 dead={"white": {"undead": 3}})
    assert powers(s, "necromancer") == [None]
    refused(s, remove("necromancer", {"summon": "d4"}), "R5")
    refused(s, remove("necromancer", {"move": ["a1", "a2"]}), "R12")
    s = play(s, remove("necromancer"))
    assert reserve_of(s, "white", "beast") == 3


def test_r12_animist_moves_any_one_of_your_minions_with_capture():
    s = position({"d4": "F", "a1": "C", "e6": "s", "h8": "c"}, tower={"animist": "U"})
    movers = {p["move"][0] for p in powers(s, "animist") if p}
    assert movers == {"d4", "a1"}
    refused(s, remove("animist", {"move": ["e6", "d4"]}), "R12")
    s = play(s, remove("animist", {"move": ["d4", "e6"]}))
    assert dead_of(s, "black", "spirit") == 1


def test_r12_mystic_moves_to_any_empty_square_without_capture():
    s = position({"d4": "U", "e5": "c", "h8": "c"}, tower={"mystic": "U"})
    targets = [p["move"][1] for p in powers(s, "mystic") if p]
    assert len(targets) == 64 - 3 and "e5" not in targets
    refused(s, remove("mystic", {"move": ["d4", "e5"]}), "R12", "empty")
    s = play(s, remove("mystic", {"move": ["d4", "g8"]}))
    assert arena_of(s)["g8"] == "U"


def test_r12_oracle_takes_the_orb():
    s = position({"a1": "C", "h8": "c"}, turn="ab", tower={"oracle": "u", "animist": "U"})
    refused(s, remove("oracle", {"move": ["h8", "h7"]}), "R12", "{}")
    s = play(s, remove("oracle", {}))
    assert s.orb == 1 and to_move(s) == "white"


def test_r12_magician_clears_any_other_chamber_to_its_owners_reserve():
    s = position({"a1": "C", "h8": "c"},
                 tower={"magician": "U", "dragon_lord": "d", "animist": "B", "seer": "u"})
    targets = sorted(p["target"] for p in powers(s, "magician") if p)
    assert targets == ["animist", "dragon_lord", "seer"]
    before = reserve_of(s, "black", "dragon")
    s = play(s, remove("magician", {"target": "dragon_lord"}))
    assert occupant(s, "dragon_lord") == "." and reserve_of(s, "black", "dragon") == before + 1
    assert arena_of(s) == {"a1": "C", "h8": "c"}  # the Dragon Lord's power is not used
    # Its own minion too.
    s2 = position({"a1": "C", "h8": "c"}, tower={"magician": "U", "animist": "B", "seer": "u"})
    s2 = play(s2, remove("magician", {"target": "animist"}))
    assert occupant(s2, "animist") == "." and reserve_of(s2, "white", "beast") == 3


def test_r12_magician_refuses_an_empty_chamber_and_its_own():
    s = position({"a1": "C", "h8": "c"}, tower={"magician": "U", "seer": "u"})
    refused(s, remove("magician", {"target": "animist"}), "R12", "empty")
    refused(s, remove("magician", {"target": "magician"}), "R12")
    refused(s, remove("magician", {"target": "conjurer"}), "R12")  # not in this match


def test_r12_magician_clearing_the_last_opponent_minion_skips_the_opponent():
    s = position({"a1": "C", "h8": "c"}, tower={"magician": "U", "seer": "u", "animist": "U"})
    s = play(s, remove("magician", {"target": "seer"}))
    assert to_move(s) == "white"
