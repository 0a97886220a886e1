"""The arenas' pages in real Chromium: the list (from the header's link), and an
arena's page kept live by its websocket with no reload: a spectator's standings,
games and clock move as games end; a signed-in player joins, is sent to their
game the moment they are paired, is sent to the next one when it ends, withdraws;
and at the end the podium. On a phone (390x844) and a desktop (1366x768), each
checked by axe and for sideways scrolling. The Berserk button is only looked for
here (its endpoint is another's work; its own browser test goes with it).

MAGERY_SHOTS=docs/screenshots keeps the screenshots (tournament-*.png)."""

from __future__ import annotations

import os
import re
import sqlite3
import time
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import expect

from .conftest import Contexts, Server, assert_accessible, page_width
from .players import make

SHOTS = os.environ.get("MAGERY_SHOTS")
PHONE, DESKTOP = (390, 844), (1366, 768)
PASSWORD = "a player's password"  # players.py's


def shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"tournament-{name}.png"), full_page=True)


def fits(page: Any) -> None:
    assert page_width(page) <= page.viewport_size["width"], "wider than the window"


def arena(server: Server, token: str, name: str, starts_in: int = 0, minutes: int = 60) -> str:
    made = server.call("POST", "/tournaments", {"name": name, "time_control": "5+3", "minutes": minutes,
                                                "starts_in_seconds": starts_in, "rated": False}, token=token)
    return str(made["id"])


def end_soon(server: Server, tid: str, seconds: float) -> None:
    """The arena ends `seconds` from now (the API makes arenas of a minute at least)."""
    path = urlsplit(server.database_url.replace("sqlite+aiosqlite:///", "file:///")).path
    with sqlite3.connect(path, timeout=30) as db:
        db.execute("UPDATE tournaments SET ends_ms = ? WHERE id = ?", (int((time.time() + seconds) * 1000), tid))


def signed_in(contexts: Contexts, name: str, size: tuple[int, int], then: str) -> Any:
    """A page signed in as `name`, brought back to `then` by the sign-in form."""
    page = contexts.page(width=size[0], height=size[1], axe=True)
    page.goto(f"/login?next={then}")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(re.escape(then) + "$"))
    expect(page.get_by_role("navigation", name="Account").get_by_role("link", name=name)).to_be_visible()
    return page


def live(page: Any) -> None:
    page.wait_for_function("() => document.getElementById('arena').dataset.live === '1'")
    page.wait_for_function("() => Number(document.getElementById('arena').dataset.version || 0) >= 1")


def test_the_list_shows_running_upcoming_and_finished_arenas(contexts: Contexts) -> None:
    server = contexts.server
    tokens = make(server, {"players": ["Lister"]})["tokens"]
    running = arena(server, tokens["Lister"], "Lunch Blitz")
    later = arena(server, tokens["Lister"], "Evening Arena", starts_in=3600)
    over = arena(server, tokens["Lister"], "Dawn Arena")
    end_soon(server, over, -1)
    for size, name in ((DESKTOP, "list-desktop"), (PHONE, "list-phone")):
        page = contexts.page(width=size[0], height=size[1], axe=True)
        page.goto("/")
        page.get_by_role("link", name="Tournaments").click()
        expect(page).to_have_url(re.compile(r"/tournaments$"))
        expect(page.locator("#list-running").get_by_role("link", name="Lunch Blitz")).to_be_visible()
        expect(page.locator("#list-upcoming").get_by_role("link", name="Evening Arena")).to_be_visible()
        expect(page.locator("#list-finished").get_by_role("link", name="Dawn Arena")).to_be_visible()
        fits(page)
        assert_accessible(page)
        shot(page, name)
    page.get_by_role("link", name="Evening Arena").click()
    expect(page).to_have_url(re.compile(f"/tournaments/{later}$"))
    expect(page.locator("#clock-words")).to_have_text("Starts in")
    expect(page.locator("#clock")).to_have_text(re.compile(r"^(59:[0-5]\d|1:00:00)$"))
    assert running != over


def test_a_live_arena_joined_played_withdrawn_and_its_podium(contexts: Contexts) -> None:
    server = contexts.server
    tokens = make(server, {"players": ["Marnie", "Osric"]})["tokens"]
    tid = arena(server, tokens["Osric"], "Hourly Blitz")
    server.call("POST", f"/tournaments/{tid}/join", token=tokens["Osric"])

    # A spectator on a phone, signed in as nobody: it only ever watches this page.
    watcher = contexts.page(width=PHONE[0], height=PHONE[1], axe=True)
    watcher.goto(f"/tournaments/{tid}")
    live(watcher)
    expect(watcher.locator("#standings tr")).to_have_count(1)
    expect(watcher.locator("#clock-words")).to_have_text("Ends in")
    first = watcher.locator("#clock").inner_text()
    watcher.wait_for_function("t => document.getElementById('clock').textContent !== t", arg=first)  # it counts

    # Marnie joins from the page: paired with Osric at once, her page opens the game by itself.
    marnie = signed_in(contexts, "Marnie", DESKTOP, f"/tournaments/{tid}")
    live(marnie)
    expect(marnie.locator("#you-line")).to_have_text("You have not joined this arena.")
    fits(marnie)
    assert_accessible(marnie)
    marnie.get_by_role("button", name="Join").click()
    marnie.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+$"))
    game_one = marnie.url.rsplit("/", 1)[1]
    expect(marnie.get_by_role("link", name="Back to Hourly Blitz")).to_be_visible()
    expect(marnie.get_by_role("button", name="Berserk")).to_be_visible()
    shot(marnie, "game-desktop")
    expect(watcher.locator("#standings tr")).to_have_count(2)  # no reload: the join came by the socket
    expect(watcher.locator("#pairings li").first).to_contain_text("playing")

    # Back on the arena's page, her game is named; Osric resigns, and the next game opens by itself.
    marnie.get_by_role("link", name="Back to Hourly Blitz").click()
    live(marnie)
    expect(marnie.locator("#your-game")).to_be_visible()
    server.call("POST", f"/matches/{game_one}/resign", token=tokens["Osric"])
    marnie.wait_for_url(re.compile(r"/matches/(?!" + game_one + r"$)[A-Za-z0-9_-]+$"))
    game_two = marnie.url.rsplit("/", 1)[1]
    first_row = watcher.locator("#standings tr").first
    expect(first_row).to_contain_text("Marnie")
    expect(first_row.locator("td").nth(2)).to_have_text("2")
    expect(watcher.locator("#pairings li").nth(1)).to_contain_text(re.compile("1–0|0–1"))
    fits(watcher)
    assert_accessible(watcher)
    shot(watcher, "live-phone")

    # Withdrawing: a pause (the game under way is played out), Join offered again.
    marnie.goto(f"/tournaments/{tid}")
    live(marnie)
    marnie.get_by_role("button", name="Withdraw").click()
    expect(marnie.locator("#you-line")).to_contain_text("You withdrew")
    expect(marnie.get_by_role("button", name="Join")).to_be_visible()
    shot(marnie, "live-desktop")

    # The end: Osric resigns again, the arena's time runs out, the podium shows on both pages.
    end_soon(server, tid, 3)
    server.call("POST", f"/matches/{game_two}/resign", token=tokens["Osric"])
    expect(watcher.locator("#standings tr").first.locator(".flame")).to_be_visible()  # two wins in a row
    for page in (watcher, marnie):
        expect(page.locator("#podium-panel")).to_be_visible()
        expect(page.locator("#podium li")).to_have_count(2)
        expect(page.locator("#podium li").first).to_contain_text("Marnie")
        expect(page.locator("#clock-words")).to_have_text("Finished")
    expect(marnie.locator("#you-line")).to_contain_text("you finished #1 with 4 points")
    expect(watcher.locator("#guest-line")).to_have_text("This arena is over.")
    expect(marnie.get_by_role("button", name="Join")).to_be_hidden()
    for page, name in ((watcher, "podium-phone"), (marnie, "podium-desktop")):
        fits(page)
        assert_accessible(page)
        shot(page, name)
