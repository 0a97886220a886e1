"""The pages as a whole: axe-core finds no WCAG 2.1 AA violation, a phone-sized
window needs no sideways scrolling, every page carries the security headers,
and a player's name is always text, never markup."""

from __future__ import annotations

import hashlib
import re
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.waiting import DEADLINE

from .conftest import (
    AXE,
    ROW,
    Contexts,
    Server,
    assert_accessible,
    create_on_page,
    my_turn,
    page_width,
    wait_ready,
)

HOSTILE = "<img src=x onerror=alert(1)>"


def started(server: Server, white: str = "Ada", black: str = "Bo") -> tuple[str, dict[str, str]]:
    made = server.call("POST", "/matches", {"seat": "white", "name": white})
    match_id = made["match"]["id"]
    joined = server.call("POST", f"/matches/{match_id}/join", {"name": black})
    tokens = {"white": made["token"], "black": joined["token"]}
    server.act(match_id, tokens["white"], {"type": "setup", "backrow": ROW})
    server.act(match_id, tokens["black"], {"type": "setup", "backrow": ROW})
    return match_id, tokens


def test_the_vendored_axe_is_the_one_noted() -> None:
    readme = (AXE.parent / "README.md").read_text()
    assert hashlib.sha256(AXE.read_bytes()).hexdigest() in readme


def test_home_and_match_pages_pass_axe(contexts: Contexts) -> None:
    server = contexts.server
    started(server)  # so the lists have something in them
    page = contexts.page(axe=True)
    page.goto("/")
    expect(page.locator("#live-list li").first).not_to_have_class("empty")
    assert_accessible(page)
    page.get_by_label("Time control").select_option("realtime")
    assert_accessible(page)
    # A waiting match, with its invite link.
    create_on_page(page, name="Ada")
    expect(page.get_by_label("Invite link")).to_be_visible()
    assert_accessible(page)
    # A match in the decision phase, with the choices highlighted, and in the action phase.
    match_id, tokens = started(server)
    page.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
    my_turn(page, 3)
    page.get_by_role("button", name=re.compile("^Dragon:")).click()
    assert_accessible(page)
    server.act(match_id, tokens["white"], {"type": "place", "mage": "druid", "minion": "fey"})
    server.act(match_id, tokens["black"], {"type": "pass"})
    server.act(match_id, tokens["white"], {"type": "pass"})
    my_turn(page, 6)
    page.get_by_role("button", name=re.compile("^Druid,")).click()
    assert_accessible(page)


@pytest.mark.parametrize("where", ["home", "match"])
def test_a_phone_needs_no_sideways_scrolling(contexts: Contexts, where: str) -> None:
    page = contexts.page(width=360, height=800, is_mobile=True, has_touch=True)
    # The longest name a seat takes, without a space to break at.
    name = "Wolfeschlegelsteinhausenbergerdorffvoral"
    if where == "home":  # in the open and the live lists (measured once the lists have it)
        contexts.server.call("POST", "/matches", {"seat": "white", "name": name})
        started(contexts.server, white=name, black="Ada Lovelace-Byron the Long-Named")
        page.goto("/")
        expect(page.locator("#open-list")).to_contain_text(name)
        expect(page.locator("#live-list")).to_contain_text(name)
    else:
        match_id, tokens = started(contexts.server, white="Ada Lovelace-Byron the Long-Named", black=name)
        page.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
        my_turn(page, 3)
    wait = page_width(page)
    assert wait <= 360, f"{where} is {wait} px wide"
    assert page.evaluate("() => document.documentElement.clientWidth") == 360


def _headers(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=DEADLINE) as answer:
        return answer.headers


def test_every_page_carries_the_security_headers(server: Server) -> None:
    match_id, _ = started(server)
    for path in ["/", f"/matches/{match_id}", "/matches/no-such-match", "/static/js/match.js",
                 "/static/css/site.css", "/api/v1/matches"]:
        try:
            headers = _headers(server.base + path)
        except urllib.error.HTTPError as error:  # the 404 page
            headers = error.headers
        csp = headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp, (path, csp)
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp and "http" not in csp, (path, csp)
        assert headers["X-Content-Type-Options"] == "nosniff", path
        if path.startswith("/static/"):  # revalidated each time: a release never mixes with cached modules
            assert headers["Cache-Control"] == "no-cache", path


def test_a_hostile_name_is_shown_as_text(contexts: Contexts) -> None:
    match_id, _ = started(contexts.server, white=HOSTILE, black="Bo")
    page = contexts.page()
    dialogs: list[str] = []
    fetched: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(f"/matches/{match_id}")
    wait_ready(page)
    expect(page.locator("#player-white .name")).to_have_text(HOSTILE)
    expect(page).to_have_title(re.compile(re.escape(HOSTILE)))
    page.goto("/")
    expect(page.locator("#live-list")).to_contain_text(HOSTILE)  # its markup shown as text
    assert page.locator("img[src='x']").count() == 0  # and none of it taken as an element
    assert not dialogs and not any(u.endswith("/x") for u in fetched)


def test_an_unknown_match_is_a_page_that_says_so(contexts: Contexts) -> None:
    page = contexts.page()
    answer = page.goto("/matches/nosuchmatch")
    assert answer is not None and answer.status == 404
    expect(page.get_by_role("heading", name="Not found")).to_be_visible()


def test_an_open_match_is_joined_with_one_click_from_home(contexts: Contexts) -> None:
    made = contexts.server.call("POST", "/matches", {"seat": "white", "name": "Opener"})
    page = contexts.page()
    page.goto("/")
    page.get_by_label("Your name").fill("Clicker")
    page.get_by_role("button", name="Join Opener (White) v … (Black)").click()
    page.wait_for_url(f"**/matches/{made['match']['id']}")
    wait_ready(page)
    expect(page.locator("#player-black .you")).to_be_visible()
    expect(page.locator("#player-black .name")).to_have_text("Clicker")
    expect(page.get_by_role("status")).to_contain_text("Setup · White to move")
    # The live list offers the seat's own match to play, and to others to watch.
    page.goto("/")
    expect(page.get_by_role("link", name="Play Opener (White) v Clicker (Black)")).to_be_visible()
    other = contexts.page()
    other.goto("/")
    expect(other.get_by_role("link", name="Watch Opener (White) v Clicker (Black)")).to_be_visible()


def test_a_clock_low_on_time_is_marked(contexts: Contexts) -> None:
    server = contexts.server
    made = server.call("POST", "/matches", {"seat": "white", "name": "Ada",
                                            "options": {"time_control": {"type": "realtime", "minutes": 0.3,
                                                                         "increment": 0}}})
    joined = server.call("POST", f"/matches/{made['match']['id']}/join", {"name": "Bo"})
    page = contexts.page()
    page.goto(f"/matches/{made['match']['id']}")
    # Setup runs no clock: the side to set up sees its setup time instead, the other its full clock.
    expect(page.locator("#player-white .clock")).to_have_text(re.compile(r"^Setup (1:00|0:[0-5]\d)$"))
    expect(page.locator("#player-white .clock")).to_have_attribute(
        "aria-label", re.compile(r"^White's time left to set up: "))
    expect(page.locator("#player-black .clock")).to_have_text("0:18 ⚠")
    expect(page.locator("#player-black .clock")).not_to_have_class(re.compile(r"\brunning\b"))
    server.act(made["match"]["id"], made["token"], {"type": "setup", "backrow": ROW})
    server.act(made["match"]["id"], joined["token"], {"type": "setup", "backrow": ROW})
    clock = page.locator("#player-white .clock")
    expect(clock).to_have_class(re.compile(r"\brunning\b.*\blow\b"))
    # Any of 0:18 down to 0:00: the clock runs from the first round, and a slow page may come up late.
    expect(clock).to_have_attribute("aria-label", re.compile(r"^White's clock: 0:[01]\d, low on time$"))
    expect(page.locator("#player-black .clock")).to_have_text("0:18 ⚠")  # not running, low all the same


def test_a_token_that_holds_no_seat_leaves_a_spectator(contexts: Contexts) -> None:
    match_id, _ = started(contexts.server)
    page = contexts.page()
    page.goto(f"/matches/{match_id}#seat=white.{'A' * 43}")
    wait_ready(page)
    expect(page.locator("#player-white .you")).to_be_hidden()
    expect(page.locator("#banner")).to_be_hidden()
    assert page.evaluate(f"() => localStorage.getItem('magery.seat.{match_id}')") is None
    assert "#" not in page.url
