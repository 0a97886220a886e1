"""What a Swiss event's page costs the server (app/web/swiss_pages.py).

    .venv/bin/python bench/swiss_page.py [--players 64] [--rounds 7] [--reads 200]

In-process, on a fresh SQLite file: a Swiss event of `--players` players is
played round by round (every game resigned by White) until `--rounds` rounds
are paired, the last one under way; then `GET /tournaments/{id}` (the page
static/js/swiss.js reads again when it redraws itself) is read `--reads`
times, p50/p99. The page is not pushed but read again once a minute per
watcher (REFRESH_SECONDS), so 2,000 watchers are about 33 reads a second:
`cpu_share_2000` is that rate times the p50, the share of one core they take.
Results in bench/results/swiss_page.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.main import create_app  # noqa: E402
from app.web.swiss_pages import REFRESH_SECONDS  # noqa: E402
from tests.api.members import member  # noqa: E402
from tests.conftest import make_settings  # noqa: E402
from tests.tournaments.swiss_helpers import caller, event, games  # noqa: E402


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"p50_ms": round(statistics.median(ordered) * 1000, 2),
            "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 2)}


async def run(url: str, players: int, rounds: int, reads: int) -> dict[str, object]:
    app = create_app(make_settings(url, tournament_tick_seconds=3600.0))
    async with app.router.lifespan_context(app):
        parts = app.state.parts
        sw = parts.swisses
        people = [await member(app, f"Bench{i}") for i in range(players)]
        by_id = {m.account.id: m for m in people}
        tid = await sw.create(people[0].account.id, event("Bench Swiss", rounds=rounds, interval=0,
                                                           starts_in_seconds=0, time_control="30+0"))
        for m in people:
            await sw.join(tid, m.account.id, m.name)
        for number in range(1, rounds + 1):
            await sw.tick()
            if number == rounds:
                break
            for g in await games(app, tid):
                if g.round == number and g.black is not None and g.status == "playing":
                    await parts.gateway.resign(g.match_id, caller(by_id[g.white]))
            await sw.settled()
        view = await sw.view(tid)
        assert view["round"] == rounds, view["round"]
        took = []
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench") as client:
            for _ in range(reads):
                began = time.perf_counter()
                page = await client.get(f"/tournaments/{tid}")
                took.append(time.perf_counter() - began)
                assert page.status_code == 200
        timing = _ms(took)
        rate = 2000 / REFRESH_SECONDS
        return {"players": players, "rounds_paired": rounds, "pairings": len(view["pairings"]),
                "page_bytes": len(page.content), "read": timing, "reads": reads,
                "refresh_seconds": REFRESH_SECONDS, "reads_per_second_2000": round(rate, 1),
                "cpu_share_2000": round(rate * timing["p50_ms"] / 1000, 3)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--reads", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        url = f"sqlite+aiosqlite:///{scratch}/bench.sqlite3"
        result = asyncio.run(run(url, args.players, args.rounds, args.reads))
    result["database"] = "sqlite"
    print(json.dumps(result, indent=2))
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "swiss_page.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
