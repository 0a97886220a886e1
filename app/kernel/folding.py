"""A name folded for comparison: two names that fold alike look alike.

    fold(name) = casefold(skeleton(NFKC(name))), repeated until it holds still,
                 with every format character (zero-width, joiners...) dropped

`skeleton` is Unicode's (UTS #39, section 4: NFD, each character mapped to the
prototype of its confusables class, NFD again), on Unicode's confusables data
as the confusable-homoglyphs package ships it (MIT; its data is Unicode's
confusables.txt). That package keeps each source → prototype pair in both
directions, so the classes are read back as the connected pairs and each is
mapped to its prototype: the one sequence of several characters in it (`m` →
`rn`), else the character most others map to, else (a lone pair) the ASCII one
or the lower code point. A fold is for comparing, never for showing.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib import resources

LRM = "\u200e"  # the data wraps right-to-left characters in it, for display


@cache
def _prototypes() -> dict[str, str]:
    """{character: its class's prototype}, for every character that is not its own."""
    data = json.loads((resources.files("confusable_homoglyphs") / "confusables.json").read_text("utf-8"))
    parent: dict[str, str] = {}

    def root(node: str) -> str:
        while parent.setdefault(node, node) != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    degree: dict[str, int] = {}
    for key, entries in data.items():
        left = key.replace(LRM, "")
        for entry in entries:
            right = entry["c"].replace(LRM, "")
            if left and right and left != right:
                parent[root(left)] = root(right)
                degree[left] = degree.get(left, 0) + 1
                degree[right] = degree.get(right, 0) + 1
    classes: dict[str, list[str]] = {}
    for node in parent:
        classes.setdefault(root(node), []).append(node)
    mapping: dict[str, str] = {}
    for members in classes.values():
        prototype = min(members, key=lambda m: (len(m) == 1, -degree.get(m, 0), not m.isascii(), m))
        for member in members:
            if len(member) == 1 and member != prototype:
                mapping[member] = prototype
    return mapping


def skeleton(text: str) -> str:
    """UTS #39's skeleton of `text` (mapped again until it holds still)."""
    mapping = _prototypes()
    current = unicodedata.normalize("NFD", text)
    for _ in range(4):
        mapped = unicodedata.normalize("NFD", "".join(mapping.get(c, c) for c in current))
        if mapped == current:
            break
        current = mapped
    return current


def fold(name: str) -> str:
    """`name` as it compares: NFKC, case folded, confusables' skeleton, no format
    characters. Case is folded before the skeleton too: a capital's look-alike
    is not its small letter's ("I" looks like "l", "i" does not), so "MAIN"
    and "Main" must meet as "main" before either is mapped."""
    current = unicodedata.normalize("NFKC", name)
    for _ in range(4):
        shown = "".join(c for c in current if unicodedata.category(c) != "Cf").casefold()
        folded = skeleton(shown).casefold()
        if folded == current:
            break
        current = folded
    # A capital I looks like a small l (its skeleton is "l"), and folding case
    # makes every I an i: so i is read as l too, or "AIex" would pass for "Alex".
    return current.replace("i", "l")
