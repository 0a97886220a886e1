"""Perft counts pinned: the engine's speed work must not change what it lists or applies.

tests/rules/perft_counts.json holds positions of every variant (from seeded
random games: both phases, Seer turns owed, Rune Master, Force Mage wards) and,
for each, what the engine did on them when the file was written: the legal
actions in order (a digest), every child position and its automatic actions
(a digest of their text form), and the perft counts to depth 2 (actions
applied and leaves). An optimisation that lists an action more or less, in
another order, or applies one differently fails here.

Regenerate only for a deliberate rules change, never for a speed change:

    .venv/bin/python -m tests.rules.test_perft > /tmp/perft.json
    mv /tmp/perft.json tests/rules/perft_counts.json
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from app.rules import (
    ACTION,
    DECISION,
    VARIANTS,
    State,
    apply,
    from_text,
    legal_actions,
    new_match,
    to_text,
)
from app.rules.minions import TYPES

DATA = Path(__file__).with_name("perft_counts.json")
DEPTH = 2


def perft(s: State, depth: int) -> tuple[int, int]:
    """(actions applied, leaves) with every legal action applied to `depth`."""
    applied = leaves = 0
    for action in legal_actions(s):
        after, _ = apply(s, action)
        applied += 1
        if depth > 1 and not after.over:
            a, lv = perft(after, depth - 1)
            applied += a
            leaves += lv
        else:
            leaves += 1
    return applied, leaves


def _digest(parts: list[str]) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


def measure(s: State) -> dict[str, Any]:
    actions = legal_actions(s)
    children = []
    for action in actions:
        after, automatic = apply(s, action)
        children.append(f"{to_text(after)} {automatic!r}")
    applied, leaves = perft(s, DEPTH)
    return {"actions": len(actions), "order": _digest([repr(a) for a in actions]),
            "children": _digest(children), "applied": applied, "leaves": leaves}


# ---- writing the file (once, on the engine the counts are taken from) ----------

def _random_states(seed: str, variant: str) -> list[State]:
    rng = random.Random(seed)
    s = new_match(seed=hashlib.sha256(seed.encode()).hexdigest()[:32], variant=variant)
    for _ in range(2):
        row = list(TYPES)
        rng.shuffle(row)
        s, _ = apply(s, {"type": "setup", "backrow": row})
    seen = [s]
    while not s.over:
        s, _ = apply(s, rng.choice(legal_actions(s)))
        seen.append(s)
    return seen


_PICKS = (
    ("decision, some chambers taken", lambda s: s.phase == DECISION and 3 <= sum(map(bool, s.occupant)) <= 8),
    ("action, full tower", lambda s: s.phase == ACTION and sum(map(bool, s.occupant)) >= 12),
    ("action, Seer turns owed", lambda s: s.phase == ACTION and bool(s.owed)),
    ("action, Rune Master or a ward", lambda s: s.phase == ACTION and bool(s.runes or s.wards)),
)


def positions() -> list[tuple[str, str]]:
    """(label, position text): four per variant, the first match of each pick
    in seeded random games with the most legal actions up to 80 (the test's time)."""
    out = []
    for variant in VARIANTS:
        for label, test in _PICKS:
            for k in range(40):
                found = [s for s in _random_states(f"perft:{variant}:{k}", variant)
                         if not s.over and test(s) and len(legal_actions(s)) <= 80]
                if found:
                    richest = max(found, key=lambda s: len(legal_actions(s)))
                    out.append((f"{variant}: {label}", to_text(richest)))
                    break
    return out


def write() -> str:
    rows = [{"position": label, "text": text, **measure(from_text(text))}
            for label, text in positions()]
    return json.dumps({"depth": DEPTH, "positions": rows}, indent=1) + "\n"


# ---- the test ---------------------------------------------------------------------

_PINNED = json.loads(DATA.read_text())["positions"] if DATA.exists() else []


def test_every_variant_is_pinned_in_both_phases() -> None:
    for variant in VARIANTS:
        labels = [row["position"] for row in _PINNED if row["position"].startswith(variant + ":")]
        assert any("decision" in label for label in labels), variant
        assert any("action" in label for label in labels), variant


@pytest.mark.parametrize("row", _PINNED, ids=[row["position"] for row in _PINNED])
def test_perft_counts_are_unchanged(row: dict[str, Any]) -> None:
    s = from_text(row["text"])
    expected = {key: row[key] for key in ("actions", "order", "children", "applied", "leaves")}
    assert measure(s) == expected


if __name__ == "__main__":
    print(write(), end="")
