"""Refusals: every illegal action names its rule first and changes nothing;
malformed actions are told apart. Also the action JSON form both ways."""

from __future__ import annotations

import pytest

from app.rules import (
    BadPosition,
    IllegalAction,
    MageryError,
    MalformedAction,
    State,
    action_json,
    apply,
    from_text,
    legal_actions,
    new_match,
    parse_action,
    to_text,
)
from tests.rules.helpers import (
    BACKROW,
    RULE_PREFIX,
    SEED,
    position,
    refused,
    refused_any,
    remove,
    snapshot,
)

TWO = {"a1": "C", "h8": "c"}

MALFORMED = [
    None, 3, "pass", [], {}, {"type": "castle"}, {"type": None}, {"type": ["pass"]},
    {"type": "pass", "extra": 1},
    {"type": "place", "mage": "animist"},
    {"type": "place", "mage": "animist", "minion": "queen"},
    {"type": "place", "mage": "archmage", "minion": "beast"},
    {"type": "place", "mage": 9, "minion": "beast"},
    {"type": "place", "mage": "animist", "minion": ["beast"]},
    {"type": "remove", "mage": "animist"},
    {"type": "remove", "mage": "animist", "power": []},
    {"type": "remove", "mage": "animist", "power": "move"},
    {"type": "remove", "mage": "animist", "power": {"move": ["a1"]}},
    {"type": "remove", "mage": "animist", "power": {"move": ["a1", "i9"]}},
    {"type": "remove", "mage": "animist", "power": {"move": "a1a2"}},
    {"type": "remove", "mage": "animist", "power": {"move": ["a1", "a2"], "summon": "a3"}},
    {"type": "remove", "mage": "animist", "power": {"jump": "a1"}},
    {"type": "remove", "mage": "seer", "power": {"player": "red"}},
    {"type": "remove", "mage": "seer", "power": {"player": 0}},
    {"type": "remove", "mage": "alchemist", "power": {"square": "a1", "minion": "orc"}},
    {"type": "remove", "mage": "magician", "power": {"target": "king"}},
    {"type": "remove", "mage": "dream_lord", "power": {"mage": "seer", "power": None}},
    {"type": "remove", "mage": "dream_lord", "power": {"mage": "sir", "power": {}}},
    {"type": "remove", "mage": "illusionist", "power": {"swap": ["a1", "a2", "a3"]}},
    {"type": "remove", "mage": "conjurer", "power": {"summon": "A1"}},
    {"type": "remove", "mage": "conjurer", "power": {"summon": None}},
    {"type": "setup", "backrow": None},
    {"type": "setup"},
]


@pytest.mark.parametrize("action", MALFORMED, ids=[repr(a)[:60] for a in MALFORMED])
def test_malformed_actions_are_refused_as_malformed_and_change_nothing(action):
    for s in (new_match(seed=SEED), position(TWO, tower={"animist": "U"}),
              position(TWO, turn="dw")):
        err = refused_any(s, action)
        assert isinstance(err, MalformedAction), (action, err)
        assert isinstance(err, MageryError) and isinstance(err, ValueError)


ILLEGAL = [
    ("aw", {"type": "pass"}, "R9"),
    ("aw", {"type": "place", "mage": "mystic", "minion": "beast"}, "R9"),
    ("aw", {"type": "setup", "backrow": BACKROW}, "R7"),
    ("aw", remove("mystic"), "R10"),
    ("aw", remove("conjurer"), "R6"),
    ("aw", remove("animist", {"move": ["a1", "a8"]}), "R4"),
    ("aw", remove("animist", {"move": ["a1", "b3"]}), "R3"),
    ("aw", remove("animist", {"move": ["h8", "h7"]}), "R12"),
    ("aw", remove("animist", {"summon": "b1"}), "R12"),
    ("aw", remove("animist", {}), "R12"),
    ("dw", remove("animist"), "R10"),
    ("dw", {"type": "place", "mage": "seer", "minion": "beast"}, "R9"),
    ("dw", {"type": "place", "mage": "conjurer", "minion": "beast"}, "R6"),
]


@pytest.mark.parametrize(("turn", "action", "rule"), ILLEGAL, ids=[f"{r}-{a}"[:70] for _, a, r in ILLEGAL])
def test_illegal_actions_name_their_rule_first_and_change_nothing(turn, action, rule):
    tower = {"animist": "U", "seer": "u"} if turn == "aw" else {"seer": "u"}
    s = position(TWO, turn=turn, tower=tower)
    err = refused(s, action, rule)
    assert RULE_PREFIX.match(str(err)) and err.rule == rule and err.detail


def test_an_action_never_changes_the_state_it_is_given():
    s = position({"d4": "C", "d7": "e", "h8": "u"}, tower={"artificer": "U", "animist": "u"})
    before = snapshot(s)
    apply(s, remove("artificer", {"move": ["d4", "d7"]}))
    assert snapshot(s) == before


def test_every_listed_action_prints_and_parses_back():
    s = position({"d4": "U", "e5": "c", "e4": "U", "h8": "u", "a1": "C"},
                 tower={"dream_lord": "E", "animist": "B", "mystic": "F", "magician": "S",
                        "oracle": "u", "seer": "u"},
                 chaos=("dream_lord", "seer", "magus", "force_mage"))
    actions = legal_actions(s)
    assert len(actions) > 100
    for action in actions:
        assert parse_action(action_json(action)) == action


def test_illusionist_squares_parse_in_alphabetical_order():
    a = parse_action(remove("illusionist", {"swap": ["h8", "a1"]}))
    b = parse_action(remove("illusionist", {"swap": ["a1", "h8"]}))
    assert a == b and action_json(a)["power"] == {"swap": ["a1", "h8"]}


def test_bad_positions_are_refused():
    good = to_text(position(TWO, tower={"animist": "U"}))
    fields = good.split()
    for i, bad in [(0, "8/8/8"), (0, "9/8/8/8/8/8/8/8"), (1, "qw"), (2, "x"), (4, "1/2"),
                   (6, "............|se.,mg.,fm."), (15, "chess:10"), (16, "w:bored")]:
        broken = fields.copy()
        broken[i] = bad
        with pytest.raises(BadPosition):
            from_text(" ".join(broken))
    with pytest.raises(BadPosition):
        from_text(good + " extra")
    with pytest.raises(BadPosition):
        State.from_json({"arena": []})
    data = position(TWO).to_json()
    data["arena"] = data["arena"][:10]
    with pytest.raises(BadPosition):
        State.from_json(data)
    data = position(TWO).to_json()
    data["phase"] = "action"
    with pytest.raises(BadPosition):
        State.from_json(data)


def test_illegal_action_is_a_magery_error_with_a_rule():
    err = IllegalAction("R4", "detail")
    assert str(err) == "R4: detail" and err.rule == "R4" and isinstance(err, MageryError)
