"""Berserk on an arena game's page in real Chromium: the player not setting up
presses Berserk before their first turn; their clock shows halved on their own
page, their opponent's and a spectator's (pushed, no reload), the log says it
in words and the opponent is told; the button is gone after (a reload too),
and a spectator never has it. Once with the berserk player on a phone
(390x844) and the opponent on a desktop (1366x768), once the other way round.

MAGERY_SHOTS=docs/screenshots keeps the screenshots (tournament-berserk-*.png)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import Contexts, assert_accessible
from .players import make
from .test_tournaments import DESKTOP, PHONE, arena, fits, shot, signed_in

NAMES = {PHONE: "phone", DESKTOP: "desktop"}


@pytest.mark.parametrize(("mine", "theirs"), [(PHONE, DESKTOP), (DESKTOP, PHONE)], ids=["phone", "desktop"])
def test_berserk_halves_the_clock_on_every_page(contexts: Contexts, mine: tuple[int, int],
                                                 theirs: tuple[int, int]) -> None:
    server = contexts.server
    names = (f"Berit{NAMES[mine].title()}", f"Cato{NAMES[mine].title()}")  # one server for both runs
    tokens = make(server, {"players": list(names)})["tokens"]
    tid = arena(server, tokens[names[0]], "Berserk Blitz")
    for name in names:
        server.call("POST", f"/tournaments/{tid}/join", token=tokens[name])
    game = server.call("GET", f"/tournaments/{tid}")["pairings"][0]["match"]
    state = server.match(game)
    # The side not setting up now goes berserk: its clock stands still, at a figure known exactly (5:00).
    colour = "black" if state["to_move"] == "white" else "white"
    other = "white" if colour == "black" else "black"
    berserker, opponent = state["players"][colour]["name"], state["players"][other]["name"]

    me = signed_in(contexts, berserker, mine, f"/matches/{game}")
    them = signed_in(contexts, opponent, theirs, f"/matches/{game}")
    watcher = contexts.page(width=theirs[0], height=theirs[1], axe=True)
    watcher.goto(f"/matches/{game}")
    for page in (me, them, watcher):
        expect(page.locator(f"#player-{colour} .clock")).to_have_text("5:00")
    expect(me.get_by_role("button", name="Berserk")).to_be_visible()
    expect(watcher.get_by_role("link", name="Back to Berserk Blitz")).to_be_visible()
    expect(watcher.get_by_role("button", name="Berserk")).to_have_count(0)  # a spectator never has it

    me.wait_for_function("() => document.getElementById('arena-game').dataset.ready === '1'")  # its script runs
    me.get_by_role("button", name="Berserk").click()
    expect(me.locator("#berserk-note")).to_have_text("Berserk: your clock is halved, and a win scores one more point.")
    expect(me.get_by_role("button", name="Berserk")).to_be_hidden()
    told = f"{colour.capitalize()} goes berserk: half the clock, for a point more if they win."
    for page in (me, them, watcher):  # pushed to every page of the match
        expect(page.locator(f"#player-{colour} .clock")).to_have_text("2:30")
        expect(page.locator("#log")).to_contain_text(told)
        expect(page.locator(f"#player-{other} .clock")).not_to_have_text("2:30")
    expect(them.locator(".toast").filter(has_text="goes berserk")).to_have_text(
        f"{colour.capitalize()} goes berserk: their clock is halved, and a win scores them a point more.")
    expect(watcher.get_by_role("button", name="Berserk")).to_have_count(0)
    for page in (me, them):
        fits(page)
        assert_accessible(page)
    shot(me, f"berserk-{NAMES[mine]}")
    shot(them, f"berserk-opponent-{NAMES[theirs]}")

    me.reload()  # drawn again by the server: no button once berserk
    expect(me.locator(f"#player-{colour} .clock")).to_have_text("2:30")
    expect(me.get_by_role("link", name="Back to Berserk Blitz")).to_be_visible()
    expect(me.get_by_role("button", name="Berserk")).to_have_count(0)
