"""R17-R19: the variants' towers. The standard tower is checked here too."""

from __future__ import annotations

from app.rules import DECISION, action_json, legal_actions, new_match, shuffle, to_text
from app.rules.mages import CHAOS_MAGES, MAGE_INDEX, MAGES
from tests.rules.helpers import (
    BACKROW,
    PASS,
    SEED,
    occupant,
    place,
    play,
    position,
    powers,
    refused,
    remove,
    reserve_of,
    seat_of,
    to_move,
)

TWO = {"a1": "C", "h8": "c"}


def floors(s):
    return {seat: MAGES[m] for m, seat in enumerate(s.seat) if 13 <= seat <= 16}


def private_cards(s, colour):
    return [MAGES[m] for m, seat in enumerate(s.seat) if seat == 17 + colour]


def started(variant, **options):
    s = new_match(seed=SEED, variant=variant, **options)
    s = play(s, {"type": "setup", "backrow": BACKROW})
    return play(s, {"type": "setup", "backrow": BACKROW})


def check_cards(s):
    """Every chaos card is in exactly one place: a floor, a private chamber, the deck or the discard."""
    seated = [m for m in CHAOS_MAGES if s.seat[m]]
    assert sorted(seated + list(s.deck) + list(s.discard)) == sorted(CHAOS_MAGES)


# ---- standard --------------------------------------------------------------

def test_standard_tower_has_sixteen_floors_and_never_rotates():
    s = started("standard")
    assert sorted(floors(s)) == [13, 14, 15, 16]
    assert not private_cards(s, 0) and not private_cards(s, 1)
    before = floors(s)
    s = play(s, PASS)
    s = play(s, PASS)
    assert s.round == 2 and floors(s) == before and s.discard == ()


# ---- R17 rotating chaos lords ---------------------------------------------

def test_r17_rotation_at_round_end():
    s = position(TWO, variant="rotating", tower={"animist": "U"},
                 chaos=("seer", "magus", "force_mage", "shadow_mage"),
                 deck=["alchemist", "mentalist", "enchanter", "dream_lord", "illusionist",
                       "rune_master", "conjurer"])
    s = play(s, remove("animist"))
    assert s.round == 2 and s.phase == DECISION
    assert floors(s) == {13: "alchemist", 14: "seer", 15: "magus", 16: "force_mage"}
    assert [MAGES[m] for m in s.discard] == ["shadow_mage"]
    assert [MAGES[m] for m in s.deck] == ["mentalist", "enchanter", "dream_lord", "illusionist",
                                          "rune_master", "conjurer"]
    assert seat_of(s, "shadow_mage") == 0
    check_cards(s)


def test_r17_reshuffle_when_the_deck_runs_out():
    discard = ["alchemist", "mentalist", "enchanter", "dream_lord", "illusionist", "rune_master",
               "conjurer"]
    s = position(TWO, variant="rotating", tower={"animist": "U"}, round=8,
                 chaos=("seer", "magus", "force_mage", "shadow_mage"), deck=[], discard=discard)
    s = play(s, remove("animist"))
    pile = tuple(MAGE_INDEX[m] for m in discard + ["shadow_mage"])
    expected = shuffle(pile, s.seed, "reshuffle:9")
    assert s.round == 9
    assert floors(s) == {13: MAGES[expected[0]], 14: "seer", 15: "magus", 16: "force_mage"}
    assert s.deck == expected[1:] and s.discard == ()
    check_cards(s)


def test_r17_whole_match_rotates_every_round_and_reshuffles():
    s = started("rotating", no_progress_rounds=0)
    seen = set(floors(s).values())
    reshuffled = False
    for _ in range(30):
        before, deck, discard = floors(s), s.deck, s.discard
        s = play(s, PASS)
        s = play(s, PASS)
        after = floors(s)
        assert after[14] == before[13] and after[15] == before[14] and after[16] == before[15]
        top = MAGE_INDEX[before[16]]
        if deck:
            assert MAGE_INDEX[after[13]] == deck[0] and s.deck == deck[1:]
            assert s.discard == discard + (top,)
        else:
            reshuffled = True
            pile = shuffle(discard + (top,), s.seed, f"reshuffle:{s.round}")
            assert MAGE_INDEX[after[13]] == pile[0] and s.deck == pile[1:] and s.discard == ()
        seen |= set(after.values())
        check_cards(s)
    assert reshuffled and len(seen) == 11


def test_r17_rotating_match_starts_like_the_standard_one():
    a, b = new_match(seed=SEED), new_match(seed=SEED, variant="rotating")
    assert a.seat == b.seat and a.deck == b.deck


# ---- R18 archmage ---------------------------------------------------------

def test_r18_archmage_deals_one_private_card_each_after_the_tower_white_first():
    s = new_match(seed=SEED, variant="archmage")
    cards = shuffle(CHAOS_MAGES, SEED, "deck")
    assert floors(s) == {13: MAGES[cards[0]], 14: MAGES[cards[1]], 15: MAGES[cards[2]]}
    assert 16 not in floors(s)
    assert private_cards(s, 0) == [MAGES[cards[3]]]
    assert private_cards(s, 1) == [MAGES[cards[4]]]
    assert s.deck == cards[5:]
    assert to_text(s).split()[6].endswith(",-")  # floor 16 unused
    check_cards(s)


def archmage_position(**kw):
    return position(TWO, variant="archmage", chaos=("seer", "magus", "force_mage", None),
                    private=(["rune_master"], ["conjurer"]), **kw)


def test_r18_only_its_owner_may_place_on_a_private_chamber():
    s = archmage_position(turn="dw")
    mages = {a["mage"] for a in map(action_json, legal_actions(s)) if a["type"] == "place"}
    assert "rune_master" in mages and "conjurer" not in mages and len(mages) == 16
    refused(s, place("conjurer", "beast"), "R18", "private")
    s = play(s, place("rune_master", "beast"))
    assert occupant(s, "rune_master") == "B"
    mages = {a["mage"] for a in map(action_json, legal_actions(s)) if a["type"] == "place"}
    assert "conjurer" in mages and "rune_master" not in mages
    refused(s, place("rune_master", "beast"), "R9")
    s = play(s, place("conjurer", "beast"))
    assert occupant(s, "conjurer") == "b"


def test_r18_a_private_chamber_minion_is_removed_and_its_power_used():
    s = archmage_position(tower={"rune_master": "F", "animist": "u"})
    assert powers(s, "rune_master") == [None, {}]
    s = play(s, remove("rune_master", {}))
    assert s.runes == 1 and occupant(s, "rune_master") == "."


def test_r18_magician_empties_a_private_chamber():
    s = archmage_position(tower={"magician": "U", "conjurer": "d", "animist": "u"})
    assert {"target": "conjurer"} in powers(s, "magician")
    before = reserve_of(s, "black", "dragon")
    s = play(s, remove("magician", {"target": "conjurer"}))
    assert occupant(s, "conjurer") == "." and reserve_of(s, "black", "dragon") == before + 1
    assert to_move(s) == "black"


def test_r18_magician_empties_your_own_private_chamber_too():
    s = archmage_position(tower={"magician": "U", "rune_master": "D", "animist": "u"})
    s = play(s, remove("magician", {"target": "rune_master"}))
    assert occupant(s, "rune_master") == "." and s.runes == 0


def test_r18_magus_may_go_to_your_private_chamber_not_the_opponents():
    s = archmage_position(tower={"magus": "F", "animist": "u"})
    targets = {p["target"] for p in powers(s, "magus") if p}
    assert "rune_master" in targets and "conjurer" not in targets
    refused(s, remove("magus", {"target": "conjurer"}), "R14")
    s = play(s, remove("magus", {"target": "rune_master"}))
    assert occupant(s, "rune_master") == "F"


def test_r18_the_decision_phase_waits_for_an_empty_private_chamber():
    # Black passed; White goes on alone and may still fill its private chamber.
    s = archmage_position(turn="dw", passed="b")
    s = play(s, place("rune_master", "fey"))
    assert s.phase == DECISION and to_move(s) == "white"


# ---- R19 ultimate archmage ------------------------------------------------

def test_r19_ultimate_archmage_three_private_cards_each_floors_14_to_16_unused():
    s = new_match(seed=SEED, variant="ultimate_archmage")
    cards = shuffle(CHAOS_MAGES, SEED, "deck")
    assert floors(s) == {13: MAGES[cards[0]]}
    assert private_cards(s, 0) == sorted((MAGES[m] for m in cards[1:4]), key=MAGE_INDEX.get)
    assert private_cards(s, 1) == sorted((MAGES[m] for m in cards[4:7]), key=MAGE_INDEX.get)
    assert s.deck == cards[7:]
    assert to_text(s).split()[6].endswith(",-,-,-")
    check_cards(s)


def test_r19_each_player_places_on_the_public_chambers_and_its_own_three():
    s = started("ultimate_archmage")
    mine = set(private_cards(s, 0))
    theirs = set(private_cards(s, 1))
    mages = {a["mage"] for a in map(action_json, legal_actions(s)) if a["type"] == "place"}
    assert len(mages) == 13 + 3 and mine <= mages and not theirs & mages
    assert len(legal_actions(s)) == 16 * 8 + 1
    for mage in theirs:
        refused(s, place(mage, "beast"), "R18")
    s = play(s, place(sorted(mine)[0], "beast"))
    assert to_move(s) == "black"
    mages = {a["mage"] for a in map(action_json, legal_actions(s)) if a["type"] == "place"}
    assert theirs <= mages and not mine & mages


def test_r19_ultimate_archmage_position_text_round_trips():
    s = position(TWO, variant="ultimate_archmage", chaos=("seer", None, None, None),
                 private=(["magus", "alchemist", "mentalist"], ["enchanter", "dream_lord", "conjurer"]),
                 tower={"magus": "U", "conjurer": "u"})
    from app.rules import from_text

    assert from_text(to_text(s)) == s
    assert occupant(s, "magus") == "U" and occupant(s, "conjurer") == "u"
