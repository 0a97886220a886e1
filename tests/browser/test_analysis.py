"""The computer analysis in real Chromium, against the real server and its search
(the session's server, conftest.py, searches one action deep, ANALYSIS_DEPTH=1,
and mines no puzzles after, so that a match is analysed in seconds):
"Request analysis" at the end of a match, the analysis filling in on the page as
it is pushed (to the player who asked and to a spectator who did not), the marks
in the move list, the accuracy, stepping through the judgements by keyboard with
the engine's choice drawn on the board, on a phone and a desktop; with the socket
down, the page reads it every few seconds instead; the admin replay shows it.

MAGERY_SHOTS=<folder> keeps the screenshots (analysis-*.png)."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.waiting import STARTING

from .conftest import (
    ROOT,
    Contexts,
    Server,
    assert_accessible,
    move_versions,
    wait_ready,
)
from .test_advantage import played
from .test_one_screen import WATCH_SHIFTS, in_one_screen, no_shift

SHOTS = os.environ.get("MAGERY_SHOTS")
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
ADMIN, PASSWORD = "assessor", "a browser-test password"  # test_admin.py adds "keeper" to the same server


def finished(server: Server, seed: int) -> tuple[str, dict[str, str]]:
    """A match of random legal actions (some of them bad ones, for the analysis to find), resigned."""
    match_id, tokens = played(server, 90, seed=seed)
    state = server.match(match_id)
    if state["status"] == "active":
        server.call("POST", f"/matches/{match_id}/resign", token=tokens["black"])
    return match_id, tokens


def shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"analysis-{name}.png"))


def wait_done(page: Any) -> None:
    # A whole match searched in the server's worker process: on a loaded machine that
    # took over the minute Playwright waits by default. Only a stuck analysis reaches this.
    page.wait_for_function("() => document.documentElement.dataset.analysis === 'done'", timeout=STARTING * 1000)


def judged(analysis: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in analysis["plies"] if p["judgement"]]


def moves_up_to(moves: list[int], version: int) -> int:
    return sum(1 for m in moves if m <= version)


def expect_best_drawn(page: Any, best: dict[str, Any] | None, board: str = "") -> None:
    """The engine's choice on the board: its chamber ringed, its squares too, and an
    arrow for a move or a swap."""
    if not best or best["type"] not in ("place", "remove"):
        expect(page.locator(f"{board} .chamber-row.best")).to_have_count(0)
        return
    expect(page.locator(f'{board} .chamber-row.best[data-mage="{best["mage"]}"]')).to_have_count(1)
    power = best.get("power") or {}
    while isinstance(power, dict) and "mage" in power and "power" in power:
        power = power["power"] or {}
    ends = power.get("move") or power.get("swap") if isinstance(power, dict) else None
    arrow = page.locator(f"{board} .arena > svg.best-arrow")
    if ends:
        expect(page.locator(f'{board} .sq[data-square="{ends[1]}"]')).to_have_class(re.compile(r"\bbest-to\b"))
        expect(arrow).to_be_visible()
        expect(arrow.locator("line")).to_have_count(1)
    else:  # no arrow: none drawn yet, or the last one hidden
        assert arrow.count() == 0 or not arrow.is_visible()


def is_move(best: dict[str, Any] | None) -> bool:
    power = (best or {}).get("power")
    while isinstance(power, dict) and "mage" in power and "power" in power:
        power = power["power"]
    return isinstance(power, dict) and "move" in power


SEEN = """
window.__analysisSeen = [];
new MutationObserver(() => {
  const s = document.documentElement.dataset.analysis;
  if (s && window.__analysisSeen[window.__analysisSeen.length - 1] !== s) window.__analysisSeen.push(s);
}).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-analysis"]});
"""


@pytest.mark.parametrize("size", [(1366, 768, False), (390, 844, True)], ids=["desktop", "phone"])
def test_request_watch_it_fill_in_and_step_through_the_judgements(contexts: Contexts, size: tuple[int, int, bool]) -> None:
    server = contexts.server
    match_id, tokens = finished(server, seed=7 if size[0] > 800 else 11)
    width, height, touch = size
    player = contexts.page(width=width, height=height, has_touch=touch, is_mobile=touch, axe=True)
    player.context.add_init_script(WATCH_SHIFTS)
    player.context.add_init_script(SEEN)
    pushed: list[dict[str, Any]] = []

    def heard(ws: Any) -> None:
        def frame(payload: Any) -> None:
            message = json.loads(payload) if isinstance(payload, str) else {}
            if message.get("type") == "analysis":
                pushed.append(message)
        ws.on("framereceived", frame)

    player.on("websocket", heard)
    asked: list[str] = []
    player.on("request", lambda r: asked.append(r.method) if r.url.endswith(f"/matches/{match_id}/analysis") else None)
    player.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
    wait_ready(player)
    # A spectator, not signed in: no button, a word on who may ask; the analysis still comes to them.
    watcher = contexts.page(width=width, height=height, has_touch=touch, is_mobile=touch)
    watcher.context.add_init_script(SEEN)
    watcher.goto(f"/matches/{match_id}")
    wait_ready(watcher)
    expect(watcher.get_by_role("link", name="Sign in to request an analysis")).to_have_attribute(
        "href", f"/login?next=/matches/{match_id}")
    expect(watcher.get_by_role("button", name="Request analysis")).to_be_hidden()

    request = player.get_by_role("button", name="Request analysis")
    expect(request).to_be_visible()
    in_one_screen(player, ["#result", "#rematch", "#request-analysis"])
    shot(player, f"request-{width}")
    request.click()
    wait_done(player)
    seen = player.evaluate("() => window.__analysisSeen")
    assert seen[-1] == "done" and {"queued", "running"} & set(seen), seen  # it filled in on the page
    assert pushed and pushed[-1]["status"] == "done", pushed  # pushed on the match's socket...
    assert sum(len(m["plies"]) for m in pushed) > 0, pushed
    assert asked.count("GET") <= 3, asked  # ...not read again and again while the socket is up
    wait_done(watcher)
    assert watcher.evaluate("() => window.__analysisSeen")[-1] == "done"
    expect(request).to_be_hidden()
    expect(player.locator("#analysis-note")).to_have_text("Computer analysis done.")

    analysis = server.call("GET", f"/matches/{match_id}/analysis")
    acc = analysis["accuracy"]
    # Rounded half up, as the page's Math.round (Python's round() goes to the even one).
    words = " · ".join(f"{c.capitalize()} {math.floor(acc[c] + 0.5)}%" for c in ("white", "black") if acc[c] is not None)
    expect(player.locator("#accuracy")).to_have_text(f"Accuracy: {words}.")
    bad = judged(analysis)
    assert bad, "random play made no misjudged action"  # the scene must have something to step through
    # Each judged action marked in the move list, where the list holds it.
    for ply in bad:
        entry = player.locator(f'#log li[data-version="{ply["version"]}"]')
        if entry.count():
            expect(entry.locator(".judgement-mark")).to_have_text(f'{MARKS[ply["judgement"]]}, {"an" if ply["judgement"] == "inaccuracy" else "a"} {ply["judgement"]}')
    # The graph draws the analysis's evaluations, and a dot at each judged action.
    expect(player.locator("#advantage svg.analysed")).to_have_count(1)
    expect(player.locator("#advantage .adv-judgement")).to_have_count(len(bad))
    no_shift(player)  # the end's panel kept its room as the analysis filled in

    # Stepping by keyboard: Tab reaches the buttons; each step shows the position the
    # misjudged action was played from, with the engine's choice there drawn.
    moves = move_versions(server, match_id)
    by_version = {p["version"]: p for p in analysis["plies"]}
    nxt = player.get_by_role("button", name="Next mistake")
    player.locator("#new-match, #rematch").first.focus()
    for _ in range(12):
        player.keyboard.press("Tab")
        if player.evaluate("() => document.activeElement && document.activeElement.id") == "next-judgement":
            break
    expect(nxt).to_be_focused()
    total = len(moves)
    for ply in bad[:4]:
        player.keyboard.press("Enter")
        at = ply["version"] - 1
        expect(player.locator("#position")).to_have_text(f"Move {moves_up_to(moves, at)} of {total} (replay)")
        expect(player.locator("#best-line")).to_contain_text(
            f"Next, {ply['mover'].capitalize()}'s move {moves_up_to(moves, ply['version'])} was "
            f"{'an' if ply['judgement'] == 'inaccuracy' else 'a'} {ply['judgement']}")
        expect_best_drawn(player, by_version[at]["best"])
        expect(nxt).to_be_focused()
    # On to the first judgement whose better choice was a move: its arrow over the arena.
    moving = next((p for p in bad[4:] if is_move(by_version[p["version"] - 1]["best"])), None)
    assert moving, "no misjudged action had a move as the computer's choice"
    for ply in bad[4:bad.index(moving) + 1]:
        player.keyboard.press("Enter")
        expect(player.locator("#position")).to_have_text(f"Move {moves_up_to(moves, ply['version'] - 1)} of {total} (replay)")
    expect_best_drawn(player, by_version[moving["version"] - 1]["best"])
    shot(player, f"stepped-{width}")
    in_one_screen(player, [".arena", "#next-judgement", "#best-line"])
    # Back one, with the other button.
    if len(bad) >= 2:
        player.get_by_role("button", name="Previous mistake").click()
    # The choice can be hidden (to find it oneself) and shown again.
    player.get_by_label("Show the computer's choice").uncheck()
    expect(player.locator(".chamber-row.best")).to_have_count(0)
    player.get_by_label("Show the computer's choice").check()
    assert_accessible(player)


def test_with_the_socket_down_the_page_reads_the_analysis_every_few_seconds(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = finished(server, seed=5)
    page = contexts.page()
    page.context.add_init_script(SEEN)
    page.context.route_web_socket(re.compile(r"/ws"), lambda ws: ws.close())  # never connects
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.method) if r.url.endswith(f"/matches/{match_id}/analysis") else None)
    page.goto(f"/matches/{match_id}#seat=black.{tokens['black']}")
    wait_ready(page)
    page.wait_for_function("() => document.documentElement.dataset.analysis === 'none'")  # read once: none yet
    page.get_by_role("button", name="Request analysis").click()
    wait_done(page)
    seen = page.evaluate("() => window.__analysisSeen")
    assert seen[0] == "none" and seen[1] in ("queued", "running") and seen[-1] == "done", seen
    assert asked[:2] == ["GET", "POST"] and asked.count("GET") >= 2, asked  # read again, with nothing pushed
    expect(page.locator("#accuracy")).to_contain_text("Accuracy: ")


def test_a_signed_in_spectator_may_ask_and_the_admin_replay_shows_it(contexts: Contexts) -> None:
    server = contexts.server
    match_id, _ = finished(server, seed=9)
    env = {**os.environ, "DATABASE_URL": server.database_url, "MAGERY_ADMIN_PASSWORD": PASSWORD}
    made = subprocess.run([sys.executable, "-m", "app.accounts", "add-admin", ADMIN], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    admin = contexts.page()
    admin.goto("/admin")
    admin.wait_for_url(re.compile(r"/admin/login"))
    admin.get_by_label("Username").fill(ADMIN)
    admin.get_by_label("Password").fill(PASSWORD)
    admin.get_by_role("button", name="Sign in").click()
    admin.wait_for_url(re.compile(r"/admin/?$"))
    admin.goto(f"/admin/matches/{match_id}")
    # Before any analysis: a word that a player may ask for one.
    expect(admin.locator("#analysis-none")).to_be_visible()
    expect(admin.locator("#analysis")).to_be_hidden()

    # Somebody signed in who holds no seat of the match may ask for it.
    fan = contexts.page()
    fan.goto(f"/signup?next=/matches/{match_id}")
    fan.get_by_label("Username").fill("Analyst")
    fan.get_by_label("Password").fill(PASSWORD)
    fan.get_by_role("button", name="Create account").click()
    fan.wait_for_url(re.compile(f"/matches/{match_id}$"))
    wait_ready(fan)
    fan.get_by_role("button", name="Request analysis").click()
    wait_done(fan)

    # The admin's replay reads it (and never asks for one).
    admin.reload()
    expect(admin.locator("#analysis-state")).to_have_text("Computer analysis done.")
    expect(admin.locator("#analysis-none")).to_be_hidden()
    done = server.call("GET", f"/matches/{match_id}/analysis")
    bad = judged(done)
    assert bad, "random play made no misjudged action"
    expect(admin.locator("ol.timeline li[data-judgement]")).to_have_count(len(bad))
    admin.get_by_role("button", name="Next mistake").click()
    at = bad[0]["version"] - 1
    expect(admin.locator("#replay-status")).to_have_text(re.compile(f"^Version {at} of "))
    expect_best_drawn(admin, {p["version"]: p for p in done["plies"]}[at]["best"], board="#replay-board")
    if SHOTS:
        admin.screenshot(path=os.path.join(SHOTS, "analysis-admin.png"), full_page=True)


def test_a_failed_analysis_says_so_and_may_be_tried_again(contexts: Contexts) -> None:
    """The server gave the analysis up (it answers `failed`, its tries spent): the
    panel says so and offers to try again, and trying again runs it to the end."""
    server = contexts.server
    match_id, tokens = finished(server, seed=13)
    posted: list[str] = []
    failed = {"status": "failed", "failure": "given up after 3 tries (the last one's search raised RuntimeError)",
              "progress": 0.0, "engine": "strong depth 1", "depth": 1, "plies": [],
              "accuracy": {"white": None, "black": None}}

    def answer(route: Any) -> None:
        # Failed until the page asks again: then the real server answers.
        if route.request.method == "POST":
            posted.append("POST")
        if posted:
            route.continue_()
        else:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(failed))

    page = contexts.page(axe=True)
    page.route(re.compile(f"/api/v1/matches/{match_id}/analysis$"), answer)
    page.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
    wait_ready(page)
    expect(page.locator("#analysis-note")).to_have_text(re.compile("could not be finished"))
    again = page.get_by_role("button", name="Try the analysis again")
    expect(again).to_be_visible()
    assert_accessible(page)
    shot(page, "failed")
    again.click()
    wait_done(page)
    assert posted == ["POST"]
    expect(again).to_be_hidden()
    expect(page.get_by_role("button", name="Request analysis")).to_be_hidden()
    expect(page.locator("#accuracy")).to_contain_text("Accuracy: ")
