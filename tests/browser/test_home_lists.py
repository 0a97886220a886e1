"""Issue 16, defects 6, 7 and 10 on the home page: recent results in the match
page's words (never a raw code), a refused create said in words beside its
field, and open and live lists that leave out matches nobody is at any more."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from ..waiting import until_sync
from .conftest import Contexts, assert_accessible, open_more_options, run_server, wait_ready
from .scenes import seated

RESULTS = [  # (the result as the server writes it, the words both pages say)
    ({"winner": None, "reason": "aborted"}, "The match was aborted."),
    ({"winner": "black", "reason": "timeout", "abandoned": "white"}, "Black wins: White left the match."),
    ({"winner": None, "reason": "agreement", "abandoned": "black"}, "A draw: Black left the match."),
    ({"winner": "white", "reason": "five_greater"}, "White wins: five of Black's greater minions are dead."),
    ({"winner": None, "reason": "agreement"}, "A draw: both players agreed."),
    ({"winner": "white", "reason": "timeout"}, "White wins on time."),
]


def test_recent_results_say_each_result_as_the_match_page_does(contexts: Contexts) -> None:
    server = contexts.server
    made = server.call("POST", "/matches", {"seat": "white", "name": "Quitter"})
    server.call("POST", f"/matches/{made['match']['id']}/abort", token=made["token"])
    aborted = server.match(made["match"]["id"])
    assert aborted["result"]["reason"] == "aborted"
    page = contexts.page()
    page.goto(f"/matches/{aborted['id']}")
    wait_ready(page)
    expect(page.get_by_role("status")).to_have_text("Match over. The match was aborted.")
    # The list shows the aborted match as it is, and results the server writes for other
    # endings (put in the list's answer: a claim or five dead greater minions take a whole match).
    shown = [copy.deepcopy(aborted)]
    for i, (result, _) in enumerate(RESULTS[1:]):
        m = copy.deepcopy(aborted)
        m["id"], m["result"] = f"{aborted['id'][:-1]}{i}", result
        shown.append(m)

    def listing(route: Any) -> None:
        if "status=finished" in route.request.url:
            route.fulfill(status=200, content_type="application/json", body=json.dumps({"matches": shown, "next_cursor": None}))
        else:
            route.continue_()

    page.route(re.compile(r"/api/v1/matches\?"), listing)
    page.goto("/")
    recent = page.locator("#recent-list li")
    expect(recent).to_have_count(len(RESULTS))
    for li, (_, words) in zip(recent.all(), RESULTS, strict=True):
        expect(li).to_contain_text(words)
    text = page.locator("#recent-list").inner_text()
    assert not re.search(r"\bwon\b|\(aborted\)|five greater|_", text), text


def test_a_refused_create_is_said_in_words_beside_its_field(contexts: Contexts) -> None:
    page = contexts.page(width=360, height=780, axe=True)
    page.goto("/")
    open_more_options(page)
    field = page.get_by_label("No-progress rule", exact=False)
    field.fill("1001")
    page.get_by_role("button", name="Create match").click()
    words = "Give a whole number of rounds from 0 to 1000 (0 turns the rule off)."
    expect(field).to_have_accessible_description(words)
    expect(field).to_be_focused()
    expect(page.locator("#create-error")).to_have_text("Not created: see the field marked below.")
    assert page.url.endswith("/")
    assert_accessible(page)
    # The server's own refusal (a value the page let through) is put beside the field too.
    field.fill("12")
    page.route("**/api/v1/matches", lambda route: route.continue_(post_data=json.dumps(
        {**json.loads(route.request.post_data), "options": {"no_progress_rounds": 5000}})))
    page.get_by_role("button", name="Create match").click()
    expect(field).to_have_accessible_description(words)
    expect(page.locator("#create-error")).to_have_text("Not created: see the field marked below.")
    assert "body." not in page.locator(".create").inner_text()
    panel, error = page.locator(".create").bounding_box(), page.locator("#create-error").bounding_box()
    assert error["x"] + error["width"] <= panel["x"] + panel["width"], (error, panel)
    # Put right, the mark goes.
    page.unroute("**/api/v1/matches")
    field.fill("10")
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url(re.compile(r"/matches/"))


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A server of its own whose lists leave a match out 2 s after its last person left."""
    with run_server(Path(tmp_path_factory.mktemp("lists-server")), LISTED_AWAY_SECONDS="2") as running:
        yield running


def test_the_lists_leave_out_matches_nobody_is_at(browser: Any, quick_server: Any) -> None:
    own = Contexts(browser, quick_server)
    try:
        # A seek whose creator's page is open, and one whose creator went away.
        ada = own.page()
        ada.goto("/")
        ada.get_by_label("Your name").fill("Ada")
        ada.get_by_role("button", name="Create match").click()
        ada.wait_for_url(re.compile(r"/matches/"))
        wait_ready(ada)
        ghost = quick_server.call("POST", "/matches", {"seat": "white", "name": "Ghost"})["match"]["id"]
        ada_match = ada.url.split("/matches/")[1].split("#")[0]
        # Live: one match whose players both left (never opened it), one with a player at it.
        seated(quick_server)
        live_id, tokens = seated(quick_server)
        bo = own.page()
        bo.goto(f"/matches/{live_id}#seat=black.{tokens['black']}")
        wait_ready(bo)

        home = own.page()

        def lists() -> tuple[str, str]:
            home.goto("/")
            expect(home.locator("#open-list li").first).not_to_have_text("Loading…")
            expect(home.locator("#live-list li").first).not_to_have_text("Loading…")
            return home.locator("#open-list").inner_text(), home.locator("#live-list").inner_text()

        def listed(status: str) -> set[str]:
            # What the home page asks for its two lists (static/js/home.js): polled here, the page
            # read once the answer has changed (a page load per poll made this test minutes long).
            page = quick_server.call("GET", f"/matches?status={status}&limit=10&here=true")
            return {m["id"] for m in page["matches"]}

        until_sync(lambda: ghost not in listed("waiting"), "the seek whose creator left to leave the open list",
                   every=0.2)
        open_now, live_now = lists()
        assert "Ghost" not in open_now and "Ada waits" in open_now, open_now
        assert live_now.count("Ada (White) v Bo (Black)") == 1, live_now  # the one Bo sits at
        ada.close()  # Ada leaves her seek
        until_sync(lambda: ada_match not in listed("waiting"), "Ada's seek to leave the open list once she left",
                   every=0.2)
        assert "Ada waits" not in lists()[0]
        bo.close()
        until_sync(lambda: live_id not in listed("active"), "a match nobody is at to leave the live list",
                   every=0.2)
        assert "Ada (White) v Bo (Black)" not in lists()[1]
    finally:
        own.close()
    assert not own.errors, own.errors
