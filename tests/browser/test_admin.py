"""The admin dashboard in real Chromium: sign in, the history and its filters, a
match's replay stepped by buttons and arrow keys on the game's own board, an
adjudication that a player's open page shows at once, axe-core on every page,
and the phone width.

The admin account is made as an operator makes it, with `python -m app.accounts
add-admin` on the test server's database."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import ROOT, ROW, Contexts, Server, assert_accessible, page_width, wait_ready

NAME = "keeper"
PASSWORD = "a browser-test password"


def _start(server: Server, white: str, black: str) -> tuple[str, dict[str, str]]:
    made = server.call("POST", "/matches", {"seat": "white", "name": white})
    joined = server.call("POST", f"/matches/{made['match']['id']}/join", {"name": black})
    return made["match"]["id"], {"white": made["token"], "black": joined["token"]}


def _play_until_a_move(server: Server, match_id: str, tokens: dict[str, str]) -> dict[str, Any]:
    """Random legal actions (a fixed seed) until a removal has moved a minion and a
    few more actions followed it; returns that removal: its version, mage and move."""
    rng = random.Random(7)
    state = server.match(match_id)
    moved: dict[str, Any] | None = None
    while moved is None or state["version"] < moved["version"] + 3:
        assert state["status"] == "active", state.get("result")
        colour = state["to_move"]
        legal = server.legal(match_id, tokens[colour])
        if legal["setup"]:
            action: dict[str, Any] = {"type": "setup", "backrow": ROW}
        else:
            moving = [a for a in legal["actions"] if isinstance(a.get("power"), dict) and "move" in a["power"]
                      and "mage" not in a["power"]]
            placing = [a for a in legal["actions"] if a["type"] != "pass"]
            action = rng.choice(moving or placing or legal["actions"])
        state = server.act(match_id, tokens[colour], action)
        if moved is None and isinstance(action.get("power"), dict) and "move" in action["power"]:
            moved = {"version": state["version"], "mage": action["mage"], "move": action["power"]["move"]}
    return moved


@pytest.fixture(scope="module")
def scene(server: Server) -> dict[str, Any]:
    """An admin account, a finished match with moves in its log, and names to filter by."""
    env = {**os.environ, "DATABASE_URL": server.database_url, "MAGERY_ADMIN_PASSWORD": PASSWORD}
    made = subprocess.run([sys.executable, "-m", "app.accounts", "add-admin", NAME], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    match_id, tokens = _start(server, "Linnea", "Samir")
    moved = _play_until_a_move(server, match_id, tokens)
    server.call("POST", f"/matches/{match_id}/resign", token=tokens["black"])
    _start(server, "Otto", "Petra")  # another match, for the filter to leave out
    # The longest name one can choose, with nowhere to break it: the history's
    # cards must still fit a phone (it once made /admin 462 px wide).
    _start(server, "W" * 40, "Hubertwolfeschlegelsteinhausenbergerdorf")
    return {"match": match_id, "moved": moved, "last": server.match(match_id)["version"]}


def sign_in(page: Any) -> None:
    page.goto("/admin")
    page.wait_for_url(re.compile(r"/admin/login"))
    page.get_by_label("Username").fill(NAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"/admin/?$"))


def square(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=re.compile(f"^{name}, "))


def status(page: Any, version: int, last: int) -> None:
    expect(page.locator("#replay-status")).to_have_text(re.compile(f"^Version {version} of {last}:"))


def test_sign_in_filter_open_and_step_the_replay(contexts: Contexts, scene: dict[str, Any]) -> None:
    page = contexts.page(axe=True)
    page.goto("/admin/login")
    assert_accessible(page)
    sign_in(page)
    expect(page.get_by_role("heading", name="Match history")).to_be_visible()
    assert_accessible(page)

    page.get_by_label("Player name").fill("Linnea")
    page.get_by_label("Status").select_option("finished")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url(re.compile(r"player=Linnea"))
    rows = page.locator("table.list tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Samir")
    expect(page.get_by_text("Otto")).to_have_count(0)
    page.get_by_role("link", name=scene["match"]).click()

    last, moved = scene["last"], scene["moved"]
    v, (origin, target) = moved["version"], moved["move"]
    status(page, last, last)
    expect(page.locator("#replay-board .arena .sq")).to_have_count(64)
    # The replay's arena turns round, and back (issue 16).
    expect(page.locator("#replay-board .arena .sq").first).to_have_attribute("data-square", "a8")
    page.get_by_role("button", name="Flip board").click()
    expect(page.locator("#replay-board .arena .sq").first).to_have_attribute("data-square", "h1")
    page.get_by_role("button", name="Flip board").click()
    expect(page.locator("#replay-board .arena .sq").first).to_have_attribute("data-square", "a8")
    assert_accessible(page)

    # Buttons: to the start (the arena empty before the setups), forward, back to the end.
    page.get_by_role("button", name="First").click()
    status(page, 0, last)
    expect(page.locator("#replay-board .sq.occupied")).to_have_count(0)
    page.get_by_role("button", name="Forward").click()
    status(page, 1, last)
    page.get_by_role("button", name="Last").click()
    status(page, last, last)
    page.get_by_role("button", name="Back").click()
    status(page, last - 1, last)

    # The removal that moved a minion, as the game page marks it: from, to and the chamber.
    page.get_by_role("button", name=f"Show version {v}", exact=True).click()
    status(page, v, last)
    expect(square(page, target)).to_have_class(re.compile(r"\blast-to\b"))
    expect(square(page, target)).to_have_accessible_name(re.compile(r", last action$"))
    expect(square(page, origin)).to_have_class(re.compile(r"\blast-from\b"))
    expect(square(page, origin)).to_have_accessible_name(f"{origin}, empty")
    expect(page.locator(f"#replay-board .chamber-row[data-mage='{moved['mage']}']")).to_have_class(
        re.compile(r"\blast\b"))
    mover = square(page, target).get_attribute("aria-label").split(", ")[1]

    # The arrow keys: one back shows the minion where it stood, one forward moves it again.
    page.keyboard.press("ArrowLeft")
    status(page, v - 1, last)
    expect(square(page, origin)).to_have_accessible_name(f"{origin}, {mover}")
    expect(square(page, target)).not_to_have_class(re.compile(r"\blast-to\b"))
    page.keyboard.press("ArrowRight")
    status(page, v, last)
    expect(square(page, origin)).to_have_accessible_name(f"{origin}, empty")
    page.keyboard.press("End")
    status(page, last, last)
    page.keyboard.press("Home")
    status(page, 0, last)

    # The finished match's advantage graph, under the replay, follows it; a click steps to a version.
    graph = page.locator("#replay-advantage")
    expect(graph).to_be_visible()
    expect(graph.locator(".adv-readout")).to_have_text("Version 0: even")
    box = graph.locator("svg").bounding_box()
    assert box is not None
    graph.locator("svg").click(position={"x": box["width"] - 6, "y": box["height"] / 2})
    status(page, last, last)
    expect(graph.locator(".adv-readout")).to_have_text(f"Version {last}: White has won")


def test_an_adjudication_reaches_the_players_page(contexts: Contexts, scene: dict[str, Any]) -> None:
    server = contexts.server
    match_id, tokens = _start(server, "Wren", "Yusuf")
    for colour in ("white", "black"):
        server.act(match_id, tokens[colour], {"type": "setup", "backrow": ROW})
    player = contexts.page()
    player.goto(f"/matches/{match_id}#seat=black.{tokens['black']}")
    wait_ready(player)

    admin = contexts.page()
    sign_in(admin)
    admin.goto(f"/admin/matches/{match_id}")
    # At once, before the replay board is drawn: the form stands above it, so
    # the board cannot move it (with the form below, a click once landed beside the radio).
    admin.get_by_label("Black wins").check()
    admin.get_by_label("Reason (the players see it)").fill("White's player left a note that they had to go.")
    admin.get_by_role("button", name="End the match").click()
    expect(admin.get_by_role("status").filter(has_text="The match is ended.")).to_be_visible()
    expect(admin.locator(".facts")).to_contain_text("adjudicated")

    expect(player.locator("#result")).to_have_text("You won — a server admin's decision.")
    expect(player.locator("#log")).to_contain_text("A server admin ends the match (Black wins): White's player "
                                                   "left a note that they had to go.")


def test_figures_pass_axe_and_history_and_figures_fit_a_phone(contexts: Contexts, scene: dict[str, Any]) -> None:
    page = contexts.page(axe=True)
    sign_in(page)
    page.goto("/admin/figures")
    expect(page.locator("svg.chart").first).to_be_visible()
    assert_accessible(page)

    phone = contexts.page(width=412, height=915, is_mobile=True, has_touch=True)
    sign_in(phone)
    for path in ["/admin", "/admin/figures", f"/admin/matches/{scene['match']}"]:
        phone.goto(path)
        if "/matches/" in path:
            expect(phone.locator("#replay-board .arena")).to_be_visible()
        wide = page_width(phone)
        assert wide <= 412, f"{path} is {wide} px wide on a phone"
