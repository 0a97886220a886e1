"""What a bot may not see (R20): the chaos deck's order and the match's seed.

The set of cards still in the deck is public (every chaos mage not on the
board and not discarded), only their order is secret; and the seed would
let a bot predict the reshuffle of the rotating variant (R17). Before a bot
looks at a state, `determinize` puts the deck in an order drawn from the
bot's own random generator and replaces the seed with one of its own, so
what it searches is one guess at the unknown, never the truth: the guess
depends only on which cards are in the deck (public) and the bot's seed.
"""

from __future__ import annotations

import random

from app.rules import State


def determinize(s: State, rng: random.Random) -> State:
    guess = s.copy()
    deck = sorted(s.deck)  # forget the true order before drawing one
    rng.shuffle(deck)
    guess.deck = tuple(deck)
    guess.seed = f"bot-guess-{rng.getrandbits(64):016x}"
    return guess
