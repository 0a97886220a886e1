"""R14: the chaos mages, the Dream Lord's borrowing and the Force Mage's ward."""

from __future__ import annotations

import pytest

from app.rules import ACTION, DECISION, apply
from app.rules.mages import CHAOS_MAGES, MAGES
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

TWO = {"a1": "C", "h8": "c"}


def tower_with(*mages):
    """Chaos floors 13-16 holding these mages first, filled up with others."""
    rest = [MAGES[m] for m in CHAOS_MAGES if MAGES[m] not in mages]
    return tuple(list(mages) + rest[:4 - len(mages)])


# ---- Seer -----------------------------------------------------------------

SEER_TOWER = {"seer": "U", "animist": "B", "mystic": "F", "oracle": "S",
              "necromancer": "u", "sorcerer": "b", "wizard": "f"}


def test_r14_seer_offers_both_players_and_is_always_available():
    s = position(TWO, tower={"seer": "U"})
    assert powers(s, "seer") == [None, {"player": "white"}, {"player": "black"}]


def test_r14_seer_choosing_yourself_gives_you_the_next_two_turns():
    s = position(TWO, tower=SEER_TOWER)
    s = play(s, remove("seer", {"player": "white"}))
    assert to_move(s) == "white"
    s = play(s, remove("animist"))
    assert to_move(s) == "white"
    s = play(s, remove("mystic"))
    assert to_move(s) == "black"  # alternation restarts with the other player
    s = play(s, remove("necromancer"))
    assert to_move(s) == "white"
    s = play(s, remove("oracle"))
    assert to_move(s) == "black"


def test_r14_seer_choosing_the_opponent_gives_them_the_next_two_turns():
    s = position(TWO, tower=SEER_TOWER)
    s = play(s, remove("seer", {"player": "black"}))
    assert to_move(s) == "black"
    s = play(s, remove("necromancer"))
    assert to_move(s) == "black"
    s = play(s, remove("sorcerer"))
    assert to_move(s) == "white"  # alternation restarts with the other player
    s = play(s, remove("animist"))
    assert to_move(s) == "black"


def test_r14_seer_opponent_with_one_minion_left_loses_the_surplus_turn():
    s = position(TWO, tower={"seer": "U", "animist": "B", "mystic": "F", "necromancer": "u"})
    s = play(s, remove("seer", {"player": "black"}))
    assert to_move(s) == "black"
    s = play(s, remove("necromancer"))
    assert to_move(s) == "white" and s.owed == ()
    s = play(s, remove("animist"))
    assert to_move(s) == "white"  # Black has none left: skipped (R10)


def test_r14_seer_opponent_with_no_minion_left_loses_both_turns():
    s = position(TWO, tower={"seer": "U", "animist": "B", "mystic": "F"})
    s = play(s, remove("seer", {"player": "black"}))
    assert to_move(s) == "white" and s.owed == ()
    assert s.phase == ACTION


def test_r14_seer_yourself_with_one_minion_left_then_the_other_player():
    s = position(TWO, tower={"seer": "U", "animist": "B", "necromancer": "u", "sorcerer": "b"})
    s = play(s, remove("seer", {"player": "white"}))
    assert to_move(s) == "white"
    s = play(s, remove("animist"))
    assert to_move(s) == "black" and s.owed == ()
    s = play(s, remove("necromancer"))
    assert to_move(s) == "black"


def test_r14_seer_yourself_with_no_minion_left_passes_to_the_other_player():
    s = position(TWO, tower={"seer": "U", "necromancer": "u", "sorcerer": "b"})
    s = play(s, remove("seer", {"player": "white"}))
    assert to_move(s) == "black" and s.owed == ()
    s = play(s, remove("necromancer"))
    assert to_move(s) == "black"


def test_r14_seer_for_black_mirrors_white():
    s = position(TWO, turn="ab", tower={**{k: v.swapcase() for k, v in SEER_TOWER.items()}})
    s = play(s, remove("seer", {"player": "white"}))
    assert to_move(s) == "white"
    s = play(s, remove("necromancer"))
    assert to_move(s) == "white"
    s = play(s, remove("sorcerer"))
    assert to_move(s) == "black"


def test_r14_seer_turns_end_with_the_round():
    s = position(TWO, tower={"seer": "U", "necromancer": "u"})
    s = play(s, remove("seer", {"player": "black"}))
    s = play(s, remove("necromancer"))
    assert s.phase == DECISION and s.owed == () and to_move(s) == "white"


# ---- Magus ----------------------------------------------------------------

def test_r14_magus_sends_the_minion_to_another_empty_chamber():
    s = position(TWO, orb="b", tower={"magus": "F", "animist": "u", "mystic": "b"})
    targets = {p["target"] for p in powers(s, "magus") if p}
    assert "magus" not in targets and "animist" not in targets and "oracle" in targets
    before = reserve_of(s, "white", "fey")
    s = play(s, remove("magus", {"target": "oracle"}))
    assert occupant(s, "oracle") == "F" and occupant(s, "magus") == "."
    assert reserve_of(s, "white", "fey") == before
    # Its power is used when it is removed later.
    s = play(s, remove("animist"))
    s = play(s, remove("oracle", {}))
    assert s.orb == 0 and reserve_of(s, "white", "fey") == before + 1
    assert to_move(s) == "black"


def test_r14_magus_refuses_its_own_chamber_and_occupied_ones():
    s = position(TWO, tower={"magus": "F", "animist": "u"})
    refused(s, remove("magus", {"target": "magus"}), "R14")
    refused(s, remove("magus", {"target": "animist"}), "R14")
    refused(s, remove("magus", {"target": "conjurer"}), "R14")  # not in play


def test_r14_magus_declined_sends_the_minion_to_the_reserve():
    s = position(TWO, tower={"magus": "F", "animist": "u"})
    before = reserve_of(s, "white", "fey")
    s = play(s, remove("magus"))
    assert reserve_of(s, "white", "fey") == before + 1 and occupant(s, "magus") == "."


# ---- Conjurer -------------------------------------------------------------

def test_r14_conjurer_summons_the_minion_itself():
    chaos = tower_with("conjurer")
    s = position(TWO, tower={"conjurer": "E", "animist": "u"}, chaos=chaos)
    targets = sorted(p["summon"] for p in powers(s, "conjurer") if p)
    assert targets == ["b1", "c1", "d1", "e1", "f1", "g1", "h1"]  # R5: a greater minion
    before = reserve_of(s, "white", "elemental")
    refused(s, remove("conjurer", {"summon": "d4"}), "R5")
    s = play(s, remove("conjurer", {"summon": "f1"}))
    assert arena_of(s)["f1"] == "E" and reserve_of(s, "white", "elemental") == before


def test_r14_conjurer_pawn_goes_anywhere_empty():
    s = position(TWO, tower={"conjurer": "u", "animist": "U"}, turn="ab", chaos=tower_with("conjurer"))
    s = play(s, remove("conjurer", {"summon": "d2"}))
    assert arena_of(s)["d2"] == "u"


# ---- Alchemist ------------------------------------------------------------

def test_r14_alchemist_swaps_your_arena_minion_with_a_reserve_minion_of_another_type():
    s = position({"d4": "U", "h8": "c", "h1": "u"}, tower={"alchemist": "F", "animist": "u"},
                 chaos=tower_with("alchemist"))
    options = [p for p in powers(s, "alchemist") if p]
    assert {o["square"] for o in options} == {"d4"}
    assert "undead" not in {o["minion"] for o in options}
    refused(s, remove("alchemist", {"square": "d4", "minion": "undead"}), "R14", "different type")
    refused(s, remove("alchemist", {"square": "h1", "minion": "dragon"}), "R14")
    undead, dragon = reserve_of(s, "white", "undead"), reserve_of(s, "white", "dragon")
    s = play(s, remove("alchemist", {"square": "d4", "minion": "dragon"}))
    assert arena_of(s)["d4"] == "D"  # R5 does not apply: a dragon off the backrow
    assert reserve_of(s, "white", "undead") == undead + 1
    assert reserve_of(s, "white", "dragon") == dragon - 1


def test_r14_alchemist_may_use_the_minion_just_removed():
    # All other white fey are in the arena: the one off the chamber is the only one.
    s = position({"d4": "U", "a2": "F", "b2": "F", "h8": "c"}, tower={"alchemist": "F", "animist": "u"},
                 chaos=tower_with("alchemist"))
    assert reserve_of(s, "white", "fey") == 0
    s = play(s, remove("alchemist", {"square": "d4", "minion": "fey"}))
    assert arena_of(s)["d4"] == "F" and reserve_of(s, "white", "fey") == 0


def test_r14_alchemist_needs_the_type_in_reserve():
    s = position({"d4": "U", "a1": "D", "b1": "D", "c1": "D", "h8": "c"},
                 tower={"alchemist": "F", "animist": "u"}, chaos=tower_with("alchemist"))
    refused(s, remove("alchemist", {"square": "d4", "minion": "dragon"}), "R14", "reserve")


# ---- Mentalist ------------------------------------------------------------

def test_r14_mentalist_moves_an_opponent_minion_without_capture():
    s = position({"d5": "c", "d2": "U", "h1": "U", "h8": "u"}, tower={"mentalist": "B"},
                 chaos=tower_with("mentalist"))
    moves = [p["move"] for p in powers(s, "mentalist") if p]
    assert {m[0] for m in moves} == {"d5", "h8"}
    assert ["d5", "d2"] not in moves and ["d5", "d3"] in moves and ["d5", "d1"] not in moves
    refused(s, remove("mentalist", {"move": ["d5", "d2"]}), "R14", "capture")
    refused(s, remove("mentalist", {"move": ["d2", "d3"]}), "R14", "opponent")
    refused(s, remove("mentalist", {"move": ["d5", "e6"]}), "R3")
    s = play(s, remove("mentalist", {"move": ["d5", "a5"]}))
    assert arena_of(s)["a5"] == "c"


# ---- Enchanter ------------------------------------------------------------

def test_r14_enchanter_replaces_an_opponent_minion_with_yours_of_that_type():
    s = position({"e5": "s", "d5": "d", "a1": "S", "b1": "S", "c1": "S", "h8": "u"},
                 tower={"enchanter": "U"}, chaos=tower_with("enchanter"))
    squares = {p["square"] for p in powers(s, "enchanter") if p}
    assert squares == {"d5", "h8"}  # no white spirit in reserve for e5
    refused(s, remove("enchanter", {"square": "e5"}), "R14", "spirit")
    refused(s, remove("enchanter", {"square": "a1"}), "R14", "opponent")
    black, white = reserve_of(s, "black", "dragon"), reserve_of(s, "white", "dragon")
    s = play(s, remove("enchanter", {"square": "d5"}))
    assert arena_of(s)["d5"] == "D"
    assert reserve_of(s, "black", "dragon") == black + 1
    assert reserve_of(s, "white", "dragon") == white - 1
    assert dead_of(s, "black", "dragon") == 0  # not a capture


# ---- Illusionist ----------------------------------------------------------

def test_r14_illusionist_swaps_two_minions_differing_in_owner_or_type():
    s = position({"a1": "C", "b1": "C", "c3": "c", "h8": "f"}, tower={"illusionist": "U"},
                 chaos=tower_with("illusionist"))
    swaps = [p["swap"] for p in powers(s, "illusionist") if p]
    assert ["a1", "b1"] not in swaps  # same owner and type
    assert ["a1", "c3"] in swaps and ["c3", "h8"] in swaps
    assert all(a < b for a, b in swaps)  # listed in alphabetical order
    refused(s, remove("illusionist", {"swap": ["a1", "b1"]}), "R14", "differ")
    refused(s, remove("illusionist", {"swap": ["a1", "d4"]}), "R14", "d4")
    s = play(s, remove("illusionist", {"swap": ["h8", "a1"]}))  # either order
    assert arena_of(s) == {"a1": "f", "b1": "C", "c3": "c", "h8": "C"}


# ---- Shadow Mage ----------------------------------------------------------

def test_r14_shadow_mage_sends_an_orthogonally_adjacent_minion_to_its_reserve():
    s = position({"d4": "U", "d5": "c", "e5": "s", "c4": "U", "h8": "u"},
                 tower={"shadow_mage": "B"})
    squares = {p["square"] for p in powers(s, "shadow_mage") if p}
    # d5 touches d4; e5 only touches d4 diagonally; c4 and d4 touch each other.
    assert squares == {"d5", "c4", "d4"}
    refused(s, remove("shadow_mage", {"square": "e5"}), "R14", "side")
    before = reserve_of(s, "black", "construct")
    s = play(s, remove("shadow_mage", {"square": "d5"}))
    assert "d5" not in arena_of(s) and reserve_of(s, "black", "construct") == before + 1
    assert dead_of(s, "black", "construct") == 0


def test_r14_shadow_mage_on_your_own_minion_needs_another_of_yours_beside_it():
    s = position({"d4": "U", "d5": "c", "h8": "u"}, tower={"shadow_mage": "B"})
    assert {p["square"] for p in powers(s, "shadow_mage") if p} == {"d5"}
    refused(s, remove("shadow_mage", {"square": "d4"}), "R14")


# ---- Rune Master ----------------------------------------------------------

def test_r14_rune_master_lets_your_minions_also_leap_like_knights_this_round():
    chaos = tower_with("rune_master")
    s = position({"d4": "U", "e6": "s", "h8": "u"},
                 tower={"rune_master": "B", "necromancer": "U", "animist": "u"}, chaos=chaos)
    assert powers(s, "rune_master") == [None, {}]
    s = play(s, remove("rune_master", {}))
    assert s.runes == 1
    # Black's turn: its minions do not leap.
    assert {tuple(p["move"]) for p in powers(s, "animist") if p} == {
        ("h8", "h7"), ("h8", "g8"), ("e6", "d3"), ("e6", "f3"), ("e6", "b5"), ("e6", "b7"),
        ("e6", "h5"), ("e6", "h7")}
    s = play(s, remove("animist"))
    moves = [p["move"][1] for p in powers(s, "necromancer") if p and "move" in p]
    assert set(moves) == {"c4", "e4", "d3", "d5", "b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"}
    s = play(s, remove("necromancer", {"move": ["d4", "e6"]}))  # a knight leap that captures
    assert dead_of(s, "black", "spirit") == 1
    assert s.round == 2 and s.runes == 0  # it ends with the round


def test_r14_rune_master_gives_a_construct_knight_leaps_with_capture():
    s = position({"d4": "C", "e6": "s", "h8": "u"}, tower={"artificer": "U"}, runes="w")
    moves = {p["move"][1] for p in powers(s, "artificer") if p and "move" in p}
    assert {"b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"} <= moves
    refused(s, remove("artificer", {"move": ["d4", "e7"]}), "R3")


# ---- Force Mage and the ward ----------------------------------------------

def test_r14_force_mage_wards_any_unwarded_minion():
    s = position({"d4": "U", "e5": "c", "h8": "u"}, tower={"force_mage": "B", "animist": "u"},
                 wards=("h8",))
    squares = {p["square"] for p in powers(s, "force_mage") if p}
    assert squares == {"d4", "e5"}
    refused(s, remove("force_mage", {"square": "h8"}), "R14", "already warded")
    refused(s, remove("force_mage", {"square": "a3"}), "R14")
    s = play(s, remove("force_mage", {"square": "e5"}))
    assert s.wards == (1 << 36) | (1 << 63)


def test_r14_warded_minion_still_blocks_a_slide():
    s = position({"a1": "C", "a4": "u", "h8": "u"}, tower={"artificer": "U"}, wards=("a4",))
    moves = {p["move"][1] for p in powers(s, "artificer") if p and "move" in p}
    assert {"a2", "a3"} <= moves and not {"a4", "a5", "a6"} & moves
    refused(s, remove("artificer", {"move": ["a1", "a5"]}), "R3")


def test_r14_warded_minion_cannot_be_captured():
    s = position({"a1": "C", "a4": "u", "c5": "F", "h8": "u"}, tower={"animist": "U"},
                 wards=("a4",))
    moves = [p["move"] for p in powers(s, "animist") if p]
    assert ["a1", "a4"] not in moves and ["c5", "a4"] not in moves
    refused(s, remove("animist", {"move": ["a1", "a4"]}), "R14", "warded")
    refused(s, remove("animist", {"move": ["c5", "a4"]}), "R14", "warded")


def test_r14_warded_minion_cannot_be_moved_by_anyone():
    s = position({"d4": "U", "e5": "u", "h8": "c"}, tower={"animist": "U"}, wards=("d4",))
    assert not any(p and p["move"][0] == "d4" for p in powers(s, "animist"))
    refused(s, remove("animist", {"move": ["d4", "d5"]}), "R14", "warded")
    s = position({"d4": "U", "e5": "u", "h8": "c"}, tower={"mystic": "U"}, wards=("d4",))
    refused(s, remove("mystic", {"move": ["d4", "a5"]}), "R14", "warded")
    s = position({"d4": "U", "e5": "u", "h8": "c"}, tower={"mentalist": "U"}, wards=("e5",),
                 chaos=tower_with("mentalist"))
    refused(s, remove("mentalist", {"move": ["e5", "e6"]}), "R14", "warded")


def test_r14_warded_minion_cannot_be_swapped_by_the_illusionist():
    s = position({"d4": "U", "e5": "c", "h8": "u"}, tower={"illusionist": "B"}, wards=("e5",),
                 chaos=tower_with("illusionist"))
    assert not any(p and "e5" in p["swap"] for p in powers(s, "illusionist"))
    refused(s, remove("illusionist", {"swap": ["d4", "e5"]}), "R14", "warded")


def test_r14_warded_minion_cannot_be_replaced_by_the_alchemist():
    s = position({"d4": "U", "e5": "c", "h8": "u"}, tower={"alchemist": "B"}, wards=("d4",),
                 chaos=tower_with("alchemist"))
    assert powers(s, "alchemist") == [None]
    refused(s, remove("alchemist", {"square": "d4", "minion": "dragon"}), "R14", "warded")


def test_r14_warded_minion_cannot_be_replaced_by_the_enchanter():
    s = position({"d4": "U", "e5": "c", "h8": "u"}, tower={"enchanter": "B"}, wards=("e5",),
                 chaos=tower_with("enchanter"))
    assert {p["square"] for p in powers(s, "enchanter") if p} == {"h8"}
    refused(s, remove("enchanter", {"square": "e5"}), "R14", "warded")


def test_r14_warded_minion_cannot_be_banished_by_the_shadow_mage():
    s = position({"d4": "U", "d5": "c", "h8": "u"}, tower={"shadow_mage": "B"}, wards=("d5",))
    assert powers(s, "shadow_mage") == [None]
    refused(s, remove("shadow_mage", {"square": "d5"}), "R14", "warded")


# ---- Dream Lord -----------------------------------------------------------

DREAM = [
    ("seer", {"player": "black"}),
    ("magus", {"target": "oracle"}),
    ("alchemist", {"square": "d4", "minion": "dragon"}),
    ("mentalist", {"move": ["e5", "e6"]}),
    ("enchanter", {"square": "e5"}),
    ("force_mage", {"square": "e5"}),
    ("illusionist", {"swap": ["d4", "e5"]}),
    ("shadow_mage", {"square": "e5"}),
    ("rune_master", {}),
    ("conjurer", {"summon": "b1"}),
]


def dream_tower(borrowed):
    """Floors 13-16: the Dream Lord and three chaos mages other than `borrowed`."""
    others = [MAGES[c] for c in CHAOS_MAGES if MAGES[c] not in ("dream_lord", borrowed)]
    return ("dream_lord", *others[:3])


def test_r14_dream_lord_lists_exactly_the_chaos_mages_not_in_play():
    chaos = ("dream_lord", "seer", "magus", "force_mage")
    s = position({"d4": "U", "e5": "c", "e4": "U", "h8": "u"}, tower={"dream_lord": "E", "animist": "u"},
                 chaos=chaos)
    borrowed = {p["mage"] for p in powers(s, "dream_lord") if p}
    assert borrowed == {"alchemist", "mentalist", "enchanter", "illusionist", "shadow_mage",
                        "rune_master", "conjurer"}


@pytest.mark.parametrize(("borrowed", "payload"), DREAM, ids=[d[0] for d in DREAM])
def test_r14_dream_lord_borrows_a_chaos_power_not_in_play(borrowed, payload):
    s = position({"d4": "U", "e5": "c", "e4": "U", "h8": "u"},
                 tower={"dream_lord": "E", "animist": "u", "necromancer": "u"},
                 chaos=dream_tower(borrowed))
    power = {"mage": borrowed, "power": payload}
    assert power in powers(s, "dream_lord")
    after = play(s, remove("dream_lord", power))
    arena = arena_of(after)
    if borrowed == "seer":
        assert to_move(after) == "black" and after.owed == (1,)
    elif borrowed == "magus":
        assert occupant(after, "oracle") == "E" and occupant(after, "dream_lord") == "."
    elif borrowed == "alchemist":
        assert arena["d4"] == "D"
    elif borrowed == "mentalist":
        assert arena["e6"] == "c" and "e5" not in arena
    elif borrowed == "enchanter":
        assert arena["e5"] == "C"
    elif borrowed == "force_mage":
        assert after.wards == 1 << 36
    elif borrowed == "illusionist":
        assert arena["d4"] == "c" and arena["e5"] == "U"
    elif borrowed == "shadow_mage":
        assert "e5" not in arena and reserve_of(after, "black", "construct") == reserve_of(
            s, "black", "construct") + 1
    elif borrowed == "rune_master":
        assert after.runes == 1
    elif borrowed == "conjurer":
        assert arena["b1"] == "E"  # the minion off the Dream Lord is summoned
    else:  # pragma: no cover
        raise AssertionError(borrowed)


@pytest.mark.parametrize(("borrowed", "payload"), DREAM, ids=[d[0] for d in DREAM])
def test_r14_dream_lord_refuses_a_chaos_power_in_play(borrowed, payload):
    chaos = ("dream_lord", borrowed, *[m for m in dream_tower(borrowed)[1:3]])
    s = position({"d4": "U", "e5": "c", "e4": "U", "h8": "u"},
                 tower={"dream_lord": "E", "animist": "u", "necromancer": "u"}, chaos=chaos)
    refused(s, remove("dream_lord", {"mage": borrowed, "power": payload}), "R14", "in play")


def test_r14_dream_lord_refuses_a_card_on_a_private_chamber():
    s = position({"d4": "U", "e5": "c", "h8": "u"}, tower={"dream_lord": "E", "animist": "u"},
                 variant="archmage", chaos=("dream_lord", "seer", "magus", None),
                 private=(["rune_master"], ["conjurer"]))
    borrowed = {p["mage"] for p in powers(s, "dream_lord") if p}
    assert not borrowed & {"rune_master", "conjurer", "seer", "magus", "dream_lord"}
    refused(s, remove("dream_lord", {"mage": "conjurer", "power": {"summon": "b1"}}), "R14", "in play")
    refused(s, remove("dream_lord", {"mage": "rune_master", "power": {}}), "R14", "in play")


def test_r14_dream_lord_borrows_chaos_mages_only_and_not_itself():
    s = position({"d4": "U", "e5": "c", "h8": "u"}, tower={"dream_lord": "E", "animist": "u"},
                 chaos=("dream_lord", "seer", "magus", "force_mage"))
    refused(s, remove("dream_lord", {"mage": "oracle", "power": {}}), "R14", "chaos mages only")
    refused(s, remove("dream_lord", {"mage": "dream_lord", "power": {"mage": "conjurer", "power": {"summon": "b1"}}}), "R14")
    refused(s, remove("dream_lord", {"mage": "conjurer", "power": {"square": "e5"}}), "R14")


def test_r14_dream_lord_magus_may_not_send_the_minion_back_to_the_dream_lord():
    s = position({"d4": "U", "e5": "c", "h8": "u"}, tower={"dream_lord": "E", "animist": "u"},
                 chaos=("dream_lord", "seer", "force_mage", "shadow_mage"))
    refused(s, remove("dream_lord", {"mage": "magus", "power": {"target": "dream_lord"}}), "R14")


def test_r14_dream_lord_seer_gives_turns_like_the_seer():
    s = position(TWO, tower={"dream_lord": "U", "animist": "U", "mystic": "U", "necromancer": "u"},
                 chaos=("dream_lord", "magus", "force_mage", "shadow_mage"))
    s, _ = apply(s, remove("dream_lord", {"mage": "seer", "power": {"player": "white"}}))
    assert to_move(s) == "white"
    s, _ = apply(s, remove("animist"))
    assert to_move(s) == "white"
    s, _ = apply(s, remove("mystic"))
    assert to_move(s) == "black"


# ---- engine readings (docs/rules.md) pinned down ---------------------------

def test_r14_mentalist_moved_minion_leaps_by_its_owners_rune_master_only():
    board = {"d5": "u", "a1": "C", "h8": "c"}
    chaos = tower_with("mentalist")
    s = position(board, tower={"mentalist": "B", "animist": "u"}, chaos=chaos, runes="b")
    moves = {tuple(p["move"]) for p in powers(s, "mentalist") if p and p["move"][0] == "d5"}
    assert ("d5", "e7") in moves and ("d5", "c3") in moves  # Black's runes: knight leaps
    s = position(board, tower={"mentalist": "B", "animist": "u"}, chaos=chaos, runes="w")
    moves = {tuple(p["move"]) for p in powers(s, "mentalist") if p and p["move"][0] == "d5"}
    assert moves == {("d5", "d4"), ("d5", "d6"), ("d5", "c5"), ("d5", "e5")}
    refused(s, remove("mentalist", {"move": ["d5", "e7"]}), "R3")


def test_r14_a_new_seer_power_replaces_turns_still_owed():
    # Black owes itself one more turn and borrows the Seer for White.
    s = position(TWO, turn="ab", owed="b", chaos=("dream_lord", "magus", "force_mage", "shadow_mage"),
                 tower={"dream_lord": "u", "necromancer": "b", "animist": "U", "mystic": "F"})
    s = play(s, remove("dream_lord", {"mage": "seer", "power": {"player": "white"}}))
    assert s.owed == (0,) and to_move(s) == "white"
    s = play(s, remove("animist"))
    assert to_move(s) == "white"
    s = play(s, remove("mystic"))
    assert to_move(s) == "black"
