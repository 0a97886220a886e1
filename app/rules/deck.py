"""Shuffling the chaos deck from the match's seed (R6, R17, R20).

The shuffle is a Fisher-Yates whose draws come from SHA-256, so anyone holding
the revealed seed can redo it in a few lines of any language:
for i from n-1 down to 1, j = int(sha256(f"{seed}:{label}:{i}")) mod (i + 1),
then swap cards i and j. The first shuffle's label is "deck"; the reshuffle of
the discard pile at the start of round r is "reshuffle:{r}".
"""

from __future__ import annotations

import hashlib


def shuffle(cards: tuple[int, ...], seed: str, label: str) -> tuple[int, ...]:
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        digest = hashlib.sha256(f"{seed}:{label}:{i}".encode()).digest()
        j = int.from_bytes(digest, "big") % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def commitment(seed: str) -> str:
    """The published hash of the seed (R20)."""
    return hashlib.sha256(seed.encode()).hexdigest()
