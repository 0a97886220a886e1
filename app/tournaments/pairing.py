"""An arena's pairing: every waiting player paired at once, as many pairs as
the waiting allow, the pairs chosen by a maximum-weight matching (networkx's
blossom algorithm) whose weights prefer close scores and close ratings and
avoid the opponent a player just met. Pure: who waits in, pairs out.

Nobody waits on purpose: a lone pair of players who just met meet again rather
than wait for a third (lichess makes small arenas wait; its players complain).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

# Integer weights keep the matching exact. A pair is worth BASE less what it
# costs; the costs are capped so that every pair is still worth something and
# the matching pairs as many players as it can before it weighs the pairs.
BASE = 10_000
PER_POINT = 100  # each point of score apart
MOST_POINTS = 30
MOST_RATING = 1_000  # each rating point apart, up to this
SAME_AGAIN = 5_000  # the opponent a player just met
NEIGHBOURS = 16  # a player is weighed against this many nearest in the standings either way
# Players matched together at most. networkx's blossom algorithm is pure Python
# and grows as the cube of a group: a group of 100 cost 240 ms of CPU for 200
# waiting, one of 20 costs 42 ms (and 2,000 waiting 0.4 s), its pairs' summed
# cost within about a tenth of matching all 200 as one (bench/arena_pairing.py).
# Neighbours in the standings are the pairs the weights prefer anyway.
GROUP = 20


@dataclass(frozen=True, slots=True)
class Waiting:
    player: str
    score: int
    rating: float
    last_opponent: str | None = None


def cost(a: Waiting, b: Waiting) -> int:
    """What pairing `a` with `b` costs: points apart, ratings apart, a repeat."""
    spent = PER_POINT * min(abs(a.score - b.score), MOST_POINTS)
    spent += min(round(abs(a.rating - b.rating)), MOST_RATING)
    if a.last_opponent == b.player or b.last_opponent == a.player:
        spent += SAME_AGAIN
    return spent


def pairs(waiting: Sequence[Waiting]) -> list[tuple[Waiting, Waiting]]:
    """The pairs to make now, best first (the highest scores first). A large
    arena is matched in groups of GROUP neighbours in the standings (as
    lichess's does), whoever a group leaves over joining the next; and each
    player is weighed against its NEIGHBOURS nearest either way only, the ones
    it prefers anyway, so that each group's graph stays small."""
    players = sorted(waiting, key=lambda w: (-w.score, -w.rating, w.player))
    if len({w.player for w in players}) != len(players):
        raise ValueError("a player waits once")
    made: list[tuple[Waiting, Waiting]] = []
    left: list[Waiting] = []
    for start in range(0, len(players), GROUP):
        group = left + players[start:start + GROUP]
        paired, left = _match(group)
        made += paired
    return made


def _match(players: list[Waiting]) -> tuple[list[tuple[Waiting, Waiting]], list[Waiting]]:
    graph = nx.Graph()
    graph.add_nodes_from(range(len(players)))
    for i, a in enumerate(players):
        for j in range(i + 1, min(len(players), i + 1 + NEIGHBOURS)):
            graph.add_edge(i, j, weight=BASE - cost(a, players[j]))
    matched = sorted((min(i, j), max(i, j)) for i, j in nx.max_weight_matching(graph, maxcardinality=True))
    taken = {i for pair in matched for i in pair}
    return [(players[i], players[j]) for i, j in matched], [p for i, p in enumerate(players) if i not in taken]
