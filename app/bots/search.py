"""The `strong` level: alpha-beta with iterative deepening on the evaluation.

Turns in Magery do not simply alternate (the Seer, passes, skipped turns,
R9-R14), so a node is a max node when White is to move and a min node when
Black is, read from `state.to_move` at every ply; values are always White's
(evaluate.score). The search deepens one ply at a time until the deadline,
which it checks every few nodes, and answers with the best root action of the
deepest iteration, or of the interrupted one when that already beat the
previous best (the previous best is searched first, so any action that beat
it did so at the greater depth). No iteration starts once `SPEND` of the
think time is gone: the next would rarely finish.

Below the root, a node's actions are thinned and ordered by a cheap guess
(candidates.ranked: captures first, by victim), the best action found for the
position before first; a node with two or more plies left orders its actions
by the evaluation of their results and searches only the best `WIDTH` of
them, so the search reaches the opponent's reply to a reply. `LATE` more may
be searched a ply shallower (late-move reductions), one of them again at full
depth only where the shallower search made it the best so far; the default
is none. The root searches every legal action at depth 1 and the best
`ROOT_WIDTH` of them deeper. docs/bots.md says why alpha-beta rather than MCTS.

Each iteration repeats most of the last one's tree, so the search keeps what
it learns about a position in tables keyed by the position (`position_key`),
for the whole of one choice: its evaluation, its ordered actions with the
positions they lead to, and its value as an exact value or a bound with the
depth searched (a transposition table). A node met again, in the next
iteration or by another order of the same actions, costs a look-up instead of
listing, applying and evaluating. The key is a tuple of the state's fields
that the rules read, hashed by Python in C: an incremental Zobrist hash would
need a hook in every change `apply` makes, and one computed afresh in Python
costs more than the tuple's hash; a dict compares the whole key, so two
positions never share an entry.

A leaf of the action phase is not scored as it stands: its captures are
played out first (quiescence, `QUIESCENCE` captures deep), each side free to
stand on the evaluation instead, so a capture met at the horizon is weighed
with its recapture searched rather than guessed.

Hidden information (R20): the search runs on the state `hidden.determinize`
made, whose deck order and seed are the bot's own guess; the tables live for
one choice and hold nothing else.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Hashable
from typing import Any, Final

from app.rules import ACTION, OVER, State, apply, legal_actions

from .board import VALUE
from .candidates import Action, candidates, ranked
from .evaluate import WIN, score

# Final: a compiled build (mypyc) reads these from C statics, not the module's dict.
WIDTH: Final = 8  # actions searched at a node with two or more plies left
ROOT_WIDTH: Final = 16  # root actions searched past the first ply, best of the shallower search
# LATE and SPEND keep the search as it was: other settings did not win more
# matches against the search of 780ea97 (docs/bots.md; bench/arena_old.py --new).
LATE: Final = 0  # actions past WIDTH searched a ply shallower first (late-move reductions)
SPEND: Final = 0.5  # no new iteration once this share of the think time is spent
MAX_DEPTH: Final = 16
QUIESCENCE: Final = 4  # plies of captures searched past the horizon
CHECK_EVERY: Final = 16  # nodes between looks at the clock
INF: Final = float("inf")
# What a stored value is: exact, or a bound from a cut-off.
EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2


class Timeout(Exception):
    pass


Clock = Callable[[], float]
CLOCKS: dict[str, Clock] = {"wall": time.perf_counter, "cpu": time.process_time}


def position_key(s: State) -> Hashable:
    """Everything the rules read from here on, as one hashable value."""
    return (s.arena, s.occupant, s.reserve, s.dead, s.seat, s.phase, s.to_move, s.orb,
            s.passed, s.runes, s.wards, s.owed, s.quiet, s.captured, s.deck, s.discard,
            s.round, s.winner)


Children = list[tuple[Action, State]]


class Entry:
    """A position expanded: its actions and its value as far as it was searched."""

    __slots__ = ("children", "by_value", "best_move", "depth", "value", "kind")

    def __init__(self, children: Children) -> None:
        self.children = children  # in ranked order, with the positions they lead to
        self.by_value: Children | None = None  # by their evaluation, best first
        self.best_move: Action | None = None  # the best action of the deepest search
        self.depth = -1  # the depth searched (-1: not yet)
        self.value = 0.0  # exact, or a bound from a cut-off:
        self.kind = EXACT  # EXACT, LOWER or UPPER


class Search:
    def __init__(self, think_seconds: float, clock: Clock = time.perf_counter,
                 max_depth: int = MAX_DEPTH, quiescence: int = QUIESCENCE, width: int = WIDTH,
                 late: int = LATE, root_width: int = ROOT_WIDTH, spend: float = SPEND) -> None:
        self.max_depth = max_depth
        self.quiescence = quiescence
        self.width = width
        self.late = late
        self.root_width = root_width
        self.spend = spend
        self.clock = clock
        self.start = clock()
        self.think_seconds = think_seconds
        self.deadline = self.start + think_seconds
        self.nodes = 0
        self.depth_done = 0
        self.scores: dict[Hashable, float] = {}  # the evaluation of each position met
        # What is known of each position expanded, in one entry: one look-up of
        # the key per node (hashing the key is a real part of a node's cost).
        self.table: dict[Hashable, Entry] = {}
        # Each action-phase leaf's captures, best victim first, with the positions they lead to.
        self.captures: dict[Hashable, Children] = {}

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 and self.clock() > self.deadline:
            raise Timeout

    def _score(self, s: State) -> float:
        key = position_key(s)
        value = self.scores.get(key)
        if value is None:
            value = self.scores[key] = score(s)
        return value

    def _leaf(self, s: State, depth: int) -> float:
        self._tick()
        value = self._score(s)
        if s.phase == OVER and value:
            # A sooner win is better, a later loss less bad.
            return value + depth if value > 0 else value - depth
        return value

    def _capture_children(self, s: State, key: Hashable) -> Children:
        """The actions of the player to move that kill a minion: a move onto an
        occupied square, by a commander, the Animist or the Dream Lord borrowing
        one (the Mentalist's moves never capture, R14), most valuable victim first."""
        children = self.captures.get(key)
        if children is None:
            arena = s.arena
            found: list[tuple[float, Action]] = []
            for action in legal_actions(s):
                power = action[2]
                if power is None:
                    continue
                if power[0] == "dream":
                    power = power[2]
                if power[0] == "move":
                    victim = arena[power[2]]
                    if victim:
                        found.append((10.0 * VALUE[(victim - 1) & 7] - VALUE[(arena[power[1]] - 1) & 7],
                                      action))
            found.sort(key=lambda t: -t[0])
            children = self.captures[key] = [(a, apply(s, a)[0]) for _, a in found]
        return children

    def _quiesce(self, s: State, alpha: float, beta: float, plies: int) -> float:
        """The value of an action-phase leaf once its captures are played out.

        The player to move may stand on the evaluation (it declines, or makes a
        quiet move: the evaluation already weighs the captures each side holds)
        or capture; so may the other after a capture, for `plies` captures.
        A capture's recapture is searched rather than guessed."""
        stand = self._leaf(s, 0)
        if plies == 0 or s.phase != ACTION:
            return stand
        maximising = s.to_move == 0
        if maximising:
            if stand >= beta:
                return stand
            alpha = max(alpha, stand)
        else:
            if stand <= alpha:
                return stand
            beta = min(beta, stand)
        best = stand
        for _, child in self._capture_children(s, position_key(s)):
            if child.phase == ACTION:
                v = self._quiesce(child, alpha, beta, plies - 1)
            else:
                v = self._leaf(child, 0)
            if maximising:
                if v > best:
                    best = v
                alpha = max(alpha, v)
            else:
                if v < best:
                    best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def _entry(self, s: State, key: Hashable) -> Entry:
        entry = self.table.get(key)
        if entry is None:
            entry = self.table[key] = Entry([(a, apply(s, a)[0]) for _, a in ranked(s)])
        return entry

    def _ordered(self, s: State, entry: Entry, depth: int) -> Children:
        remembered = entry.best_move
        children = entry.children
        if depth >= 2 and len(children) > 1:
            best_first = entry.by_value
            if best_first is None:
                sign = 1.0 if s.to_move == 0 else -1.0
                scored = [(sign * self._leaf(child, depth), k) for k, (_, child) in enumerate(children)]
                scored.sort(key=lambda t: (-t[0], t[1]))
                best_first = entry.by_value = [children[k] for _, k in scored]
            out = best_first[:self.width + self.late]
        else:
            out = children
        if remembered is not None and out[0][0] != remembered:
            first = [c for c in children if c[0] == remembered]
            out = first + [c for c in out if c[0] != remembered]
            if depth >= 2:
                out = out[:self.width + self.late]
        return out

    def value(self, s: State, depth: int, alpha: float, beta: float) -> float:
        if depth == 0 and s.phase == ACTION and self.quiescence:
            return self._quiesce(s, alpha, beta, self.quiescence)
        if depth == 0 or s.phase == OVER:
            return self._leaf(s, depth)
        self._tick()
        entry = self._entry(s, position_key(s))
        if entry.depth >= depth:
            v, kind = entry.value, entry.kind
            if kind == EXACT or (kind == LOWER and v >= beta) or (kind == UPPER and v <= alpha):
                return v
        alpha0, beta0 = alpha, beta
        maximising = s.to_move == 0
        best = -INF if maximising else INF
        best_action = None
        width = self.width
        for i, (action, child) in enumerate(self._ordered(s, entry, depth)):
            if i < width:
                v = self.value(child, depth - 1, alpha, beta)
            else:
                # A late action (ordered past `width`) is searched a ply shallower
                # first, and again at full depth only if that makes it the best.
                v = self.value(child, depth - 2, alpha, beta)
                if v > alpha if maximising else v < beta:
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
            entry.best_move = best_action
        entry.kind = LOWER if best >= beta0 else UPPER if best <= alpha0 else EXACT
        entry.depth, entry.value = depth, best
        return best

    def root(self, s: State, actions: list[Action]) -> tuple[Action, dict[str, Any]]:
        """The best of `actions` (all legal in `s`) found before the deadline."""
        # Python's cyclic collector pauses while the search runs: it would walk
        # the tables' many thousand tuples again and again (about a tenth of
        # the search's time, perf), and the search makes no reference cycles,
        # so reference counting frees all it drops.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._root(s, actions)
        finally:
            if collecting:
                gc.enable()

    def _root(self, s: State, actions: list[Action]) -> tuple[Action, dict[str, Any]]:
        sign = 1.0 if s.to_move == 0 else -1.0
        first_guess = {a: g for g, a in ranked(s)}
        order = sorted(actions, key=lambda a: -first_guess.get(a, 0.0))
        after = {a: apply(s, a)[0] for a in order}
        chosen = order[0]
        chosen_value = -INF
        for depth in range(1, self.max_depth + 1):
            values: dict[Action, float] = {}
            try:
                for action in order:
                    if values:
                        bound = sign * max(values.values())
                        alpha, beta = (bound, INF) if sign > 0 else (-INF, bound)
                    else:
                        alpha, beta = -INF, INF
                    values[action] = sign * self.value(after[action], depth - 1, alpha, beta)
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
            order = sorted(order, key=lambda a: -values[a])[:self.root_width]
            elapsed = self.clock() - self.start
            if chosen_value >= WIN or len(order) == 1 or elapsed > self.spend * self.think_seconds:
                break  # a forced win, or the next ply would not finish in time
        return chosen, {"depth": self.depth_done, "nodes": self.nodes, "value": sign * chosen_value}


def choose_strong(s: State, think_seconds: float, clock: str = "wall") -> tuple[Action, dict[str, Any]]:
    """The strong level's action, searching until `think_seconds` have passed
    on the `clock` ("wall", or "cpu" for the arena on a busy machine)."""
    actions = candidates(s)
    if len(actions) == 1:
        return actions[0], {"depth": 0, "nodes": 0, "value": 0.0}
    return Search(think_seconds, CLOCKS[clock]).root(s, actions)
