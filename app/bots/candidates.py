"""The actions worth looking at, each with a cheap first guess of its worth.

Both thinking levels start here. In the decision phase the type placed on a
chamber rarely matters (the minion goes back to the reserve before the power
fires, R10), so each chamber is offered with one filler type and with the
types that do matter there: its own type on a move-or-summon chamber (so it
can be summoned back), the greater and minor types on the Conjurer (it
summons the very minion). That cuts ~129 placements to ~25 without losing a
real choice. In the action phase every legal action is kept; `guess` orders
them so the search meets captures first.
"""

from __future__ import annotations

from typing import Any

from app.rules import DECISION, State, legal_actions

from .board import CONJURER, TYPE_OF_MAGE, VALUE

Action = tuple[Any, ...]


def filler(s: State, colour: int) -> int | None:
    """The type to place where the type does not matter: the cheapest of the
    most plentiful, keeping the valuable ones for summons."""
    base = 8 * colour
    held = [k for k in range(8) if s.reserve[base + k]]
    if not held:
        return None
    return max(held, key=lambda k: (s.reserve[base + k], -VALUE[k]))


def candidates(s: State) -> list[Action]:
    """Legal actions of the player to move, the decision phase thinned out."""
    actions = legal_actions(s)
    if s.phase != DECISION:
        return actions
    colour = s.to_move
    fill = filler(s, colour)
    out = []
    for action in actions:
        if action[0] != "place":
            out.append(action)
            continue
        mage, k = action[1], action[2]
        if k == fill or TYPE_OF_MAGE.get(mage) == k or (mage == CONJURER and k < 6):
            out.append(action)
    return out


def guess(s: State, action: Action) -> float:
    """A cheap score of an action for ordering: captures by victim value (most
    valuable victim, least valuable attacker first), then summons."""
    if action[0] != "remove" or action[2] is None:
        return 0.0
    power = action[2]
    tag = power[0]
    if tag == "move":
        victim: int = s.arena[power[2]]
        if victim:
            mover: int = s.arena[power[1]]
            if (victim - 1) >> 3 != (mover - 1) >> 3:
                return 100.0 + 10.0 * VALUE[(victim - 1) & 7] - VALUE[(mover - 1) & 7]
        return 1.0
    if tag == "summon":
        return 5.0
    if tag == "dream":
        return 2.0
    return 1.5
