"""An attempt judged against a puzzle's line: pure, the rules' own refusals.

A solver sends their actions so far, from the puzzle's position. Each is
read and played by the rules: a malformed one is refused as the engine
refuses it (MalformedAction), an illegal one with the rule it breaks
(IllegalAction, "R4: ..."). A legal action is right when it is the line's
action there, or when it wins the match at once (two captures may both end
the match: either is a solution, as any mate is in chess). The opponent's
answers are the line's, played for them. Turns are read from the state, so
two actions of the solver in a row (the Seer, R14) are simply two actions.

The answer is one of three: wrong (the line is shown), solved, or right so
far, with the opponent's answers and the position to go on from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.rules import OVER, MalformedAction, State, action_json, apply, parse_action

COLOURS = ("white", "black")


class TooManyActions(MalformedAction):
    """More actions than the puzzle asks for."""


@dataclass
class Judged:
    correct: bool
    complete: bool  # solved or failed: the puzzle is over
    state: State  # where the solver stands now (after the answers, when right so far)
    replies: list[dict[str, Any]] = field(default_factory=list)  # the answers after the last action sent


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two contract actions are one (the engine's canonical form: the
    Illusionist's two squares in either order are one swap)."""
    return parse_action(a) == parse_action(b)


def judge(position: State, line: list[dict[str, Any]], actions: list[Any]) -> Judged:
    solver = COLOURS[position.to_move]
    state = position
    sent = 0
    replies: list[dict[str, Any]] = []
    for ply in line:
        if ply["player"] != solver:
            state = apply(state, ply["action"])[0]
            replies.append(ply["action"])
            continue
        if sent == len(actions):
            return Judged(True, False, state, replies)
        action = actions[sent]
        sent += 1
        replies = []
        after = apply(state, action)[0]  # refuses what the rules refuse, naming the rule
        if after.phase == OVER and after.result and after.result["winner"] == solver:
            return _finished(after, actions, sent)
        if not same(action_json(parse_action(action)), ply["action"]):
            return Judged(False, True, after)
        state = after
    return _finished(state, actions, sent)


def _finished(state: State, actions: list[Any], sent: int) -> Judged:
    if sent < len(actions):
        raise TooManyActions(f"the puzzle is solved after {sent} of your actions; {len(actions)} were sent")
    return Judged(True, True, state)
