"""The position text form (app/rules/notation.py) and the JSON state round-trip."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import State, apply, from_text, new_match, public_view, to_text
from tests.rules.helpers import BACKROW, SEED, position


def round_trips(s: State) -> None:
    assert from_text(to_text(s)) == s
    assert State.from_json(json.loads(json.dumps(s.to_json()))) == s


def test_new_match_text_form():
    s = new_match(seed=SEED)
    fields = to_text(s).split()
    assert len(fields) == 17
    assert fields[0] == "8/8/8/8/8/8/8/8" and fields[1] == "sw" and fields[2] == "w"
    assert fields[4] == "33333333/33333333" and fields[14] == SEED
    assert fields[15] == "standard:10" and fields[16] == "-"
    round_trips(s)


def test_text_form_after_setup_shows_both_backrows():
    s = new_match(seed=SEED)
    s, _ = apply(s, {"type": "setup", "backrow": BACKROW})
    s, _ = apply(s, {"type": "setup", "backrow": BACKROW})
    assert to_text(s).split()[0] == "cfedubsm/8/8/8/8/8/8/CFEDUBSM"
    round_trips(s)


def test_every_field_round_trips():
    s = position({"a1": "C", "d4": "u", "h8": "c"}, turn="ab", orb="b", round=7,
                 tower={"animist": "U", "seer": "b", "rune_master": "F", "conjurer": "s"},
                 variant="archmage", chaos=("seer", "magus", "force_mage", None),
                 private=(["rune_master"], ["conjurer"]), runes="wb", wards=("d4", "h8"),
                 owed="bb", quiet="4*", deck=["alchemist", "illusionist"],
                 discard=["mentalist", "enchanter", "dream_lord", "shadow_mage"],
                 no_progress_rounds=0, custom=True)
    text = to_text(s)
    assert from_text(text) == s and to_text(from_text(text)) == text
    assert s.owed == (1, 1) and s.captured and s.quiet == 4 and s.custom
    round_trips(s)


def test_finished_match_round_trips():
    s = position({"a1": "C", "h8": "c"}, turn="xw", result="=:no_progress")
    assert s.result == {"winner": None, "reason": "no_progress"}
    round_trips(s)
    s = position({"a1": "C"}, turn="xb", result="w:eliminated")
    assert s.result == {"winner": "white", "reason": "eliminated"}


@settings(max_examples=60, deadline=None, database=None)
@given(seed=st.text(min_size=1, max_size=40))
def test_any_chosen_seed_round_trips(seed):
    # A custom match's seed is whatever its creator typed: spaces, "?", "%"...
    s = new_match(seed=seed, custom=True)
    round_trips(s)
    assert public_view(s)["seed"] == seed
    hidden = new_match(seed=seed)
    assert from_text(to_text(hidden)) == hidden
