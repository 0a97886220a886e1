"""A hand-written evaluation of a position, from White's point of view.

`score(state)` is a raw number (White's minus Black's, in undead); the
search and the greedy level compare these. `evaluate(state)` squashes it
into [-1, 1] for people (the replay's advantage graph): +1 is a White win.

What counts, for each player:

- material: every minion not in the dead pile, at its type's value;
- how near the opponent is to winning by captures (R15): 5 greater minions
  or 3 of one type in the dead pile; the penalty grows steeply at 4 and 2;
- presence in the arena: losing the last minion there loses the match, so a
  player down to a few is in danger;
- threats: a minion can capture only when its owner removes a worker from
  the chamber that moves it (its type's mage, or the Animist). So the attack
  map counts only minions whose chamber the player holds (in the decision
  phase, an empty chamber counts partly: it may still be taken). The best
  capture is discounted by the recapture the opponent holds on that square,
  and weighed by who removes next;
- a few chambers whose power is worth holding without a capture: the
  Magician (it can clear the opponent's best chamber), the Enchanter and the
  Shadow Mage (they take a minion out of the arena), summoning chambers;
- mobility: every square a side attacks (its attack map, by the same
  weights), a little each: room to capture later and to cover its own;
- the Orb (first turn of each phase) and advanced minions.

The weights were first set by hand; we fitted them to how self-play
matches end (bench/tune_eval.py, Texel's method), then held back where the
fit learnt a habit of its own matches rather than of the game (a side short
of minions in the arena is eliminated: CROWD and PRESENCE were set by the
arena, not the fit). docs/bots.md has the figures.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Final

from app.rules import ACTION, DECISION, OVER, State

from .board import (
    ANIMIST,
    ENCHANTER,
    FEY,
    GREATER,
    KNIGHT_LEAPS,
    LEAPS,
    MAGE_OF_TYPE,
    MAGICIAN,
    NEIGHBOURS,
    OFF,
    PRIVATE,
    SHADOW_MAGE,
    SLIDES,
    TYPE_OF_MAGE,
    VALUE,
)

# Final: a compiled build (mypyc) reads these from C statics, not the module's dict.
WIN: Final = 1000.0  # a won position, for the search
WIN_GAIN: Final = 60.0  # a capture that wins at once
# `evaluate` = tanh(score / SCALE). The fit (bench/tune_eval.py)
# found endings follow P(White wins) = 1 / (1 + exp(-score / k)) best with k
# about 20, and tanh(x / 2k) = 2P - 1: so `evaluate` reads as White's expected
# score. (It was 14, which overstated every lead and made the replay's graph
# swing with the side to move.)
SCALE: Final = 40.0

DANGER_SUM: Final = (0.0, 0.5, 1.5, 4.0, 11.0)  # by greater minions in one's dead pile
DANGER_TYPE: Final = (0.0, 1.0, 6.0)  # by the most of one greater type there
DANGER: Final = 1.75  # weight of how near the opponent is to winning by captures, in the material
OPEN: Final = 0.4  # weight of an empty chamber in the decision phase
TO_MOVE: Final = 1.09
WAITING: Final = 0.72  # weight of the best capture of each side, action phase
POTENTIAL: Final = 0.74  # weight of both sides' captures in the decision phase
SECOND: Final = 0.3  # weight of the second-best capture (another chamber may make it)
RECAPTURE: Final = 0.7  # how much of the attacker is counted lost to a recapture
ORB: Final = 1.15
MOBILITY: Final = 0.044  # per square attacked, by the weight of its attacker
# Below zero: a minion in the arena is one fewer in the reserve to place as a
# worker, and one more to be captured; CROWD keeps a side from thinning out.
PRESENCE: Final = -1.5  # per minion in the arena
ADVANCE: Final = 0.16  # per rank of a minor minion or pawn beyond its backrow
CROWD: Final = 3.0  # times the square of how many short of 4 minions a side has in the arena
MAGICIAN_SHARE: Final = 0.42  # of the opponent's best capture, which the Magician may clear
# ENCHANT and SUMMON came out below zero in the fit: a side that held these
# chambers, as scored here, did worse; the arena confirmed the weights together.
ENCHANT: Final = -0.42  # of the best minion the Enchanter could take out
SHADOW: Final = 0.15  # of the best minion the Shadow Mage could take out
SUMMON: Final = -0.37  # per undead of a minion a held summoning chamber could bring (at most 3)


# danger, loss and _material are pure functions of a dead pile, which few
# actions change: cached, a search's thousands of evaluations mostly look them up.
@lru_cache(maxsize=4096)
def danger(dead: tuple[int, ...], colour: int) -> float:
    base = 8 * colour
    greater = [dead[base + k] for k in GREATER]
    total = sum(greater)
    if total >= 5 or max(greater) >= 3:
        return WIN
    return DANGER_SUM[total] + DANGER_TYPE[max(greater)]


@lru_cache(maxsize=16384)
def loss(dead: tuple[int, ...], colour: int, k: int, arena_count: int) -> float:
    """What `colour` loses when its minion of type `k` is captured."""
    if arena_count <= 1:
        return WIN_GAIN  # its last minion in the arena (R15)
    if k not in GREATER:
        return VALUE[k]
    base = 8 * colour
    greater = [dead[base + g] for g in GREATER]
    total = sum(greater) + 1
    most = max(greater[GREATER.index(k)] + 1, max(greater))
    if total >= 5 or most >= 3:
        return WIN_GAIN
    return VALUE[k] + DANGER_SUM[total] + DANGER_TYPE[most] - danger(dead, colour)


def mover_weights(s: State, colour: int) -> list[float]:
    """Per type, how surely `colour` gets to move its minions of that type."""
    occupant, seat = s.occupant, s.seat
    held = [0.0] * 9
    if s.phase == ACTION:
        for m in range(9):
            piece = occupant[m]
            if piece and (piece - 1) >> 3 == colour:
                held[m] = 1.0
    elif s.phase == DECISION:
        may_place = not (s.passed >> colour) & 1 and any(s.reserve[8 * colour:8 * colour + 8])
        for m in range(9):
            piece = occupant[m]
            if piece:
                held[m] = 1.0 if (piece - 1) >> 3 == colour else 0.0
            elif may_place and seat[m] != OFF:
                held[m] = OPEN
    animist = held[ANIMIST]
    return [max(held[MAGE_OF_TYPE[k]], animist) for k in range(8)]


Pieces = list[tuple[int, int]]  # (square, minion) of one colour
Map = tuple[dict[int, float], list[tuple[float, int, int]]]  # attacked squares (best weight), captures


def _attacks(s: State, colour: int, weights: list[float],
             pieces: Pieces) -> Map:
    """Squares `colour` attacks (with the best weight) and its captures as
    (weight, from, to)."""
    # board.reach spelled out (slides, leaps, the Rune Master's knight leaps,
    # R4), without its list: this runs twice per position the search scores.
    arena, wards = s.arena, s.wards
    knight = bool((s.runes >> colour) & 1)
    lo = 1 + 8 * colour
    forbidden_rank = 7 if colour == 0 else 0
    home_rank = 0 if colour == 0 else 7
    attacked: dict[int, float] = {}
    captures: list[tuple[float, int, int]] = []
    get = attacked.get
    for sq, piece in pieces:
        if (wards >> sq) & 1:
            continue
        k = piece - lo
        w = weights[k]
        if not w:
            continue
        forbidden = forbidden_rank if k < 3 and (sq >> 3) == home_rank else -1
        for ray in SLIDES[k][sq]:
            for t in ray:
                found = arena[t]
                if found:
                    if (found - 1) >> 3 != colour and (t >> 3) != forbidden:
                        if get(t, 0.0) < w:
                            attacked[t] = w
                        if not (wards >> t) & 1:
                            captures.append((w, sq, t))
                    break
                if (t >> 3) != forbidden and get(t, 0.0) < w:
                    attacked[t] = w
        steps = LEAPS[k][sq]
        if knight and k != FEY:
            steps = steps + KNIGHT_LEAPS[sq]
        for t in steps:
            if (t >> 3) == forbidden:
                continue
            found = arena[t]
            if found:
                if (found - 1) >> 3 == colour:
                    continue
                if not (wards >> t) & 1:
                    captures.append((w, sq, t))
            if get(t, 0.0) < w:
                attacked[t] = w
    return attacked, captures


def _holds(s: State, colour: int, mage: int) -> float:
    piece = s.occupant[mage]
    if piece:
        return 1.0 if (piece - 1) >> 3 == colour else 0.0
    if s.phase != DECISION or s.seat[mage] == OFF or (s.passed >> colour) & 1:
        return 0.0
    seat = s.seat[mage]
    if seat in PRIVATE and seat != PRIVATE[colour]:
        return 0.0
    return OPEN


def score(s: State) -> float:
    """White's score minus Black's; ±WIN once the match is over."""
    if s.phase == OVER:
        if s.winner in (0, 1):
            return WIN if s.winner == 0 else -WIN
        return 0.0
    dead = s.dead
    pieces, advance = arena_pieces(s)
    counts = [len(pieces[0]), len(pieces[1])]
    total = [0.0, 0.0]
    for colour in (0, 1):
        n = counts[colour]
        crowd = (4 - n) ** 2 * CROWD if n < 4 else 0.0
        total[colour] = (_material(dead, colour) + PRESENCE * n - crowd
                         + ADVANCE * advance[colour] + (ORB if s.orb == colour else 0.0))

    maps = attack_maps(s, pieces)
    best_gain = [0.0, 0.0]
    for colour in (0, 1):
        # Mobility: the squares each side attacks, by how surely it moves there.
        total[colour] += MOBILITY * sum(maps[colour][0].values())
        best_gain[colour] = best_capture(s, colour, counts, maps)
        enchant, shadow, summon = chamber_parts(s, colour, counts, pieces[1 - colour])
        total[colour] += ENCHANT * enchant + SHADOW * shadow + SUMMON * summon
    for colour in (0, 1):
        factor = capture_factor(s, colour)
        total[colour] += factor * best_gain[colour]
        # The Magician can clear the chamber of the opponent's best capture.
        magician = _holds(s, colour, MAGICIAN)
        if magician:
            total[colour] += MAGICIAN_SHARE * magician * factor * best_gain[1 - colour]
    return total[0] - total[1]


# The parts of `score` below are named apart so bench/tune_eval.py can weigh
# them itself (it fits the weights): the two cannot drift apart.

def arena_pieces(s: State) -> tuple[tuple[Pieces, Pieces], list[float]]:
    """Each colour's minions in the arena, and the ranks its minor minions and
    pawns have advanced beyond their backrow, all told."""
    pieces: tuple[Pieces, Pieces] = ([], [])
    advance = [0.0, 0.0]
    for sq, piece in enumerate(s.arena):
        if piece:
            colour = (piece - 1) >> 3
            pieces[colour].append((sq, piece))
            if (piece - 1) & 7 >= 3:
                rank = sq >> 3
                advance[colour] += rank if colour == 0 else 7 - rank
    return pieces, advance


def attack_maps(s: State, pieces: tuple[Pieces, Pieces]) -> list[Map]:
    return [_attacks(s, 0, mover_weights(s, 0), pieces[0]), _attacks(s, 1, mover_weights(s, 1), pieces[1])]


def best_capture(s: State, colour: int, counts: list[int], maps: list[Map]) -> float:
    """The gain of `colour`'s best capture, less the recapture the opponent
    holds on that square, plus SECOND of the next best."""
    arena, dead = s.arena, s.dead
    enemy = 1 - colour
    defended = maps[enemy][0]
    gains = []
    for w, a, t in maps[colour][1]:
        gain = loss(dead, enemy, (arena[t] - 1) & 7, counts[enemy])
        back = defended.get(t, 0.0)
        if back and gain < WIN_GAIN:
            gain -= RECAPTURE * back * loss(dead, colour, (arena[a] - 1) & 7, counts[colour] + 1)
        if gain > 0:
            gains.append(w * gain)
    if not gains:
        return 0.0
    gains.sort(reverse=True)
    return gains[0] + (SECOND * gains[1] if len(gains) > 1 else 0.0)


def capture_factor(s: State, colour: int) -> float:
    """How much of `colour`'s best capture counts: who removes next matters."""
    if s.phase == ACTION:
        return TO_MOVE if s.to_move == colour else WAITING
    return POTENTIAL


@lru_cache(maxsize=4096)
def _material(dead: tuple[int, ...], colour: int) -> float:
    """Every minion of `colour` not in the dead pile at its value, less the danger."""
    base = 8 * colour
    material = sum((3 - dead[base + k]) * VALUE[k] for k in range(8))
    return material - DANGER * danger(dead, colour)


def chamber_parts(s: State, colour: int, counts: list[int], enemies: Pieces) -> tuple[float, float, float]:
    """Chambers worth holding for what they take out of the arena or add to it,
    unweighed: the Enchanter's best victim, the Shadow Mage's, and the summoning
    chambers' minions (each at its value, at most 3), each by how surely held."""
    arena, wards = s.arena, s.wards
    enemy = 1 - colour
    enchant = shadow_part = 0.0
    enchanter = _holds(s, colour, ENCHANTER) if s.seat[ENCHANTER] != OFF else 0.0
    shadow = _holds(s, colour, SHADOW_MAGE) if s.seat[SHADOW_MAGE] != OFF else 0.0
    if enchanter or shadow:
        lo_e = 1 + 8 * enemy
        best_enchant = best_shadow = 0.0
        for sq, piece in enemies:
            if (wards >> sq) & 1:
                continue
            k = piece - lo_e
            if enchanter and s.reserve[8 * colour + k]:
                best_enchant = max(best_enchant, VALUE[k])
            if shadow and any(arena[n] and (arena[n] - 1) >> 3 == colour for n in NEIGHBOURS[sq]):
                value = WIN_GAIN if counts[enemy] <= 1 else VALUE[k]
                best_shadow = max(best_shadow, value)
        enchant, shadow_part = enchanter * best_enchant, shadow * best_shadow
    # Summoning chambers with a minion of their type to summon.
    summon = 0.0
    reserve, occupant = s.reserve, s.occupant
    for m, k in _SUMMONERS:
        if reserve[8 * colour + k] or occupant[m] == 1 + 8 * colour + k:
            held = _holds(s, colour, m)
            if held:
                summon += _SUMMON_VALUE[k] * held
    return enchant, shadow_part, summon


_SUMMONERS: Final = tuple(TYPE_OF_MAGE.items())
_SUMMON_VALUE: Final = [min(v, 3.0) for v in VALUE]  # a Dragon counts no more than 3


def evaluate(s: State) -> float:
    """The position from White's view in [-1, 1] (a won match is ±1)."""
    raw = score(s)
    if raw >= WIN:
        return 1.0
    if raw <= -WIN:
        return -1.0
    return math.tanh(raw / SCALE)


__all__ = ["WIN", "danger", "evaluate", "loss", "mover_weights", "score"]
