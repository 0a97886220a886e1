"""The bot storm of bench/proofs.py (issue 17, item 1): bots are no CPU lever.

An attacker, from `--bot-attackers` addresses, makes as many `bot:strong`
matches as each address may (asking for 10 s of thought each) and keeps every
one of them busy: as soon as its bot has moved, it moves again. Meanwhile a
bystander plays a `bot:greedy` match from its own address and times each of
its bot's answers (from its own action's answer to the bot's action in the
match), and a probe plays another match between people (GET, GET /legal,
POST) in a quiet window before the storm and during it.

PASS: every greedy answer within 2 s during the storm; the probe's p99 in the
storm at most 2x its quiet p99; the attacker refused (429
too_many_bot_matches) past the cap of each address.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from typing import Any

from bench.wire import Connection

API = "/api/v1/matches"
GREEDY_GOAL = 2.0  # seconds
RATIO_GOAL = 2.0


def _p99(values: list[float]) -> float | None:
    return sorted(values)[int(0.99 * (len(values) - 1))] if values else None


def _pick(legal: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    if legal.get("setup"):
        return {"type": "setup", "backrow": legal["setup"]}
    return rng.choice(legal["actions"]) if legal.get("actions") else None


async def _play_against_bot(http: Connection, match_id: str, token: str, colour: str, rng: random.Random,
                            stop: asyncio.Event, answers: list[float] | None) -> None:
    """Play our seat whenever it is our turn; time each bot answer into `answers`."""
    auth = {"Authorization": f"Bearer {token}"}
    acted_at: float | None = None
    while not stop.is_set():
        state = (await http.get(f"{API}/{match_id}")).json()
        if state["status"] != "active":
            return
        if state["to_move"] != colour:
            await asyncio.sleep(0.02)
            continue
        if acted_at is not None and answers is not None:
            answers.append(time.monotonic() - acted_at)
        legal = (await http.get(f"{API}/{match_id}/legal", auth)).json()
        action = _pick(legal, rng)
        if action is None:
            await asyncio.sleep(0.02)
            continue
        got = await http.post(f"{API}/{match_id}/actions", {"action": action, "version": legal["version"]}, auth)
        acted_at = time.monotonic() if got.status == 200 else None


async def _attacker(port: int, address: str, stop: asyncio.Event, refused: list[int], made: list[str],
                    cap: int) -> None:
    rng = random.Random(address)
    async with Connection("127.0.0.1", port, local=address) as http:
        games = []
        for _ in range(cap + 2):  # past the cap on purpose
            got = await http.post(API, {"options": {"bot_think_seconds": 10}, "seat": "black",
                                        "opponent": "bot:strong"})
            if got.status == 201:
                games.append((got.json()["match"]["id"], got.json()["token"]))
                made.append(games[-1][0])
            else:
                refused.append(got.status)
        await asyncio.gather(*[_play_against_bot(http, m, t, "black", rng, stop, None) for m, t in games])


async def _probe(ports: list[int], bucket: list[list[float]], stop: asyncio.Event) -> None:
    """A match between people, played from its own address, each request timed."""
    rng = random.Random(5)
    conns = [Connection("127.0.0.1", p, local="127.0.0.2") for p in ports]
    try:
        while not stop.is_set():
            made = (await conns[0].post(API, {"options": {}, "seat": "white"})).json()
            match_id, tokens = made["match"]["id"], {"white": made["token"]}
            tokens["black"] = (await conns[1].post(f"{API}/{match_id}/join", {})).json()["token"]
            turn = 0
            while not stop.is_set():
                await asyncio.sleep(0.125)
                http = conns[turn % 2]
                turn += 1
                t = time.monotonic()
                state = (await http.get(f"{API}/{match_id}")).json()
                bucket[0].append(time.monotonic() - t)
                if state["status"] != "active":
                    break
                auth = {"Authorization": f"Bearer {tokens[state['to_move']]}"}
                t = time.monotonic()
                legal = (await http.get(f"{API}/{match_id}/legal", auth)).json()
                bucket[0].append(time.monotonic() - t)
                action = _pick(legal, rng)
                if action is None:
                    continue
                t = time.monotonic()
                await http.post(f"{API}/{match_id}/actions", {"action": action, "version": legal["version"]}, auth)
                bucket[0].append(time.monotonic() - t)
    finally:
        for c in conns:
            await c.close()


async def run_bot_storm(ports: list[int], args: Any, cap: int) -> dict[str, Any]:
    quiet: list[float] = []
    storm: list[float] = []
    bucket = [quiet]
    stop_probe, stop_storm = asyncio.Event(), asyncio.Event()
    prober = asyncio.create_task(_probe(ports, bucket, stop_probe))
    await asyncio.sleep(3.0)  # caches filling
    quiet.clear()
    await asyncio.sleep(args.bot_window)
    bucket[0] = storm
    refused: list[int] = []
    made: list[str] = []
    attackers = [asyncio.create_task(_attacker(ports[i % 2], f"127.0.6.{i + 1}", stop_storm, refused, made, cap))
                 for i in range(args.bot_attackers)]
    await asyncio.sleep(2.0)  # the storm under way before the bystander starts
    answers: list[float] = []
    async with Connection("127.0.0.1", ports[1], local="127.0.0.3") as http:
        got = (await http.post(API, {"options": {}, "seat": "black", "opponent": "bot:greedy"})).json()
        bystander = asyncio.create_task(_play_against_bot(
            http, got["match"]["id"], got["token"], "black", random.Random(3), stop_storm, answers))
        await asyncio.sleep(args.bot_window)
        stop_storm.set()
        await asyncio.gather(bystander, *attackers, return_exceptions=True)
    stop_probe.set()
    await asyncio.gather(prober, return_exceptions=True)
    q99, s99 = _p99(quiet), _p99(storm)
    ratio = s99 / q99 if q99 and s99 else None
    slowest = max(answers) if answers else None
    print(f"  attacker: {len(made)} strong bot matches made from {args.bot_attackers} addresses, "
          f"{len(refused)} refused ({sorted(set(refused))}); greedy bystander: {len(answers)} answers, "
          f"median {statistics.median(answers) if answers else None:.3f} s, slowest {slowest} s; "
          f"other match p99 quiet {q99 and round(q99 * 1000, 1)} ms, storm {s99 and round(s99 * 1000, 1)} ms "
          f"({f'{ratio:.2f}x' if ratio else '?'})", flush=True)
    return {
        "strong_matches_made": len(made), "creations_refused": dict.fromkeys(map(str, refused), 0) | {
            str(s): refused.count(s) for s in set(refused)},
        "greedy_answers": len(answers), "greedy_median_s": round(statistics.median(answers), 3) if answers else None,
        "greedy_slowest_s": round(slowest, 3) if slowest is not None else None,
        "probe_requests": {"quiet": len(quiet), "storm": len(storm)},
        "quiet_p99_ms": q99 and round(q99 * 1000, 2), "storm_p99_ms": s99 and round(s99 * 1000, 2),
        "ratio": round(ratio, 2) if ratio else None,
        "verdicts": {
            f"a greedy bystander's bot answers within {GREEDY_GOAL:g} s in a strong-bot storm": bool(
                answers and slowest is not None and slowest <= GREEDY_GOAL),
            f"another match's p99 in the bot storm <= {RATIO_GOAL:g}x quiet": bool(ratio and ratio <= RATIO_GOAL),
            "bot matches past each address's cap refused 429": bool(refused) and set(refused) == {429},
        },
    }
