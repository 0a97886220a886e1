"""The `greedy` level: a fixed priority list, one action deep.

In the spirit of a solo game's "dummy" opponent, it does the first thing on
its list that it can, and uses the evaluation (evaluate.py) only to choose
among actions of that kind. docs/bots.md writes the list out.

Action phase:
 1. win now;
 2. capture the most valuable minion it can;
 3. save a threatened greater minion (leave none of them attacked by a
    minion the opponent can still move this round);
 4. summon, the most valuable type first;
 5. advance a minion towards the opponent's side;
 6. otherwise, the best action by the evaluation.

Decision phase:
 1. take a chamber that lets it capture, the most valuable victim first;
 2. take the chamber that would let the opponent capture one of its greater
    minions;
 3. take a chamber that summons;
 4. otherwise, the best placement by the evaluation.
"""

from __future__ import annotations

import random
from typing import Any

from app.rules import DECISION, OVER, State, apply

from .board import ANIMIST, GREATER, MAGE_OF_TYPE, TYPE_OF_MAGE, VALUE, reach
from .candidates import Action, candidates
from .evaluate import score


def _best(s: State, actions: list[Action], rng: random.Random,
          results: dict[Action, State] | None = None) -> Action:
    """The action whose result the evaluation likes best for the player to move."""
    sign = 1.0 if s.to_move == 0 else -1.0
    best: list[Action] = []
    top = -float("inf")
    for action in actions:
        after = results[action] if results is not None else apply(s, action)[0]
        value = sign * score(after)
        if value > top + 1e-9:
            top, best = value, [action]
        elif value > top - 1e-9:
            best.append(action)
    return rng.choice(best)


def _victim(s: State, action: Action) -> int:
    """The enemy minion this action captures, 0 if none."""
    if action[0] != "remove" or action[2] is None or action[2][0] != "move":
        return 0
    _, a, b = action[2]
    victim, mover = s.arena[b], s.arena[a]
    return victim if victim and (victim - 1) >> 3 != (mover - 1) >> 3 else 0


def threatened_greater(s: State, colour: int) -> list[int]:
    """Squares of `colour`'s greater minions that an enemy minion attacks and
    that the enemy can still move this round (it holds the chamber)."""
    enemy = 1 - colour
    held = [False] * 9
    for m in range(9):
        piece = s.occupant[m]
        held[m] = bool(piece) and (piece - 1) >> 3 == enemy
    arena, wards = s.arena, s.wards
    knight = bool((s.runes >> enemy) & 1)
    out = set()
    for sq in range(64):
        piece = arena[sq]
        if not piece or (piece - 1) >> 3 != enemy or (wards >> sq) & 1:
            continue
        if not (held[ANIMIST] or held[MAGE_OF_TYPE[(piece - 1) & 7]]):
            continue
        for t in reach(arena, sq, knight):
            target = arena[t]
            if (target and (target - 1) >> 3 == colour and (target - 1) & 7 in GREATER
                    and not (wards >> t) & 1):
                out.add(t)
    return sorted(out)


def choose_greedy(s: State, rng: random.Random) -> Action:
    actions = candidates(s)
    if len(actions) == 1:
        return actions[0]
    if s.phase == DECISION:
        return _decide(s, actions, rng)
    return _act(s, actions, rng)


def _act(s: State, actions: list[Action], rng: random.Random) -> Action:
    colour = s.to_move
    results = {a: apply(s, a)[0] for a in actions}
    wins = [a for a, after in results.items() if after.phase == OVER and after.winner == colour]
    if wins:
        return wins[0]
    captures = [(VALUE[(_victim(s, a) - 1) & 7], a) for a in actions if _victim(s, a)]
    if captures:
        top = max(v for v, _ in captures)
        return _best(s, [a for v, a in captures if v == top], rng, results)
    if threatened_greater(s, colour):
        safe = [a for a, after in results.items() if not threatened_greater(after, colour)]
        if safe:
            return _best(s, safe, rng, results)
    summons = [(VALUE[_summoned(s, a)], a) for a in actions if _summoned(s, a) >= 0]
    if summons:
        top = max(v for v, _ in summons)
        return _best(s, [a for v, a in summons if v == top], rng, results)
    advances = [a for a in actions if _advance(s, a) > 0]
    if advances:
        return _best(s, advances, rng, results)
    return _best(s, actions, rng, results)


def _summoned(s: State, action: Action) -> int:
    """The type this action summons, -1 if none."""
    if action[0] != "remove" or action[2] is None:
        return -1
    power = action[2]
    if power[0] == "dream":
        power = power[2]
    if power[0] != "summon":
        return -1
    mage = action[1]
    if mage in TYPE_OF_MAGE:
        return TYPE_OF_MAGE[mage]
    piece = s.occupant[mage]  # the Conjurer summons the minion it held
    return (piece - 1) & 7


def _advance(s: State, action: Action) -> int:
    """Ranks gained towards the opponent by an ordinary move of one's own minion."""
    if action[0] != "remove" or action[2] is None or action[2][0] != "move":
        return 0
    a: int = action[2][1]
    b: int = action[2][2]
    if (s.arena[a] - 1) >> 3 != s.to_move:
        return 0
    gained = (b >> 3) - (a >> 3)
    return gained if s.to_move == 0 else -gained


def _decide(s: State, actions: list[Action], rng: random.Random) -> Action:
    colour, enemy = s.to_move, 1 - s.to_move
    places = [a for a in actions if a[0] == "place"]
    if not places:
        return actions[0]
    chambers = {a[1] for a in places}
    mine = _capture_values(s, colour, chambers)
    if mine:
        top = max(mine.values())
        return _best(s, [a for a in places if mine.get(a[1]) == top], rng)
    theirs = _capture_values(s, enemy, chambers, greater_only=True)
    if theirs:
        top = max(theirs.values())
        return _best(s, [a for a in places if theirs.get(a[1]) == top], rng)
    summons = [a for a in places
               if a[1] in TYPE_OF_MAGE and (s.reserve[8 * colour + TYPE_OF_MAGE[a[1]]]) and
               _summon_room(s, colour, TYPE_OF_MAGE[a[1]])]
    if summons:
        return _best(s, summons, rng)
    return _best(s, actions, rng)


def _summon_room(s: State, colour: int, k: int) -> bool:
    if k in GREATER:
        squares: Any = range(56, 64) if colour else range(0, 8)
    elif k < 6:
        squares = range(32, 64) if colour else range(0, 32)
    else:
        squares = range(64)
    return any(not s.arena[q] for q in squares)


def _capture_values(s: State, colour: int, chambers: set[int], greater_only: bool = False) -> dict[int, float]:
    """For each empty chamber among `chambers` that moves some of `colour`'s
    minions, the most valuable enemy minion one of them attacks."""
    arena, wards = s.arena, s.wards
    knight = bool((s.runes >> colour) & 1)
    best_by_type = [0.0] * 8
    for sq in range(64):
        piece = arena[sq]
        if not piece or (piece - 1) >> 3 != colour or (wards >> sq) & 1:
            continue
        k = (piece - 1) & 7
        for t in reach(arena, sq, knight):
            target = arena[t]
            if target and not (wards >> t) & 1:
                if greater_only and (target - 1) & 7 not in GREATER:
                    continue
                best_by_type[k] = max(best_by_type[k], VALUE[(target - 1) & 7])
    out: dict[int, float] = {}
    for m in chambers:
        if m == ANIMIST:
            value = max(best_by_type)
        elif m in TYPE_OF_MAGE:
            value = best_by_type[TYPE_OF_MAGE[m]]
        else:
            continue
        if value > 0:
            out[m] = value
    return out
