"""The match page in Chromium (Debian's, driven by Playwright): its budgets.

    .venv/bin/python bench/web.py [--quick]
    .venv/bin/python bench/web.py --lighthouse   (Lighthouse's scores: bench/lighthouse.py)

1. first load: a seat opening a match at about version 100 (its turn, decision
   phase), cold cache, through a real server on loopback. Transferred bytes
   (every HTTP response, headers included, as Chrome counts them: gzip where the
   server compresses) until the page is drawn, its legal actions loaded and its
   log filled; the websocket's first frame is reported beside them. Times from
   navigation start: `drawn` (the board drawn, every handler in place: the page
   is interactive) and `playable` (its /legal answer shown). Medians of N loads.
   Goals: <= 150 KB; interactive <= 300 ms.
2. update cost: a spectator's page fed updates of real engine states through a
   stand-in websocket (Playwright's routeWebSocket), one at a time around the
   300th version; Chrome's own ScriptDuration (and style + layout) per update,
   each update awaited until painted. Goal: script <= 16 ms per update.
3. memory: 5,000 more updates; the JS heap after a forced GC at update 500 and at
   the end. Goal: the end within 10% of the start.

Figures only: nothing here is asserted by tests. Written to bench/results/web.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from app.rules import action_json, apply, legal_actions, new_match, public_view, setup_choices  # noqa: E402
from bench.api import free_port, start_server, stop_server, wait_ready  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "web.json"
CHROMIUM = "/usr/bin/chromium"
ROW = ["construct", "fey", "elemental", "dragon", "undead", "beast", "spirit", "myrmidon"]


# ---- a match at about version 100, through the API --------------------------------

def match_under_way(http: httpx.Client, rng: random.Random) -> tuple[str, str]:
    """(match id, White's token) of a match at its ~100th version, White to place."""
    while True:
        made = http.post("/api/v1/matches", json={"seat": "white", "name": "Ada",
                                                  "options": {"no_progress_rounds": 0}}).json()
        match_id = made["match"]["id"]
        joined = http.post(f"/api/v1/matches/{match_id}/join", json={"name": "Grace"}).json()
        tokens = {"white": made["token"], "black": joined["token"]}
        state = joined["match"]
        while state["status"] == "active":
            if state["version"] >= 100 and state["phase"] == "decision" and state["to_move"] == "white":
                return match_id, tokens["white"]
            colour = state["to_move"]
            auth = {"Authorization": f"Bearer {tokens[colour]}"}
            legal = http.get(f"/api/v1/matches/{match_id}/legal", headers=auth).json()
            if legal["setup"]:
                action: dict[str, Any] = {"type": "setup", "backrow": ROW}
            else:
                action = rng.choice([a for a in legal["actions"] if a.get("power", 1) is not None]
                                    or legal["actions"])
            state = http.post(f"/api/v1/matches/{match_id}/actions", headers=auth,
                              json={"action": action, "version": state["version"]}).json()["match"]


def listen(cdp: Any, into: dict[str, int]) -> None:
    """Counts what Chrome's network layer says it received (bytes on the wire)."""
    def finished(e: dict[str, Any]) -> None:
        into["http"] += int(e["encodedDataLength"])

    def sent(e: dict[str, Any]) -> None:
        into["requests"] += 1

    def frame(e: dict[str, Any]) -> None:
        into["ws_first_frame"] = into["ws_first_frame"] or len(e["response"]["payloadData"])

    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.webSocketFrameReceived", frame)


def first_loads(browser: Any, base: str, match_id: str, token: str, loads: int) -> dict[str, Any]:
    figures = []
    for _ in range(loads):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        transferred = {"http": 0, "requests": 0, "ws_first_frame": 0}
        listen(cdp, transferred)
        page.goto(f"{base}/matches/{match_id}#seat=white.{token}")
        page.wait_for_function("() => performance.getEntriesByName('magery-playable').length"
                               " && document.querySelectorAll('#log li[data-version]').length >= 40")
        page.wait_for_load_state("networkidle")
        marks = page.evaluate("""() => ({
            drawn: performance.getEntriesByName('magery-interactive')[0].startTime,
            playable: performance.getEntriesByName('magery-playable')[0].startTime,
            domContentLoaded: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd })""")
        figures.append({**transferred, **marks})
        context.close()
    return {key: statistics.median(f[key] for f in figures) for key in figures[0]} | {"loads": len(figures)}


# ---- engine states, fed to a spectator's page ------------------------------------------

def engine_updates(count: int, rng: random.Random, first_version: int) -> list[dict[str, Any]]:
    """`count` update messages of real positions, versions from `first_version` on
    (random games, one after another: a finished game's last state is left out)."""
    updates: list[dict[str, Any]] = []
    version = first_version
    game = 0
    while len(updates) < count:
        state = new_match(f"bench-{game}", "standard", 0)
        game += 1
        for _ in range(2):
            row = setup_choices(state)
            rng.shuffle(row)
            state, _ = apply(state, {"type": "setup", "backrow": row})
        while len(updates) < count:
            actions = legal_actions(state)
            if not actions:
                break
            mover = "white" if state.to_move == 0 else "black"
            action = action_json(rng.choice(actions))
            after, _ = apply(state, action)
            if after.over:
                break
            view = public_view(after)
            view.update(id="bench", version=version, status="active", clock=None, draw_offer=None,
                        players={"white": {"name": "Ada", "connected": True, "bot": None},
                                 "black": {"name": "Grace", "connected": True, "bot": None}},
                        options={**view["options"], "time_control": None, "abandon_seconds": 600},
                        created_at="2026-11-22T00:00:00+00:00", spectators=3)
            updates.append({"type": "update", "version": version, "action": action, "player": mover,
                            "automatic": False, "match": view})
            version += 1
            state = after
    return updates


def metrics(cdp: Any) -> dict[str, float]:
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}


def heap_after_gc(cdp: Any) -> float:
    cdp.send("HeapProfiler.collectGarbage")
    cdp.send("HeapProfiler.collectGarbage")
    return float(cdp.send("Runtime.getHeapUsage")["usedSize"])


def updates_and_memory(browser: Any, base: str, match_id: str, total: int, quick: bool) -> dict[str, Any]:
    start = httpx.get(f"{base}/api/v1/matches/{match_id}").json()
    rng = random.Random(5)
    feed = engine_updates(total, rng, start["version"] + 1)
    snapshot = {"type": "snapshot", "match": start}
    socket: dict[str, Any] = {}

    def stand_in(ws: Any) -> None:  # the server's socket, played by the benchmark
        socket["ws"] = ws
        ws.send(json.dumps(snapshot))

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.route_web_socket("**/ws", stand_in)
    page.route("**/states?**", lambda route: route.fulfill(json={"version": start["version"], "states": []}))
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    page.goto(f"{base}/matches/{match_id}")
    page.wait_for_function("() => document.documentElement.dataset.ready === '1'")
    while "ws" not in socket:
        page.wait_for_timeout(10)

    def send(batch: list[dict[str, Any]]) -> None:
        for message in batch:
            socket["ws"].send(json.dumps(message))
        page.wait_for_function("v => document.documentElement.dataset.version === String(v)", arg=batch[-1]["version"])

    # Up to the 290th update in batches, then one at a time, each until painted.
    at = 0
    while at < 290:
        send(feed[at:at + 50][: 290 - at])
        at = min(290, at + 50)
    per_update = []
    for message in feed[290:310]:
        before = metrics(cdp)
        socket["ws"].send(json.dumps(message))
        page.wait_for_function("v => document.documentElement.dataset.version === String(v)", arg=message["version"])
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        after = metrics(cdp)
        per_update.append({
            "script_ms": 1000 * (after["ScriptDuration"] - before["ScriptDuration"]),
            "style_layout_ms": 1000 * (after["RecalcStyleDuration"] + after["LayoutDuration"]
                                       - before["RecalcStyleDuration"] - before["LayoutDuration"]),
        })
    at = 310
    while at < 500:
        send(feed[at:at + 100][: 500 - at])
        at = min(500, at + 100)
    heap_start = heap_after_gc(cdp)
    nodes_start = metrics(cdp)["Nodes"]
    t0 = time.perf_counter()
    while at < total:
        send(feed[at:at + 100])
        at += 100
    feed_seconds = time.perf_counter() - t0
    heap_end = heap_after_gc(cdp)
    nodes_end = metrics(cdp)["Nodes"]
    context.close()
    return {
        "script_ms_per_update_median": statistics.median(u["script_ms"] for u in per_update),
        "script_ms_per_update_max": max(u["script_ms"] for u in per_update),
        "style_layout_ms_per_update_median": statistics.median(u["style_layout_ms"] for u in per_update),
        "updates_measured": f"versions {feed[290]['version']}..{feed[309]['version']}",
        "heap_after_gc_at_500": heap_start, "heap_after_gc_at_end": heap_end,
        "heap_growth_percent": 100 * (heap_end - heap_start) / heap_start,
        "dom_nodes_at_500": nodes_start, "dom_nodes_at_end": nodes_end,
        "updates_total": total, "updates_per_second_fed": (total - 500) / feed_seconds,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 loads and 1,500 updates")
    parser.add_argument("--lighthouse", action="store_true",
                        help="instead: Lighthouse's mobile preset on /, a match page, /learn, /leaderboard (bench/lighthouse.py)")
    args = parser.parse_args()
    if args.lighthouse:
        from bench import lighthouse
        return lighthouse.main()
    from playwright.sync_api import sync_playwright

    loads, total = (3, 1500) if args.quick else (7, 5500)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    results: dict[str, Any] = {"quick": args.quick, "loadavg": os.getloadavg()}
    with tempfile.TemporaryDirectory() as folder:
        env = {"DATABASE_URL": f"sqlite+aiosqlite:///{folder}/bench.sqlite3", "RATE_LIMIT_WRITES": "1000000", "RATE_LIMIT_READS": "1000000",
               "BOT_DELAY_SECONDS": "0"}
        proc = start_server("app.main:create_app", port, env, None)
        try:
            wait_ready(base + "/api/v1/matches", proc)
            with httpx.Client(base_url=base, timeout=10) as http:
                match_id, token = match_under_way(http, random.Random(3))
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM)
                first_loads(browser, base, match_id, token, 1)  # the server's own first answers warm up
                results["first_load"] = first_loads(browser, base, match_id, token, loads)
                results["updates"] = updates_and_memory(browser, base, match_id, total, args.quick)
                results["chromium"] = browser.version
                browser.close()
        finally:
            stop_server(proc)
    load, upd = results["first_load"], results["updates"]
    rows = [
        ("first load transferred (KB)", load["http"] / 1024, 150, load["http"] / 1024 <= 150),
        ("interactive: board drawn (ms)", load["drawn"], 300, load["drawn"] <= 300),
        ("playable: /legal shown (ms)", load["playable"], None, None),
        ("script per update at ~300th (ms, median)", upd["script_ms_per_update_median"], 16,
         upd["script_ms_per_update_median"] <= 16),
        ("script per update at ~300th (ms, max)", upd["script_ms_per_update_max"], None, None),
        ("style + layout per update (ms, median)", upd["style_layout_ms_per_update_median"], None, None),
        (f"heap growth over {total - 500} updates (%)", upd["heap_growth_percent"], 10,
         abs(upd["heap_growth_percent"]) <= 10),
    ]
    print(f"Chromium {results['chromium']}, load average {results['loadavg'][0]:.2f}")
    print(f"{'measure':46} {'figure':>10} {'goal':>8}  result")
    for name, value, goal, ok in rows:
        verdict = "" if ok is None else ("PASS" if ok else "MISS")
        print(f"{name:46} {value:10.1f} {'' if goal is None else f'<= {goal}':>8}  {verdict}")
    print(f"requests on first load: {load['requests']:.0f}; first websocket frame: {load['ws_first_frame']:.0f} B; "
          f"heap {upd['heap_after_gc_at_500'] / 1e6:.2f} -> {upd['heap_after_gc_at_end'] / 1e6:.2f} MB; "
          f"DOM nodes {upd['dom_nodes_at_500']:.0f} -> {upd['dom_nodes_at_end']:.0f}")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
