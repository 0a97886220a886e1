"""A Swiss event's page in real Chromium: found in the tournaments' list; a
signed-in player on a desktop (1366x768) joins from the page before the start;
the page draws itself again when round 1 is due, with no reload: the round,
the pairing on board 1 and the bye; a spectator on a phone (390x844) sees the
standings with Buchholz and Sonneborn-Berger, the pairings and the TRF link;
after round 2 the player withdraws. Each page checked by axe and for sideways
scrolling.

MAGERY_SHOTS=docs/screenshots keeps the screenshots (tournament-swiss-*.png)."""

from __future__ import annotations

import re
import sqlite3
import time
from urllib.parse import urlsplit

from playwright.sync_api import expect

from ..waiting import until_sync
from .conftest import Contexts, Server, assert_accessible
from .players import make
from .test_tournaments import DESKTOP, PHONE, fits, shot, signed_in


def start_soon(server: Server, tid: str, seconds: float) -> None:
    """The event starts (round 1 is due) `seconds` from now."""
    path = urlsplit(server.database_url.replace("sqlite+aiosqlite:///", "file:///")).path
    at = int((time.time() + seconds) * 1000)
    with sqlite3.connect(path, timeout=30) as db:
        db.execute("UPDATE tournaments SET starts_ms = ?, ends_ms = ? WHERE id = ?", (at, at, tid))
        db.execute("UPDATE swiss_events SET next_round_ms = ? WHERE tournament_id = ?", (at, tid))


def test_a_swiss_event_joined_paired_by_round_and_withdrawn(contexts: Contexts) -> None:
    server = contexts.server
    tokens = make(server, {"players": ["Sela", "Tamsin", "Ulric"]})["tokens"]
    made = server.call("POST", "/tournaments", {"kind": "swiss", "name": "Saturday Swiss", "time_control": "5+3",
                                                "rounds": 3, "round_interval_seconds": 0, "starts_in_seconds": 3600,
                                                "rated": False}, token=tokens["Tamsin"])
    tid = made["id"]
    for name in ("Tamsin", "Ulric"):
        server.call("POST", f"/tournaments/{tid}/join", token=tokens[name])

    sela = signed_in(contexts, "Sela", DESKTOP, "/tournaments")
    expect(sela.locator("#list-upcoming")).to_contain_text("Swiss · Standard")
    sela.locator("#list-upcoming").get_by_role("link", name="Saturday Swiss").click()
    expect(sela).to_have_url(re.compile(f"/tournaments/{tid}$"))
    expect(sela.locator("#round-line")).to_contain_text("Round 1 of 3 is paired at")
    expect(sela.locator("#you-line")).to_have_text("You have not joined this Swiss event.")
    sela.wait_for_function("() => document.getElementById('swiss').dataset.live === '1'")  # its script runs
    start_soon(server, tid, 3)  # the page drawn after her join knows the new time
    sela.get_by_role("button", name="Join").click()
    expect(sela.locator("#you-line")).to_contain_text("You play in this event")
    expect(sela.get_by_role("button", name="Withdraw")).to_be_visible()

    # Round 1 is paired at the start: the page draws it when it is due, no reload.
    expect(sela.locator("#round-line")).to_contain_text("Round 1 of 3 · round 2 is paired when every game is over")
    expect(sela.locator("#round-1 + ol li")).to_have_count(2)
    expect(sela.locator("#round-1 + ol li").nth(1)).to_contain_text(re.compile(r"^2\. \w+: bye 1 point$"))
    expect(sela.locator("#round-1 + ol li").first).to_contain_text("playing")
    expect(sela.get_by_role("link", name="Your round 1 game is on: open it")).to_be_visible()
    fits(sela)
    assert_accessible(sela)
    shot(sela, "swiss-desktop")

    # Round 1's game ends by a resignation; round 2 is paired at once (no interval).
    game = server.call("GET", f"/tournaments/{tid}")["pairings"][0]
    loser = game["black"]
    server.call("POST", f"/matches/{game['match']}/resign", token=tokens[loser])
    until_sync(lambda: server.call("GET", f"/tournaments/{tid}")["round"] == 2, "round 2 paired")
    watcher = contexts.page(width=PHONE[0], height=PHONE[1], axe=True)
    watcher.goto(f"/tournaments/{tid}")
    expect(watcher.locator("#round-line")).to_contain_text("Round 2 of 3")
    heads = watcher.locator("#standings").locator("xpath=..").locator("thead th")
    expect(heads).to_have_text(["#", "Player", "Points", "Games", "Buch.", "S-B"])
    for head in ("Buch.", "S-B"):
        expect(heads.filter(has_text=head)).to_be_visible()  # both tie-breaks shown on a phone too
    expect(watcher.locator("#standings tr")).to_have_count(3)
    expect(watcher.locator("#round-1 + ol li").first).to_contain_text(re.compile("1–0|0–1"))
    expect(watcher.locator("#round-2 + ol li")).to_have_count(2)
    expect(watcher.get_by_role("link", name="TRF-16 export")).to_have_attribute("href", f"/api/v1/tournaments/{tid}/trf")
    expect(watcher.locator("#guest-line")).to_contain_text("Sign in to join this Swiss event.")
    fits(watcher)
    assert_accessible(watcher)
    shot(watcher, "swiss-phone")

    # Sela withdraws: not paired again unless she joins again.
    sela.reload()
    sela.wait_for_function("() => document.getElementById('swiss').dataset.live === '1'")
    sela.get_by_role("button", name="Withdraw").click()
    expect(sela.locator("#you-line")).to_contain_text("You withdrew")
    expect(sela.get_by_role("button", name="Join")).to_be_visible()
    expect(sela.locator("#standings")).to_contain_text("Sela (withdrawn)")
