"""Puzzles found in a position: one action, and only one, that wins.

A position of the action phase is a puzzle when exactly one action of the
player to move keeps a winning expected score for them and every other
action drops it to no better than `HOLDS` (the engine's verdict, at two
depths: the cheap one first, then the deeper one that confirms the action is
unique). The solution goes on while it stays forced: after the solver's
action, the opponent's answer must be forced (their only reply that does not
lose at once, or the engine's clear best by `CLEAR` of expected score), and
the solver's next action must again be the only win, up to `MOST_MOVES` of
the solver's actions. It ends early at the end of the match, or of the
action phase (a new round's placements are not a tactic).

Turns do not simply alternate (R9-R14): after the Seer a player removes
twice in a row, and a player with no minion left in the tower is skipped, so
the line reads whose turn it is from the state at every step and the solver
may play two actions with no answer between them.

Expected score is the evaluation's own scale (evaluate.py: tanh(score /
SCALE) = 2P - 1), from the solver's side. That scale was fitted to how
matches end, and it is calm: a dragon taken is worth about 0.11 of expected
score. So WINNING (0.62) is a real lead, a greater minion or more, or a
win by captures in sight; HOLDS (0.54) is a side barely ahead, the lead gone.

Hidden information (R20): the chaos deck's order is read only when a round
ends in the rotating game (R17); a line never crosses the end of a round,
but the search below it does, so rotating matches are not mined: the
verdict could depend on a deck order the solver cannot see. In the other
variants the deck is never drawn from after the deal, and the position text
a solver is shown (`public_text`) holds everything the rules read.

Everything here is pure and deterministic: the search has no deadline, only
a depth, so the same position gives the same verdict on every machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Final

from app.bots.candidates import Action, candidates
from app.bots.evaluate import SCALE
from app.bots.search import Search
from app.rules import ACTION, VARIANTS, State, action_json, apply

# The solver's expected score (0..1) an action must keep to count as winning,
# and the most every other action may leave them.
WINNING: Final = 0.62
HOLDS: Final = 0.54
CLEAR: Final = 0.10  # the opponent's best answer beats their next by this much: forced
MOST_MOVES: Final = 3
GLANCE: Final = 1  # the depth of a glance that rules most positions out
PROMISE: Final = 0.53  # the best action at a glance must keep the solver at least this
QUICK: Final = 2  # the depth of the first real look (and of the tests' re-check)
DEEP: Final = 3  # the depth that confirms a puzzle
INF: Final = float("inf")
UNMINED_VARIANTS: Final = ("rotating",)  # its deck is drawn from as rounds end (R17)


def raw(expected: float) -> float:
    """The search's raw score for the solver's expected score `expected`."""
    return SCALE * math.atanh(2.0 * expected - 1.0)


WIN_RAW: Final = raw(WINNING)
HOLD_RAW: Final = raw(HOLDS)


def expected(value: float, colour: int) -> float:
    """`colour`'s expected score (0..1) of the search's raw value (White's)."""
    own = value if colour == 0 else -value
    return 0.5 * (1.0 + math.tanh(own / SCALE))


@dataclass
class Verdict:
    """What the search says of one position: the only winning action, or None."""

    action: Action | None
    value: float = 0.0  # White's raw value of that action, at the depth searched


def _searcher(depth: int) -> Search:
    return Search(INF, max_depth=depth)


def only_win(s: State, depth: int, first: list[Action] | None = None) -> Verdict:
    """The one action of the player to move that keeps WINNING at `depth`
    while every other keeps at most HOLDS; `Verdict(None)` if there is none.

    Each action is searched with the window between the two thresholds, so
    the search only has to prove on which side of it an action falls; the
    most promising `first` are tried first, and the look stops at the first
    sign there is no puzzle."""
    actions = candidates(s)
    if len(actions) < 2:
        return Verdict(None)  # a forced action is no puzzle
    if first:
        head = [a for a in first if a in actions]
        actions = head + [a for a in actions if a not in head]
    search = _searcher(depth)
    sign = 1.0 if s.to_move == 0 else -1.0
    # In White's terms the window is (alpha, beta): below alpha holds, above beta wins.
    alpha, beta = (HOLD_RAW, WIN_RAW) if sign > 0 else (-WIN_RAW, -HOLD_RAW)
    winner: Action | None = None
    winner_value = 0.0
    for action in actions:
        child = apply(s, action)[0]
        v = search.value(child, depth - 1, alpha, beta)
        own = sign * v
        if own >= WIN_RAW:
            if winner is not None:
                return Verdict(None)  # a second win: not unique
            winner, winner_value = action, v
        elif own > HOLD_RAW:
            return Verdict(None)  # neither winning nor losing the win: no clear answer
    return Verdict(winner, winner_value)


def forced_answer(s: State, depth: int) -> Action | None:
    """The opponent's answer in `s` if it is forced: the only legal one, or
    the engine's best by CLEAR of expected score over every other."""
    actions = candidates(s)
    if len(actions) == 1:
        return actions[0]
    search = _searcher(depth)
    best, info = search.root(s, actions)
    best_value = info["value"]  # White's raw value
    colour = s.to_move
    mark = expected(best_value, colour) - CLEAR
    if mark <= 0.0:
        return best
    # Every other answer must leave the answerer below `mark`: a null window there.
    bound = raw(mark) if colour == 0 else -raw(mark)
    for action in actions:
        if action == best:
            continue
        v = search.value(apply(s, action)[0], depth - 1, bound - 1e-9, bound + 1e-9)
        if expected(v, colour) >= mark:
            return None
    return best


@dataclass
class Puzzle:
    """A position and its forced line, in the contract's words."""

    position: State
    line: list[dict[str, Any]] = field(default_factory=list)  # [{"player", "action"}], both sides
    themes: list[str] = field(default_factory=list)
    value: float = 0.0  # the solver's expected score after their first action (deep search)

    @property
    def solver(self) -> int:
        return self.position.to_move

    @property
    def moves(self) -> int:
        colour = ("white", "black")[self.solver]
        return sum(1 for ply in self.line if ply["player"] == colour)


def minable(s: State) -> bool:
    """Whether `s` may hold a puzzle at all: the action phase of a running
    match in a variant whose hidden deck the search cannot reach."""
    return s.phase == ACTION and VARIANTS[s.variant] not in UNMINED_VARIANTS


def puzzle_at(s: State, quick: int = QUICK, deep: int = DEEP) -> Puzzle | None:
    """The puzzle in `s`, or None. The first look at `quick` depth rules out
    most positions cheaply (after a glance at `GLANCE` that rules out the
positions where no action even promises a lead: the scale is calibrated, so
a lead that shows at no depth is rare); what it finds is confirmed at `deep`."""
    if not minable(s):
        return None
    actions = candidates(s)
    if len(actions) < 2:
        return None
    # A glance first: with no action that even promises a lead, no action wins.
    _, glance = _searcher(GLANCE).root(s, actions)
    if expected(glance["value"], s.to_move) < PROMISE:
        return None
    first = only_win(s, quick)
    if first.action is None:
        return None
    confirmed = only_win(s, deep, [first.action])
    if confirmed.action != first.action:
        return None
    from .themes import themes_of  # themes read the line; the verdict does not need them

    solver = s.to_move
    puzzle = Puzzle(s, value=expected(confirmed.value, solver))
    state, action, moves = s, first.action, 0
    while True:
        puzzle.line.append({"player": ("white", "black")[state.to_move], "action": action_json(action)})
        state = apply(state, action)[0]
        moves += 1
        if state.phase != ACTION or moves >= MOST_MOVES:
            break
        if state.to_move != solver:
            answer = forced_answer(state, deep - 1)
            if answer is None:
                break
            after = apply(state, answer)[0]
            if after.phase != ACTION or after.to_move != solver:
                break  # the answer ends the phase, or the opponent goes on: the line stops here
            nxt = _next_only_win(after, quick, deep)
            if nxt is None:
                break
            puzzle.line.append({"player": ("white", "black")[state.to_move], "action": action_json(answer)})
            state, action = after, nxt
        else:
            nxt = _next_only_win(state, quick, deep)  # the solver plays again (the Seer, a skipped turn)
            if nxt is None:
                break
            action = nxt
    puzzle.themes = themes_of(s, puzzle.line)
    return puzzle


def _next_only_win(s: State, quick: int, deep: int) -> Action | None:
    first = only_win(s, quick)
    if first.action is None:
        return None
    confirmed = only_win(s, deep, [first.action])
    return first.action if confirmed.action == first.action else None


def replay(position: State, line: list[dict[str, Any]]) -> list[State]:
    """Every state along a line, the position first (raises what `apply` raises)."""
    states = [position]
    for ply in line:
        states.append(apply(states[-1], ply["action"])[0])
    return states


def still_unique(p: Puzzle, depth: int = QUICK) -> bool:
    """Whether every solver's action of `p`'s line is still the only win at `depth`."""
    colour = ("white", "black")[p.solver]
    state = p.position
    for ply in p.line:
        if ply["player"] == colour:
            verdict = only_win(state, depth)
            if verdict.action is None or action_json(verdict.action) != ply["action"]:
                return False
        state = apply(state, ply["action"])[0]
    return True
