"""Issue 16, defects 8 and 11: the engine is the one teller of the game.

`describe_view` (what the server tells its log with, from the public state
before an entry) says exactly what `describe` says from the engine's own state;
every removal whose power moves a minion names the minion that moved, not only
the one taken off the chamber; the vocabulary document is the engine's data.
"""

from __future__ import annotations

import random

import pytest

from app.rules import (
    COLOURS,
    VARIANTS,
    action_json,
    apply,
    describe,
    legal_actions,
    new_match,
    public_view,
)
from app.rules.mages import MAGES
from app.rules.minions import SQUARE_NAMES, TYPES, owner_of, type_of
from app.rules.powers import POWERS
from app.rules.state import SETUP
from app.rules.vocabulary import MOVES, RULINGS, moves_from, vocabulary
from app.rules.words import describe_view
from tests.rules.helpers import BACKROW, position, remove


def _games(count: int):
    """Every (state, legal action) of `count` random games, all variants."""
    for g in range(count):
        rng = random.Random(g)
        s = new_match(f"{g:032x}", VARIANTS[g % len(VARIANTS)])
        for _ in range(2):
            setup = {"type": "setup", "backrow": rng.sample(BACKROW, 8)}
            yield s, setup
            s, _ = apply(s, setup)
        while not s.over:
            actions = legal_actions(s)
            for action in actions:
                yield s, action
            s, _ = apply(s, rng.choice(actions))


def _moved(power):
    """The (from, to) of a power that moves a minion, the Dream Lord's borrowed one too."""
    if power is None:
        return None
    if power[0] == "dream":
        return _moved(power[2])
    return (power[1], power[2]) if power[0] == "move" else None


def test_the_log_told_from_the_public_state_is_the_engines_describe():
    told = 0
    seen, view = None, None
    for s, action in _games(6):
        if s is not seen:  # one public state per position, told for each of its legal actions
            seen, view = s, public_view(s)
        parsed = action if isinstance(action, tuple) else None
        json_form = action if isinstance(action, dict) else action_json(action)
        assert describe_view(view, COLOURS[s.to_move], json_form) == describe(s, parsed or action)
        told += 1
    assert told > 10_000


def test_every_power_that_moves_a_minion_names_the_minion_that_moved():
    """Defect 8: "removes an elemental from the Wizard: c1 takes e1" hid the myrmidon."""
    seen = set()
    for s, action in _games(8):
        if not isinstance(action, tuple) or action[0] != "remove":
            continue
        moved = _moved(action[2])
        if moved is None:
            continue
        a, b = moved
        piece = s.arena[a]
        words = describe(s, action)
        mine = owner_of(piece) == s.to_move
        mover = f"the {TYPES[type_of(piece)]}" if mine else f"{COLOURS[owner_of(piece)].capitalize()}'s {TYPES[type_of(piece)]}"
        assert f"{mover} from {SQUARE_NAMES[a]}" in words, words
        seen.add(MAGES[action[1]] if action[2][0] != "dream" else "dream_lord")
    # Every mage whose power moves a minion was seen telling one.
    movers = {MAGES[r.mage] for r in POWERS if "move" in r.forms}
    assert movers <= seen, movers - seen


def test_a_myrmidon_moved_from_the_wizard_is_named_not_the_elemental_taken_off():
    s = position({"c1": "M", "e1": "f", "h8": "c"}, tower={"wizard": "E"})
    assert describe(s, remove("wizard", {"move": ["c1", "e1"]})) == (
        "White removes an elemental from the Wizard and takes Black's fey on e1 with the myrmidon from c1.")
    assert describe_view(public_view(s), "white", {"type": "remove", "mage": "wizard",
                                                    "power": {"move": ["c1", "e1"]}}) == describe(
        s, remove("wizard", {"move": ["c1", "e1"]}))


def test_the_vocabulary_is_the_engines_data():
    v = vocabulary()
    assert list(v["mages"]) == list(MAGES)
    for record in POWERS:
        words = v["mages"][MAGES[record.mage]]
        assert words["power"] == record.words and words["rule"] == record.rule
        assert words["minion"] == (None if record.kind is None else TYPES[record.kind])
        assert words["example"].startswith("White removes ")
    assert v["types"] == list(TYPES) and list(v["minions"]) == list(TYPES)
    for kind, name in enumerate(TYPES):
        assert v["minions"][name]["moves"] == MOVES[kind]
        assert v["minions"][name]["moves_from_d4"] == moves_from(kind)
    assert v["rulings"] == RULINGS and list(RULINGS) == [f"R{n}" for n in range(1, 21)]
    assert list(v["variants"]) == list(VARIANTS)


@pytest.mark.parametrize("kind, count", [("dragon", 27), ("elemental", 13), ("construct", 14), ("fey", 8),
                                         ("spirit", 8), ("myrmidon", 8), ("undead", 4), ("beast", 4)])
def test_the_move_diagrams_are_the_engines_moves(kind, count):
    squares = vocabulary()["minions"][kind]["moves_from_d4"]
    assert len(squares) == count
    s = position({"d4": "DECFSMUB"[TYPES.index(kind)], "h8": "c"}, tower={"animist": "U"})
    moves = {SQUARE_NAMES[a[2][2]] for a in legal_actions(s)
             if a[0] == "remove" and a[1] == MAGES.index("animist") and a[2] and a[2][0] == "move"
             and SQUARE_NAMES[a[2][1]] == "d4"}
    assert moves == set(squares)


def test_the_default_backrow_is_a_legal_setup_for_either_side() -> None:
    """The page's first setup offer is the engine's (R7), never a copy of its own."""
    state = new_match(seed="x")
    row = vocabulary()["default_backrow"]
    assert sorted(row) == sorted(TYPES)
    state, _ = apply(state, {"type": "setup", "backrow": row})
    state, _ = apply(state, {"type": "setup", "backrow": row})
    assert state.phase != SETUP
