"""The cost of telling the log in the engine's words (issue 16).

    .venv/bin/python bench/words.py [--games 10]

Every update, catch-up and `/states` entry carries `words`, told by
`describe_view` from the public state before the entry. This plays random
games (all variants, a fixed seed) and times, per entry: `describe_view` (what
the server runs), against `describe` on the engine's own state (the yardstick:
the same words, with the action checked by `apply`); the cost of one
`/states` answer's 100 entries; and the size of the vocabulary document and
the Learn page's move table, raw and gzipped. Writes bench/results/words.json.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.rules import (  # noqa: E402
    COLOURS,
    VARIANTS,
    action_json,
    apply,
    describe,
    legal_actions,
    new_match,
    public_view,
)
from app.rules.vocabulary import move_table, vocabulary  # noqa: E402
from app.rules.words import describe_view  # noqa: E402

ROW = ["construct", "fey", "elemental", "dragon", "undead", "beast", "spirit", "myrmidon"]


def entries(games: int) -> list[tuple]:
    out = []
    for g in range(games):
        rng = random.Random(g)
        s = new_match(f"{g:032x}", VARIANTS[g % len(VARIANTS)])
        for _ in range(2):
            s, _ = apply(s, {"type": "setup", "backrow": ROW})
        while not s.over:
            action = rng.choice(legal_actions(s))
            out.append((s, public_view(s), COLOURS[s.to_move], action, action_json(action)))
            s, _ = apply(s, action)
    return out


def per_entry(call, items) -> float:
    start = time.perf_counter()
    for item in items:
        call(item)
    return (time.perf_counter() - start) / len(items) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    items = entries(args.games)
    view_us = per_entry(lambda e: describe_view(e[1], e[2], e[4]), items)
    engine_us = per_entry(lambda e: describe(e[0], e[3]), items)
    removes = [e for e in items if e[3][0] == "remove"]
    remove_us = per_entry(lambda e: describe_view(e[1], e[2], e[4]), removes)
    vocab = json.dumps(vocabulary(), separators=(",", ":")).encode()
    moves = json.dumps(move_table(), separators=(",", ":")).encode()
    results = {
        "entries": len(items),
        "describe_view_us_per_entry": round(view_us, 1),
        "describe_view_us_per_remove": round(remove_us, 1),
        "describe_on_engine_state_us_per_entry (yardstick)": round(engine_us, 1),
        "states_answer_of_100_entries_ms": round(view_us * 100 / 1000, 2),
        "vocabulary_bytes": len(vocab), "vocabulary_gzip_bytes": len(gzip.compress(vocab)),
        "move_table_bytes": len(moves), "move_table_gzip_bytes": len(gzip.compress(moves)),
    }
    out = ROOT / "bench" / "results" / "words.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
