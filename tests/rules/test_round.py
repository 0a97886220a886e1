"""R8-R11 and R13: the round, its two phases, automatic passes, the Orb."""

from __future__ import annotations

from app.rules import ACTION, DECISION, apply, legal_actions
from tests.rules.helpers import (
    PASS,
    arena_of,
    occupant,
    place,
    play,
    position,
    refused,
    remove,
    reserve_of,
    to_move,
)

TWO = {"a1": "C", "h8": "c"}
# Fifteen chambers full: White one of each type, Black seven; the Shadow Mage
# (floor 16) is the one left empty.
FIFTEEN = dict(zip(
    ["necromancer", "sorcerer", "wizard", "warlock", "druid", "artificer", "elemental_master",
     "dragon_lord", "animist", "mystic", "oracle", "magician", "seer", "magus", "force_mage"],
    "DdEeCcFfSsMmUuB", strict=True))
# Black has nothing in reserve: nine greater minions in the arena, fifteen
# minor and pawn minions dead (no greater dead, so nobody has won).
BLACK_SPENT = {f + r: "dec"[i % 3] for i, (f, r) in enumerate(
    (f, r) for r in "78" for f in "abcdefgh")}
BLACK_SPENT = dict(list(BLACK_SPENT.items())[:9])
BLACK_DEAD = {"black": {"fey": 3, "spirit": 3, "myrmidon": 3, "undead": 3, "beast": 3}}


# ---- R8 the round ----------------------------------------------------------

def test_r8_turns_alternate_in_the_decision_phase_from_the_orb_holder():
    s = position(TWO, turn="dw")
    s = play(s, place("animist", "beast"))
    assert to_move(s) == "black" and s.phase == DECISION
    s = play(s, place("mystic", "beast"))
    assert to_move(s) == "white"


def test_r8_orb_holder_takes_the_first_turn_of_the_action_phase():
    # White ends the decision phase, but Black holds the Orb and starts.
    s = position(TWO, turn="dw", orb="b", passed="b", tower={"animist": "U", "mystic": "u"})
    s = play(s, PASS)
    assert s.phase == ACTION and to_move(s) == "black"


def test_r8_orb_holder_takes_the_first_turn_of_the_next_round():
    s = position(TWO, turn="aw", orb="b", tower={"animist": "U"})
    s = play(s, remove("animist"))
    assert s.phase == DECISION and s.round == 2 and to_move(s) == "black"


def test_r8_turns_alternate_in_the_action_phase():
    s = position(TWO, tower={"animist": "U", "mystic": "U", "oracle": "u", "magician": "u"})
    s = play(s, remove("animist"))
    assert to_move(s) == "black"
    s = play(s, remove("oracle"))
    assert to_move(s) == "white"


# ---- R9 the decision phase -------------------------------------------------

def test_r9_place_a_minion_from_reserve_on_an_empty_chamber():
    s = position(TWO, turn="dw")
    s = play(s, place("seer", "dragon"))
    assert occupant(s, "seer") == "D" and reserve_of(s, "white", "dragon") == 2


def test_r9_any_type_may_go_on_any_chamber():
    s = position(TWO, turn="dw")
    placements = {(a["mage"], a["minion"]) for a in map(_json, legal_actions(s)) if a["type"] == "place"}
    assert len(placements) == 16 * 8


def test_r9_a_chamber_holds_one_minion():
    s = position(TWO, turn="dw", tower={"animist": "u"})
    refused(s, place("animist", "beast"), "R9", "occupied")


def test_r9_place_only_what_is_in_reserve():
    s = position({"a1": "C", "b1": "C", "c1": "C", "h8": "c"}, turn="dw")
    refused(s, place("animist", "construct"), "R9", "construct")


def test_r9_place_only_on_a_chamber_in_play():
    s = position(TWO, turn="dw")  # the standard tower has no Conjurer here
    refused(s, place("conjurer", "beast"), "R6")


def test_r9_a_pass_is_final_and_the_other_goes_on_alone():
    s = position(TWO, turn="dw")
    s = play(s, PASS)
    assert to_move(s) == "black" and s.passed == 1
    for mage in ("animist", "mystic", "oracle"):
        s = play(s, place(mage, "beast" if mage != "oracle" else "undead"))
        assert to_move(s) == "black" and s.phase == DECISION
    assert PASS in _all_json(s)


def test_r9_the_phase_ends_when_both_players_have_passed():
    s = position(TWO, turn="dw", tower={"animist": "U", "mystic": "u"})
    s = play(s, PASS)
    s = play(s, PASS)
    assert s.phase == ACTION and to_move(s) == "white"


def test_r9_the_phase_ends_when_every_chamber_is_occupied():
    s = position(TWO, turn="dw", tower=FIFTEEN)
    s = play(s, place("shadow_mage", "beast"))
    assert s.phase == ACTION and to_move(s) == "white" and s.passed == 0


def test_r9_placing_after_the_phase_is_refused():
    s = position(TWO, tower={"animist": "U"})
    refused(s, place("mystic", "beast"), "R9")
    refused(s, PASS, "R9")


# ---- R10 the action phase --------------------------------------------------

def test_r10_removed_minion_goes_to_the_reserve_when_the_power_is_declined():
    s = position(TWO, tower={"animist": "F", "mystic": "u"})
    before = reserve_of(s, "white", "fey")
    s = play(s, remove("animist"))
    assert occupant(s, "animist") == "." and reserve_of(s, "white", "fey") == before + 1
    assert arena_of(s) == TWO


def test_r10_a_dragon_taken_off_the_dragon_lord_may_be_summoned_at_once():
    # The other two white dragons stand in the arena: the reserve is empty
    # until the one on the Dragon Lord comes off it.
    s = position({"a1": "D", "b2": "D", "h8": "c"}, tower={"dragon_lord": "D"})
    assert reserve_of(s, "white", "dragon") == 0
    assert {"summon": "e1"} in [p for p in _powers(s, "dragon_lord")]
    s = play(s, remove("dragon_lord", {"summon": "e1"}))
    assert arena_of(s)["e1"] == "D" and reserve_of(s, "white", "dragon") == 0


def test_r10_remove_only_your_own_minion():
    s = position(TWO, tower={"animist": "u", "mystic": "U"})
    refused(s, remove("animist"), "R10")
    refused(s, remove("oracle"), "R10")  # empty chamber
    refused(s, remove("conjurer"), "R6")  # not in this tower


def test_r10_a_player_with_no_minion_in_the_tower_is_skipped():
    s = position(TWO, tower={"animist": "U", "mystic": "u", "oracle": "u", "magician": "u"})
    s, autos = apply(s, remove("animist"))
    assert to_move(s) == "black" and autos == []
    s, autos = apply(s, remove("mystic"))
    assert to_move(s) == "black" and autos == []  # a skip is not an action (R11)
    s, autos = apply(s, remove("oracle"))
    assert to_move(s) == "black" and autos == []
    assert s.phase == ACTION


def test_r10_when_the_tower_is_empty_the_round_ends_and_round_effects_end():
    s = position({"a1": "C", "d4": "f", "h8": "c"}, tower={"animist": "U"},
                 wards=("d4",), runes="wb", round=3)
    s = play(s, remove("animist"))
    assert s.phase == DECISION and s.round == 4 and to_move(s) == "white"
    assert s.wards == 0 and s.runes == 0


def test_r10_the_action_phase_starts_with_the_other_player_when_the_orb_holder_has_none():
    s = position(TWO, turn="dw", tower={"animist": "u"}, passed="b")
    s = play(s, PASS)
    assert s.phase == ACTION and to_move(s) == "black"


def test_r10_an_empty_tower_after_the_decision_phase_ends_the_round_at_once():
    s = position(TWO, turn="dw", passed="b")
    s = play(s, PASS)
    assert s.phase == DECISION and s.round == 2 and to_move(s) == "white" and s.passed == 0


# ---- R11 forced moves are automatic ---------------------------------------

def test_r11_a_player_with_an_empty_reserve_is_passed_automatically():
    s = position({"a1": "C", **BLACK_SPENT}, turn="dw", dead=BLACK_DEAD)
    assert sum(s.reserve[8:]) == 0
    s, autos = apply(s, place("animist", "beast"))
    assert autos == [(1, ("pass",))]
    assert to_move(s) == "white" and s.passed == 2 and s.phase == DECISION
    assert legal_actions(s) and all(a[0] in ("place", "pass") for a in legal_actions(s))


def test_r11_automatic_pass_at_the_start_of_a_round():
    # Black holds the Orb but has no reserve: its pass is played for it.
    s = position({"a1": "C", **BLACK_SPENT}, orb="b", dead=BLACK_DEAD, tower={"animist": "U"})
    s, autos = apply(s, remove("animist"))
    assert autos == [(1, ("pass",))]
    assert s.round == 2 and s.phase == DECISION and to_move(s) == "white" and s.passed == 2


def test_r11_automatic_pass_when_no_empty_chamber_may_be_used():
    # Archmage: every public chamber but the Magician's is taken; White's
    # private chamber is full, Black's is empty. Once Black takes the
    # Magician, White has a reserve but nowhere to place.
    tower = {k: v for k, v in FIFTEEN.items() if k != "magician"}
    s = position(TWO, turn="db", variant="archmage", chaos=("seer", "magus", "force_mage", None),
                 private=(["rune_master"], ["conjurer"]), tower={**tower, "rune_master": "M"})
    s, autos = apply(s, place("magician", "beast"))
    assert autos == [(0, ("pass",))]
    assert to_move(s) == "black" and s.phase == DECISION
    assert _all_json(s) == [place("conjurer", k) for k in _black_reserve_types(s)] + [PASS]
    s, autos = apply(s, place("conjurer", "undead"))
    assert autos == [] and s.phase == ACTION


def test_r11_a_skipped_action_turn_is_not_recorded():
    s = position(TWO, tower={"animist": "U", "mystic": "u", "oracle": "u"})
    _, autos = apply(s, remove("animist"))
    assert autos == []


# ---- R13 the Orb -----------------------------------------------------------

def test_r13_orb_taken_mid_action_phase_only_affects_the_next_phase():
    s = position(TWO, turn="ab", orb="w",
                 tower={"oracle": "b", "animist": "U", "necromancer": "u", "mystic": "U"})
    s = play(s, remove("oracle", {}))
    assert s.orb == 1
    assert to_move(s) == "white"  # the phase in progress keeps its order
    s = play(s, remove("animist"))
    assert to_move(s) == "black"
    s = play(s, remove("necromancer"))
    assert to_move(s) == "white"
    s = play(s, remove("mystic"))
    assert s.phase == DECISION and s.round == 2 and to_move(s) == "black"


def test_r13_oracle_is_always_available_even_to_the_orb_holder():
    s = position(TWO, tower={"oracle": "U", "mystic": "u"})
    assert _powers(s, "oracle") == [None, {}]
    s = play(s, remove("oracle", {}))
    assert s.orb == 0


# ---- helpers ---------------------------------------------------------------

def _json(action):
    from app.rules import action_json

    return action_json(action)


def _all_json(s):
    return [_json(a) for a in legal_actions(s)]


def _powers(s, mage):
    return [a["power"] for a in _all_json(s) if a["type"] == "remove" and a["mage"] == mage]


def _black_reserve_types(s):
    from app.rules.minions import TYPES

    return [TYPES[k] for k in range(8) if s.reserve[8 + k]]


def test_r11_apply_steps_gives_each_automatic_pass_with_the_state_it_leaves():
    from app.rules import apply_steps, automatic_action

    s = position({"a1": "C", **BLACK_SPENT}, orb="b", dead=BLACK_DEAD, tower={"animist": "U"})
    steps = apply_steps(s, remove("animist"))
    assert [(colour, action) for colour, action, _ in steps] == [
        (0, ("remove", 8, None)), (1, ("pass",))]
    first, last = steps[0][2], steps[1][2]
    assert first.round == 2 and to_move(first) == "black"
    assert automatic_action(first) == ("pass",) and automatic_action(last) is None
    assert last == apply(s, remove("animist"))[0]
