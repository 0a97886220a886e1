"""The actions worth looking at, each with a cheap first guess of its worth.

Both thinking levels start here. In the decision phase the type placed on a
chamber rarely matters (the minion goes back to the reserve before the power
fires, R10), so each chamber is offered with one filler type and with the
types that do matter there: its own type on a move-or-summon chamber (so it
can be summoned back), the greater and minor types on the Conjurer (it
summons the very minion). That cuts ~129 placements to ~25 without losing a
real choice.

The action phase lists ~170 legal actions on average and up to ~850: the
Mystic alone moves any minion to any empty square (~400), the Illusionist
swaps any two (~160). `ranked` scores each action cheaply (captures first,
by victim; then moves, summons and swaps by the enemy minions they attack
from their new square, or the attacked minion they take to safety) and keeps
at most `PER_CHAMBER` of each chamber's powers, so the search spends its time
on the few that matter.
"""

from __future__ import annotations

from typing import Any, Final

from app.rules import DECISION, State, legal_actions

from .board import CONJURER, LEAPS, SLIDES, TYPE_OF_MAGE, VALUE, reach

Action = tuple[Any, ...]
PER_CHAMBER: Final = 6


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


class _Board:
    """Attack facts of one position, worked out once for scoring its actions."""

    def __init__(self, s: State) -> None:
        self.s = s
        self.colour = colour = s.to_move
        arena, wards = s.arena, s.wards
        self.enemy_attacks: set[int] = set()
        self.own_attacks: set[int] = set()
        # threat[k][sq]: the most valuable enemy minion a type-k minion of
        # ours would attack from sq.
        self.threat: list[dict[int, float]] = [{} for _ in range(8)]
        for sq, piece in enumerate(arena):
            if not piece:
                continue
            mine = (piece - 1) >> 3 == colour
            knight = bool((s.runes >> ((piece - 1) >> 3)) & 1)
            (self.own_attacks if mine else self.enemy_attacks).update(reach(arena, sq, knight))
            if mine or (wards >> sq) & 1:
                continue
            value = VALUE[(piece - 1) & 7]
            for k in range(8):
                table = self.threat[k]
                for origin in _origins(arena, k, sq):
                    if table.get(origin, 0.0) < value:
                        table[origin] = value

    def _arrive(self, k: int, sq: int) -> float:
        """Worth of a minion of ours of type k arriving on sq."""
        worth = 0.5 * self.threat[k].get(sq, 0.0)
        if sq in self.enemy_attacks:
            worth -= 0.3 * VALUE[k]
        return worth

    def score(self, mage: int, power: Any) -> float:
        if power is None:
            return 0.0
        s, tag = self.s, power[0]
        arena = s.arena
        if tag == "dream":
            return self.score(mage, power[2])
        if tag == "move":
            a: int = power[1]
            b: int = power[2]
            mover, victim = arena[a], arena[b]
            if (mover - 1) >> 3 != self.colour:  # the Mentalist moves an enemy minion
                return VALUE[(mover - 1) & 7] if b in self.own_attacks else 0.1
            k = (mover - 1) & 7
            if victim:
                return 100.0 + 10.0 * VALUE[(victim - 1) & 7] - VALUE[k]
            escape = 0.8 * VALUE[k] if a in self.enemy_attacks and b not in self.enemy_attacks else 0.0
            return 1.0 + escape + self._arrive(k, b)
        if tag == "summon":
            k = TYPE_OF_MAGE.get(mage, (s.occupant[mage] - 1) & 7)
            return 2.0 + self._arrive(k, power[1])
        if tag == "swap":
            return 1.0 + self._swap(power[1], power[2])
        if tag == "alchemy":
            sq: int = power[1]
            new: int = power[2]
            return 1.0 + self._arrive(new, sq) + 0.1 * (VALUE[new] - VALUE[(arena[sq] - 1) & 7])
        return 1.5

    def _swap(self, a: int, b: int) -> float:
        arena = self.s.arena
        worth = 0.0
        for here, there in ((a, b), (b, a)):
            piece = arena[here]
            if (piece - 1) >> 3 == self.colour:
                worth += self._arrive((piece - 1) & 7, there)
            elif there in self.own_attacks:
                worth += 0.5 * VALUE[(piece - 1) & 7]
        return worth


def _origins(arena: tuple[int, ...], k: int, target: int) -> list[int]:
    """Squares from which a type-k minion would attack `target` (every
    movement is symmetric, so this is the movement read backwards)."""
    out = list(LEAPS[k][target])
    for ray in SLIDES[k][target]:
        for sq in ray:
            out.append(sq)
            if arena[sq]:
                break
    return out


def ranked(s: State) -> list[tuple[float, Action]]:
    """Actions for the search below the root, best guess first: every
    placement and pass (thinned as in `candidates`), and in the action phase
    at most PER_CHAMBER powers of each chamber besides declining it."""
    actions = candidates(s)
    if s.phase == DECISION:
        return [(0.0, a) for a in actions]
    board = _Board(s)
    by_mage: dict[int, list[tuple[float, Action]]] = {}
    for action in actions:
        by_mage.setdefault(action[1], []).append((board.score(action[1], action[2]), action))
    out: list[tuple[float, Action]] = []
    for group in by_mage.values():
        group.sort(key=lambda t: -t[0])
        declined = [t for t in group if t[1][2] is None]
        powers = [t for t in group if t[1][2] is not None]
        out += declined + powers[:PER_CHAMBER]
    out.sort(key=lambda t: -t[0])
    return out
