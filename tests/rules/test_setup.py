"""R6 the chaos deck, R7 the setup phase."""

from __future__ import annotations

import pytest

from app.rules import (
    DECISION,
    SETUP,
    MalformedAction,
    commitment,
    legal_actions,
    new_match,
    setup_choices,
    shuffle,
)
from app.rules.mages import CHAOS_MAGES, MAGES
from app.rules.minions import TYPES
from tests.rules.helpers import (
    BACKROW,
    PASS,
    SEED,
    arena_of,
    play,
    refused,
    remove,
    reserve_of,
    seat_of,
    to_move,
)


def dealt(s):
    """Chaos mages by floor 13-16."""
    return {seat: MAGES[m] for m, seat in enumerate(s.seat) if 13 <= seat <= 16}


# ---- R6 the chaos deck -----------------------------------------------------

def test_r6_the_deck_is_the_eleven_listed_chaos_mages():
    names = {MAGES[m] for m in CHAOS_MAGES}
    assert names == {"seer", "magus", "alchemist", "mentalist", "enchanter", "dream_lord",
                     "force_mage", "illusionist", "shadow_mage", "rune_master", "conjurer"}
    s = new_match(seed=SEED)
    on_floors = set(dealt(s).values())
    assert len(on_floors) == 4
    assert on_floors | {MAGES[m] for m in s.deck} == names
    assert len(s.deck) == 7 and not on_floors & {MAGES[m] for m in s.deck}


def test_r6_first_four_cards_go_to_floors_13_to_16_in_order():
    for seed in ("a", "b", "c", SEED):
        s = new_match(seed=seed)
        cards = shuffle(CHAOS_MAGES, seed, "deck")
        assert [seat_of(s, MAGES[m]) for m in cards[:4]] == [13, 14, 15, 16]
        assert s.deck == cards[4:]


def test_r6_the_shuffle_depends_on_the_seed_only():
    assert new_match(seed="x1") == new_match(seed="x1")
    orders = {new_match(seed=f"seed-{i}").deck for i in range(20)}
    assert len(orders) > 15


def test_r6_fixed_mages_sit_on_floors_1_to_12():
    s = new_match(seed=SEED)
    assert [seat_of(s, m) for m in MAGES[:12]] == list(range(1, 13))


def test_r6_chosen_chaos_mages_are_dealt_first_and_make_the_match_custom():
    s = new_match(seed=SEED, chaos=["conjurer", "seer"])
    assert dealt(s)[13] == "conjurer" and dealt(s)[14] == "seer"
    assert s.custom
    with pytest.raises(MalformedAction):
        new_match(seed=SEED, chaos=["oracle"])
    with pytest.raises(MalformedAction):
        new_match(seed=SEED, chaos=["seer", "seer"])


def test_r6_unknown_variant_or_bad_option_is_malformed():
    with pytest.raises(MalformedAction):
        new_match(seed=SEED, variant="blitz")
    with pytest.raises(MalformedAction):
        new_match(seed=SEED, no_progress_rounds=-1)


def test_r6_commitment_is_the_sha256_of_the_seed():
    import hashlib

    assert commitment(SEED) == hashlib.sha256(SEED.encode()).hexdigest()


# ---- R7 setup --------------------------------------------------------------

def test_r7_white_sets_up_first_then_black_on_rank_8():
    s = new_match(seed=SEED)
    assert s.phase == SETUP and to_move(s) == "white" and s.orb == 0
    assert legal_actions(s) == [] and setup_choices(s) == list(TYPES)
    s = play(s, {"type": "setup", "backrow": BACKROW})
    assert s.phase == SETUP and to_move(s) == "black"
    row = list(reversed(BACKROW))
    s = play(s, {"type": "setup", "backrow": row})
    arena = arena_of(s)
    assert "".join(arena[f + "1"] for f in "abcdefgh") == "CFEDUBSM"
    assert "".join(arena[f + "8"] for f in "abcdefgh") == "msbudefc"
    assert s.phase == DECISION and to_move(s) == "white"
    assert setup_choices(s) == []


def test_r7_each_reserve_then_holds_two_of_each_type_and_white_holds_the_orb():
    s = new_match(seed=SEED)
    s = play(s, {"type": "setup", "backrow": BACKROW})
    s = play(s, {"type": "setup", "backrow": BACKROW})
    assert all(reserve_of(s, c, k) == 2 for c in ("white", "black") for k in TYPES)
    assert s.orb == 0


def test_r7_the_backrow_holds_one_of_each_type():
    s = new_match(seed=SEED)
    refused(s, {"type": "setup", "backrow": ["dragon"] * 8}, "R7")
    refused(s, {"type": "setup", "backrow": BACKROW[:7] + ["dragon"]}, "R7")


def test_r7_setup_only_in_the_setup_phase():
    s = new_match(seed=SEED)
    refused(s, PASS, "R9")
    refused(s, {"type": "place", "mage": "animist", "minion": "beast"}, "R9")
    refused(s, remove("animist"), "R10")
    s = play(s, {"type": "setup", "backrow": BACKROW})
    s = play(s, {"type": "setup", "backrow": BACKROW})
    refused(s, {"type": "setup", "backrow": BACKROW}, "R7")


def test_r7_malformed_backrow_is_refused_as_malformed():
    s = new_match(seed=SEED)
    for bad in (BACKROW[:7], BACKROW + ["dragon"], "dragon", [1] * 8, ["queen"] * 8):
        with pytest.raises(MalformedAction):
            play(s, {"type": "setup", "backrow": bad})


def test_r20_an_empty_seed_is_refused():
    """A seed must exist to be committed to and revealed (R20); '' is refused."""
    with pytest.raises(MalformedAction):
        new_match("")
