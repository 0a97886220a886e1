"""The `strong` level: alpha-beta with iterative deepening on the evaluation.

Turns in Magery do not simply alternate (the Seer, passes, skipped turns,
R9-R14), so a node is a max node when White is to move and a min node when
Black is, read from `state.to_move` at every ply; values are always White's
(evaluate.score). The search deepens one ply at a time until the deadline,
which it checks every few nodes, and answers with the best root action of the
deepest iteration, or of the interrupted one when that already beat the
previous best (the previous best is searched first, so any action that beat
it did so at the greater depth).

Below the root, a node's actions are thinned and ordered by a cheap guess
(candidates.ranked), the best action remembered for the position from a
shallower iteration first; a node with two or more plies left orders its
actions by the evaluation of their results and searches only the best
`WIDTH` of them, so the search reaches the opponent's reply to a reply. The
root searches every legal action at depth 1 and the best `ROOT_WIDTH` of
them deeper. docs/bots.md says why alpha-beta rather than MCTS.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from app.rules import OVER, State, apply

from .candidates import Action, candidates, ranked
from .evaluate import WIN, score

WIDTH = 8  # actions searched at a node with two or more plies left
ROOT_WIDTH = 16  # root actions searched past the first ply, best of the shallower search
MAX_DEPTH = 16
CHECK_EVERY = 16  # nodes between looks at the clock
INF = float("inf")


class Timeout(Exception):
    pass


Clock = Callable[[], float]
CLOCKS: dict[str, Clock] = {"wall": time.perf_counter, "cpu": time.process_time}


class Search:
    def __init__(self, think_seconds: float, clock: Clock = time.perf_counter,
                 max_depth: int = MAX_DEPTH) -> None:
        self.max_depth = max_depth
        self.clock = clock
        self.start = clock()
        self.think_seconds = think_seconds
        self.deadline = self.start + think_seconds
        self.nodes = 0
        self.best_move: dict[int, Action] = {}
        self.depth_done = 0

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 and self.clock() > self.deadline:
            raise Timeout

    def _leaf(self, s: State, depth: int) -> float:
        self._tick()
        value = score(s)
        if s.phase == OVER and value:
            # A sooner win is better, a later loss less bad.
            return value + depth if value > 0 else value - depth
        return value

    def _ordered(self, s: State, depth: int) -> list[tuple[Action, State | None]]:
        remembered = self.best_move.get(hash(s))
        actions = ranked(s)
        if depth >= 2 and len(actions) > 1:
            sign = 1.0 if s.to_move == 0 else -1.0
            scored = []
            for _, a in actions:
                child = apply(s, a)[0]
                value = self._leaf(child, depth)
                scored.append((sign * value + (1e6 if a == remembered else 0.0), a, child))
            scored.sort(key=lambda t: -t[0])
            return [(a, child) for _, a, child in scored[:WIDTH]]
        out: list[tuple[Action, State | None]] = [(a, None) for _, a in actions if a != remembered]
        if remembered is not None and len(out) < len(actions):
            out.insert(0, (remembered, None))
        return out

    def value(self, s: State, depth: int, alpha: float, beta: float) -> float:
        if depth == 0 or s.phase == OVER:
            return self._leaf(s, depth)
        self._tick()
        maximising = s.to_move == 0
        best = -INF if maximising else INF
        best_action = None
        for action, child in self._ordered(s, depth):
            if child is None:
                child = apply(s, action)[0]
            v = self.value(child, depth - 1, alpha, beta)
            if maximising:
                if v > best:
                    best, best_action = v, action
                alpha = max(alpha, v)
            else:
                if v < best:
                    best, best_action = v, action
                beta = min(beta, v)
            if alpha >= beta:
                break
        if best_action is not None:
            self.best_move[hash(s)] = best_action
        return best

    def root(self, s: State, actions: list[Action]) -> tuple[Action, dict[str, Any]]:
        """The best of `actions` (all legal in `s`) found before the deadline."""
        sign = 1.0 if s.to_move == 0 else -1.0
        first_guess = {a: g for g, a in ranked(s)}
        order = sorted(actions, key=lambda a: -first_guess.get(a, 0.0))
        chosen = order[0]
        chosen_value = -INF
        for depth in range(1, self.max_depth + 1):
            values: dict[Action, float] = {}
            try:
                for action in order:
                    child = apply(s, action)[0]
                    if values:
                        bound = sign * max(values.values())
                        alpha, beta = (bound, INF) if sign > 0 else (-INF, bound)
                    else:
                        alpha, beta = -INF, INF
                    values[action] = sign * self.value(child, depth - 1, alpha, beta)
            except Timeout:
                if values:
                    first = order[0]
                    top = max(values, key=values.__getitem__)
                    # A cut-off value is a bound, not an exact value: only an
                    # action that beat the previous best counts.
                    if depth == 1 or (top != first and values[top] > values[first]):
                        chosen, chosen_value = top, values[top]
                break
            top = max(values, key=values.__getitem__)
            chosen, chosen_value = top, values[top]
            self.depth_done = depth
            order = sorted(order, key=lambda a: -values[a])[:ROOT_WIDTH]
            elapsed = self.clock() - self.start
            if chosen_value >= WIN or len(order) == 1 or elapsed > 0.5 * self.think_seconds:
                break  # a forced win, or the next ply would not finish in time
        return chosen, {"depth": self.depth_done, "nodes": self.nodes, "value": sign * chosen_value}


def choose_strong(s: State, think_seconds: float, clock: str = "wall") -> tuple[Action, dict[str, Any]]:
    """The strong level's action, searching until `think_seconds` have passed
    on the `clock` ("wall", or "cpu" for the arena on a busy machine)."""
    actions = candidates(s)
    if len(actions) == 1:
        return actions[0], {"depth": 0, "nodes": 0, "value": 0.0}
    return Search(think_seconds, CLOCKS[clock]).root(s, actions)
