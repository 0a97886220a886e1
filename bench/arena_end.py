"""What the scheduled arenas and an arena's end cost each process.

    .venv/bin/python bench/arena_end.py [--database-url URL] [--players 200] [--looks 200]

In-process, on a fresh SQLite file (or the database given, which it fills:
use a scratch one). `look`: one process's look at the schedule when every
slot due has its arena already (what each process does once a minute),
p50/p99 over `--looks` looks. `close`: keeping the result of an arena of
`--players` players who each finished a game (its standings read and its
podium written in one transaction), once. Results in
bench/results/arena_end.json.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.main import create_app  # noqa: E402
from app.matches.errors import MatchIsOver  # noqa: E402
from app.pools.catalogue import CONTROLS  # noqa: E402
from app.rules import VARIANTS  # noqa: E402
from app.tournaments import NewArena, podium  # noqa: E402
from app.tournaments.schedule import due, make, plan  # noqa: E402
from app.tournaments.service import standings  # noqa: E402
from tests.api.members import member  # noqa: E402
from tests.conftest import make_settings  # noqa: E402
from tests.tournaments.conftest import caller, games  # noqa: E402


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"p50_ms": round(statistics.median(ordered) * 1000, 2),
            "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 2)}


async def run(url: str, players: int, looks: int) -> dict[str, object]:
    app = create_app(make_settings(url, tournament_tick_seconds=3600.0))
    async with app.router.lifespan_context(app):
        parts = app.state.parts
        engine, arenas = parts.engine, parts.arenas
        now = int(time.time() * 1000)
        slots = due(plan(VARIANTS, [(c, clock) for c, _, clock in CONTROLS]), now)
        await make(engine, slots, now)
        took = []
        for _ in range(looks):
            began = time.perf_counter()
            assert await make(engine, slots, now) == 0
            took.append(time.perf_counter() - began)
        people = [await member(app, f"Bench{i}") for i in range(players)]
        tid = await arenas.create(people[0].account.id, NewArena("Bench Blitz", "standard", "5+3", 60, 0, False))
        for m in people:
            await arenas.join(tid, m.account.id, m.name)
        by_id = {m.account.id: m for m in people}
        for g in await games(app, tid):
            if g.status == "playing":
                # A slow machine's first games may have run out of time (5+3) while the rest joined.
                with contextlib.suppress(MatchIsOver):
                    await parts.gateway.resign(g.match_id, caller(by_id[g.black]))
        await arenas.settled()
        began = time.perf_counter()
        assert await podium.close(engine, tid, arenas.now_ms() + 3_600_000, standings)
        closing = time.perf_counter() - began
        return {"slots": len(slots), "look": _ms(took), "looks": looks,
                "close": {"players": players, "ms": round(closing * 1000, 2)}}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--looks", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        url = args.database_url or f"sqlite+aiosqlite:///{scratch}/bench.sqlite3"
        result = asyncio.run(run(url, args.players, args.looks))
    result["database"] = url.split(":")[0]
    print(json.dumps(result, indent=2))
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "arena_end.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
