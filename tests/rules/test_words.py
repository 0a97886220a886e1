"""`describe`: every action, and every mage's power, told in one plain sentence.

Each scenario starts from the position text form (helpers.position). The words
must be exact, the same every time, refuse what `apply` refuses, and depend on
nothing secret (the deck order, the seed).
"""

from __future__ import annotations

import random

import pytest

import app.rules.colours
import app.rules.words
from app.rules import (
    VARIANTS,
    IllegalAction,
    MalformedAction,
    apply,
    describe,
    legal_actions,
    new_match,
    power_words,
)
from app.rules.mages import CHAOS_MAGES, MAGES
from app.rules.minions import TYPES
from tests.rules.helpers import (
    BACKROW,
    PASS,
    place,
    position,
    remove,
    run_source_examples,
    snapshot,
)

TWO = {"a1": "C", "h8": "c"}


def chaos_with(*mages: str) -> tuple[str, ...]:
    """Chaos floors 13-16 holding these mages first, filled up with others."""
    rest = [MAGES[m] for m in CHAOS_MAGES if MAGES[m] not in mages]
    return tuple(list(mages) + rest[:4 - len(mages)])


# ---- the three decision-phase actions and the setup ------------------------

def test_setup_is_told_with_the_backrow_from_a_to_h():
    s = new_match(seed="5eed0000000000000000000000000001")
    assert describe(s, {"type": "setup", "backrow": BACKROW}) == (
        "White sets up their backrow, a to h: construct, fey, elemental, dragon, undead, beast, "
        "spirit, myrmidon.")


def test_place_and_pass_name_the_player_the_minion_and_the_chamber():
    s = position(TWO, turn="db", tower={"animist": "U"})
    assert describe(s, place("elemental_master", "undead")) == (
        "Black places an undead on the Elemental Master.")
    assert describe(s, place("seer", "fey")) == "Black places a fey on the Seer."
    assert describe(s, PASS) == "Black passes."


def test_a_declined_power_is_told_as_declined():
    s = position(TWO, tower={"oracle": "E"})
    assert describe(s, remove("oracle")) == (
        "White removes an elemental from the Oracle and declines the power.")


# ---- the fixed mages (R12) ------------------------------------------------------

def test_floor_1_to_8_move_summon_and_capture():
    s = position({"b7": "B", "c6": "f", "d4": "B", "h8": "c"},
                 tower={"sorcerer": "U", "dragon_lord": "B"})
    assert describe(s, remove("sorcerer", {"move": ["d4", "e5"]})) == (
        "White removes an undead from the Sorcerer and moves the beast from d4 to e5.")
    assert describe(s, remove("sorcerer", {"move": ["b7", "c6"]})) == (
        "White removes an undead from the Sorcerer and takes Black's fey on c6 with the beast "
        "from b7.")
    assert describe(s, remove("dragon_lord", {"summon": "d1"})) == (
        "White removes a beast from the Dragon Lord and summons a dragon on d1.")


@pytest.mark.parametrize("mage, kind", [
    ("necromancer", "undead"), ("sorcerer", "beast"), ("wizard", "myrmidon"),
    ("warlock", "spirit"), ("druid", "fey"), ("artificer", "construct"),
    ("elemental_master", "elemental"), ("dragon_lord", "dragon"),
])
def test_each_commander_summons_its_own_type(mage, kind):
    s = position(TWO, tower={mage: "F"})
    square = "b1" if kind in ("dragon", "elemental", "construct") else "b2"
    article = "an" if kind[0] in "aeiou" else "a"
    assert describe(s, remove(mage, {"summon": square})).endswith(
        f"and summons {article} {kind} on {square}.")


def test_animist_and_mystic_move_a_minion_of_yours():
    s = position({"c3": "F", "h8": "c", "a1": "C"}, tower={"animist": "U", "mystic": "B"})
    assert describe(s, remove("animist", {"move": ["c3", "d5"]})) == (
        "White removes an undead from the Animist and moves the fey from c3 to d5.")
    assert describe(s, remove("mystic", {"move": ["c3", "g6"]})) == (
        "White removes a beast from the Mystic and moves the fey from c3 to g6.")


def test_oracle_takes_the_orb():
    s = position(TWO, orb="b", tower={"oracle": "S"})
    assert describe(s, remove("oracle", {})) == (
        "White removes a spirit from the Oracle and takes the Orb.")


def test_magician_clears_another_chamber_and_names_whose_minion_goes_home():
    s = position(TWO, tower={"magician": "M", "animist": "b", "seer": "U"})
    assert describe(s, remove("magician", {"target": "animist"})) == (
        "White removes a myrmidon from the Magician and clears the Animist, sending Black's "
        "beast back to its owner's reserve.")
    assert describe(s, remove("magician", {"target": "seer"})).endswith(
        "clears the Seer, sending White's undead back to its owner's reserve.")


# ---- the chaos mages (R14) --------------------------------------------------------

def test_seer_names_who_takes_the_next_two_turns():
    s = position(TWO, tower={"seer": "U", "animist": "b"})
    assert describe(s, remove("seer", {"player": "black"})) == (
        "White removes an undead from the Seer and gives the next two turns to Black.")
    assert describe(s, remove("seer", {"player": "white"})) == (
        "White removes an undead from the Seer and takes the next two turns.")


def test_magus_sends_the_minion_on():
    s = position(TWO, tower={"magus": "F"})
    assert describe(s, remove("magus", {"target": "oracle"})) == (
        "White removes a fey from the Magus and sends it on to the Oracle.")


def test_alchemist_exchanges_a_minion_for_another_type():
    s = position({"d4": "U", "h8": "c"}, tower={"alchemist": "F"}, chaos=chaos_with("alchemist"))
    assert describe(s, remove("alchemist", {"square": "d4", "minion": "elemental"})) == (
        "White removes a fey from the Alchemist and exchanges the undead on d4 for an elemental "
        "from their reserve.")


def test_mentalist_moves_the_opponents_minion():
    s = position({"d5": "c", "h1": "U"}, tower={"mentalist": "B"}, chaos=chaos_with("mentalist"))
    assert describe(s, remove("mentalist", {"move": ["d5", "a5"]})) == (
        "White removes a beast from the Mentalist and moves Black's construct from d5 to a5.")


def test_enchanter_replaces_an_opponents_minion():
    s = position({"d5": "d", "h1": "U"}, tower={"enchanter": "U"}, chaos=chaos_with("enchanter"))
    assert describe(s, remove("enchanter", {"square": "d5"})) == (
        "White removes an undead from the Enchanter and replaces Black's dragon on d5 with a "
        "dragon from their reserve.")


def test_force_mage_wards_a_minion():
    s = position(TWO, tower={"force_mage": "S"})
    assert describe(s, remove("force_mage", {"square": "h8"})) == (
        "White removes a spirit from the Force Mage and wards Black's construct on h8 until the "
        "round ends.")


def test_illusionist_swaps_two_minions():
    s = position({"c3": "B", "d5": "f", "h8": "c"}, tower={"illusionist": "D"},
                 chaos=chaos_with("illusionist"))
    assert describe(s, remove("illusionist", {"swap": ["c3", "d5"]})) == (
        "White removes a dragon from the Illusionist and swaps White's beast on c3 with Black's "
        "fey on d5.")


def test_shadow_mage_sends_a_neighbour_home():
    s = position({"d4": "U", "d5": "f", "h8": "c"}, tower={"shadow_mage": "E"})
    assert describe(s, remove("shadow_mage", {"square": "d5"})) == (
        "White removes an elemental from the Shadow Mage and sends Black's fey on d5 back to its "
        "owner's reserve.")


def test_rune_master_grants_knight_leaps():
    s = position(TWO, tower={"rune_master": "M"}, chaos=chaos_with("rune_master"))
    assert describe(s, remove("rune_master", {})) == (
        "White removes a myrmidon from the Rune Master and lets their minions leap like a knight "
        "until the round ends.")


def test_conjurer_summons_the_minion_itself():
    s = position(TWO, tower={"conjurer": "E"}, chaos=chaos_with("conjurer"))
    assert describe(s, remove("conjurer", {"summon": "f1"})) == (
        "White removes an elemental from the Conjurer and summons it on f1.")


@pytest.mark.parametrize("borrowed, payload, told", [
    ("seer", {"player": "black"}, "gives the next two turns to Black"),
    ("magus", {"target": "oracle"}, "sends it on to the Oracle"),
    ("conjurer", {"summon": "f1"}, "summons it on f1"),
    ("illusionist", {"swap": ["d4", "e5"]},
     "swaps White's undead on d4 with Black's construct on e5"),
    ("rune_master", {}, "lets their minions leap like a knight until the round ends"),
])
def test_dream_lord_tells_the_borrowed_power_and_whose_it_is(borrowed, payload, told):
    others = [MAGES[c] for c in CHAOS_MAGES if MAGES[c] not in ("dream_lord", borrowed)]
    s = position({"d4": "U", "e5": "c", "h8": "u"}, tower={"dream_lord": "E", "animist": "u"},
                 chaos=("dream_lord", *others[:3]))
    title = borrowed.replace("_", " ").title()
    assert describe(s, remove("dream_lord", {"mage": borrowed, "power": payload})) == (
        f"White removes an elemental from the Dream Lord and {told}, borrowing the {title}'s "
        "power.")


# ---- what describe refuses, and what it never tells ---------------------------------

def test_describe_refuses_an_illegal_action_with_its_rule_and_changes_nothing():
    s = position({"b7": "B", "h8": "c", "a1": "C"}, tower={"sorcerer": "U"})
    before = snapshot(s)
    with pytest.raises(IllegalAction) as caught:
        describe(s, remove("sorcerer", {"move": ["b7", "b6"]}))
    assert caught.value.rule == "R3"
    with pytest.raises(IllegalAction) as caught:
        describe(s, remove("oracle", {}))
    assert caught.value.rule == "R10"
    with pytest.raises(MalformedAction):
        describe(s, {"type": "remove", "mage": "sorcerer"})
    assert snapshot(s) == before


def _played(seed: int, variant: str) -> list:
    """Every (state, legal action) pair of one seeded random game."""
    rng = random.Random(seed)
    s = new_match(seed=f"{seed:032x}", variant=variant)
    for _ in range(2):
        row = list(TYPES)
        rng.shuffle(row)
        s, _ = apply(s, {"type": "setup", "backrow": row})
    pairs = []
    while not s.over:
        actions = legal_actions(s)
        pairs += [(s, a) for a in actions]
        s, _ = apply(s, rng.choice(actions))
    return pairs


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_legal_action_of_a_game_is_told_and_the_words_ignore_the_secrets(variant):
    told_mages = set()
    for s, action in _played(7, variant)[::3]:
        words = describe(s, action)
        assert words == describe(s, action)  # the same every time
        assert words.startswith(("White ", "Black ")) and words.endswith(".")
        # Another deck order and seed: the words cannot tell them apart (R20).
        other = s.copy()
        other.deck = tuple(reversed(s.deck))
        other.seed = "f" * 32
        assert describe(other, action) == words
        assert s.seed not in words
        if action[0] == "remove":
            told_mages.add(action[1])
    assert len(told_mages) >= 12


# ---- the power in words, per mage ---------------------------------------------------

@pytest.mark.parametrize("mage", MAGES)
def test_every_mage_has_its_power_in_plain_words(mage):
    words = power_words(mage)
    assert words[0].isupper() and words.endswith(".") and 10 < len(words) < 120
    assert "_" not in words


def test_power_words_refuses_an_unknown_mage():
    with pytest.raises(MalformedAction):
        power_words("lich")


def test_the_words_and_colours_modules_examples_run():
    for module in (app.rules.words, app.rules.colours):
        result = run_source_examples(module)
        assert result.attempted >= 1 and result.failed == 0
