"""Greedy in hand-made positions: it takes a win when one exists, and saves a
threatened greater minion. Positions are written in the text form
(tests/rules/helpers.position)."""

from __future__ import annotations

from app.bots import choose
from app.rules import State, action_json, apply, legal_actions
from tests.rules.helpers import position

SEED = 7


def _captures_of_greater(s: State, victim_colour: int) -> list[dict]:
    """Actions of the player to move that capture a greater minion of `victim_colour`."""
    out = []
    for a in legal_actions(s):
        if a[0] == "remove" and a[2] is not None and a[2][0] == "move":
            victim = s.arena[a[2][2]]
            if victim and (victim - 1) >> 3 == victim_colour and (victim - 1) & 7 < 3:
                out.append(action_json(a))
    return out


def win_position() -> State:
    # Black has lost two constructs: a third ends the match (R15). White's
    # Animist can take that construct (e2-h5) or, worth more, the dragon (d1-d5).
    return position(
        {"d1": "C", "e2": "E", "a1": "U", "d5": "d", "h5": "c", "a8": "u"},
        turn="aw", tower={"animist": "B", "druid": "f"},
        dead={"black": {"construct": 2}},
    )


def test_greedy_takes_the_win_over_a_richer_capture() -> None:
    s = win_position()
    win = {"type": "remove", "mage": "animist", "power": {"move": ["e2", "h5"]}}
    richer = {"type": "remove", "mage": "animist", "power": {"move": ["d1", "d5"]}}
    assert richer in [action_json(a) for a in legal_actions(s)]
    for seed in range(5):
        action = choose("greedy", s.to_json(), seed, 0.1)
        assert action == win
        after, _ = apply(s, action)
        assert after.result == {"winner": "white", "reason": "three_of_a_kind"}


def test_greedy_captures_the_most_valuable_minion_when_nothing_wins() -> None:
    s = position(
        {"d1": "C", "e2": "E", "a1": "U", "d5": "d", "h5": "c", "a8": "u"},
        turn="aw", tower={"animist": "B", "druid": "f"},
    )
    action = choose("greedy", s.to_json(), SEED, 0.1)
    assert action == {"type": "remove", "mage": "animist", "power": {"move": ["d1", "d5"]}}


def test_strong_takes_the_win_too() -> None:
    s = win_position()
    action = choose("strong", s.to_json(), SEED, 0.3)
    assert apply(s, action)[0].result == {"winner": "white", "reason": "three_of_a_kind"}


def threatened_position(turn: str) -> State:
    # White's construct on d4 is attacked by Black's fey on e6 (a knight's
    # leap), and Black holds the Druid, which moves it. White holds the
    # Artificer: it can move the construct, but it captures nothing from there.
    return position(
        {"d4": "C", "a1": "U", "b1": "B", "e6": "f", "h8": "u", "g8": "b"},
        turn=turn, tower={"artificer": "M", "druid": "s"},
    )


def test_the_threat_is_real_if_white_does_nothing() -> None:
    s = threatened_position("aw")
    declined, _ = apply(s, {"type": "remove", "mage": "artificer", "power": None})
    assert _captures_of_greater(declined, 0) == [
        {"type": "remove", "mage": "druid", "power": {"move": ["e6", "d4"]}}]


def test_greedy_saves_its_threatened_greater_minion() -> None:
    s = threatened_position("aw")
    for seed in range(5):
        action = choose("greedy", s.to_json(), seed, 0.1)
        after, _ = apply(s, action)
        assert after.to_move == 1
        assert _captures_of_greater(after, 0) == [], action


def test_greedy_takes_the_chamber_that_captures_in_the_decision_phase() -> None:
    # White's dragon on d4 attacks Black's construct on d7; the Dragon Lord is free.
    s = position(
        {"d4": "D", "a1": "U", "d7": "c", "h8": "u"},
        turn="dw", tower={"necromancer": "u"},
    )
    action = choose("greedy", s.to_json(), SEED, 0.1)
    assert action["type"] == "place"
    assert action["mage"] in ("dragon_lord", "animist")
