"""The players' accounts in the dashboard, in real Chromium (issue 19): search
the list, open an account, close it with a reason; on a desktop and at 360 px.

The players' accounts, their seats and a rated match between them are made on
the test server's database by the account and match services in a child
process (tests/browser/players.py); the admin is made as an operator makes
one, by `python -m app.accounts add-admin`'s own main, in that same child (one
interpreter importing the app: on a loaded machine each such start took
seconds, and this module-scoped scene was paid by its first test, the desktop
case)."""

from __future__ import annotations

import re
import urllib.error
from typing import Any

import pytest
from playwright.sync_api import expect

from . import players
from .conftest import Contexts, Server, assert_accessible, page_width

ADMIN, PASSWORD = "warden", "a browser-test password"
PLAYERS = ("Linnea", "Samira", "Otto")

@pytest.fixture(scope="module")
def scene(server: Server) -> dict[str, Any]:
    match = server.call("POST", "/matches", {"seat": "white", "name": PLAYERS[0]})
    match_id = match["match"]["id"]
    server.call("POST", f"/matches/{match_id}/join", {"name": PLAYERS[1]})
    made = players.make(server, {"players": PLAYERS, "seats": {match_id: PLAYERS[:2]}, "rated": [PLAYERS[:2]],
                                 "admin": [ADMIN, PASSWORD]})
    return {"match": match_id, **made}


def signed_in(server: Server, token: str) -> bool:
    """Whether the server still takes `token` for its account (GET /account: 401 once it is not)."""
    try:
        server.call("GET", "/account", token=token)
    except urllib.error.HTTPError as refused:
        assert refused.code == 401, refused
        return False
    return True


def sign_in(page: Any) -> None:
    page.goto("/admin/accounts")
    page.wait_for_url(re.compile(r"/admin/login"))
    page.get_by_label("Username").fill(ADMIN)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"/admin/accounts$"))


@pytest.mark.parametrize(("width", "who", "part"), [(1280, "Linnea", "NNE"), (360, "Samira", "amir")],
                         ids=["desktop", "phone"])
def test_search_open_and_close_an_account(contexts: Contexts, server: Server, scene: dict[str, Any],
                                          width: int, who: str, part: str) -> None:
    page = contexts.page(width=width, height=900, axe=True)
    sign_in(page)
    expect(page.get_by_role("link", name="Accounts")).to_have_attribute("aria-current", "page")
    page.get_by_label("Name holds").fill(part)
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_role("link", name=who, exact=True)).to_be_visible()
    for other in PLAYERS:
        if other != who:
            expect(page.get_by_role("link", name=other, exact=True)).to_have_count(0)
    assert_accessible(page)

    page.get_by_role("link", name=who, exact=True).click()
    expect(page.get_by_role("heading", name=f"Account {who}")).to_be_visible()
    expect(page.get_by_role("link", name=scene["match"])).to_be_visible()  # its matches, to the match's page
    expect(page.get_by_role("link", name=scene["rated"][0])).to_be_visible()
    ratings = page.get_by_role("table", name=re.compile("One rating per variant"))
    rating = ratings.get_by_role("row", name=re.compile(r"\bstandard\b")).get_by_role("cell").nth(1)
    expect(rating).to_have_text("1742?" if who == PLAYERS[0] else "1258?")  # white won the rated match
    expect(page.get_by_text(f"python -m app.accounts reset-password {who}")).to_be_visible()
    facts = page.locator("dl.facts")
    expect(facts.locator("dd").first).to_have_text("open")
    expect(facts).to_contain_text("Live API tokens1")
    assert_accessible(page)

    page.get_by_label("Reason (kept in the audit log)").fill("Abusive chat, report 7")
    page.get_by_role("button", name="Close account").click()
    expect(page.get_by_role("status")).to_contain_text("The account is closed")
    expect(facts.locator("dd").first).to_contain_text("closed on")
    expect(facts).to_contain_text("Abusive chat, report 7")
    expect(facts).to_contain_text("Live API tokens0")
    expect(page.get_by_role("button", name="Reopen account")).to_be_visible()
    wide = page_width(page)
    assert wide <= width, f"the account page is {wide} px wide at {width} px"
    assert_accessible(page)
    # Its token stopped at once, asked of the server itself (no child process to start
    # for it); the token of an account never closed still speaks for it.
    assert signed_in(server, scene["tokens"][who]) is False
    assert signed_in(server, scene["tokens"][PLAYERS[2]]) is True

    page.get_by_role("link", name="Audit log").click()
    expect(page.get_by_role("table")).to_contain_text(f"account: {who}; reason: Abusive chat, report 7")
