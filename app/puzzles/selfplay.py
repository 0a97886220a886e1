"""The computer's own matches to mine puzzles from, each made from its seed.

Every choice is a function of the position and the match's seed: the
thinking level searches to a fixed depth, not for a time, so the same seed
gives the same match on any machine and under any load. The two sides of a
match are the greedy level or the search at `PLAY_DEPTH`, in turn by the
match's number, so the matches hold both a careful player's positions and a
hasty one's slips (a slip is where a puzzle begins).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Final

from app.bots.arena import hash_text
from app.bots.candidates import candidates
from app.bots.greedy import choose_greedy
from app.bots.hidden import determinize
from app.bots.search import Search
from app.bots.setup import choose_setup
from app.rules import OVER, SETUP, State, apply, new_match

PLAY_DEPTH: Final = 2
MOST_ACTIONS: Final = 1500  # a safety net: the no-progress draw (R16) ends matches long before
# (White, Black) by the match's number: searching or greedy.
PAIRINGS: Final = (("search", "greedy"), ("greedy", "search"), ("search", "search"), ("greedy", "greedy"))


def match_seed(seed: str, number: int) -> str:
    return f"puzzles-{seed}-{number:06d}"


def choose(level: str, s: State, rng: random.Random) -> object:
    guess = determinize(s, rng)  # a player never reads the deck's order (R20)
    if guess.phase == SETUP:
        return {"type": "setup", "backrow": choose_setup(guess, rng)}
    if level == "greedy":
        return choose_greedy(guess, rng)
    actions = candidates(guess)
    if len(actions) == 1:
        return actions[0]
    action, _ = Search(float("inf"), max_depth=PLAY_DEPTH).root(guess, actions)
    return action


def play(seed: str, number: int, variant: str = "standard") -> Iterator[State]:
    """Every state of match `number` of `seed`, the first one first, the last
    one (over, or at the safety net) included."""
    name = match_seed(seed, number)
    levels = PAIRINGS[number % len(PAIRINGS)]
    rng = random.Random(hash_text(name))
    s = new_match(seed=name, variant=variant)
    yield s
    for _ in range(MOST_ACTIONS):
        if s.phase == OVER:
            return
        s = apply(s, choose(levels[s.to_move], s, rng))[0]
        yield s
