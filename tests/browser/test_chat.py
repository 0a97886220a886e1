"""The match chat in real Chromium (issue 20), on a phone and a desk: a line
reaches the opponent live and shows markup as text, a guest writes with the
stock phrases only, a spectator's line stays with the spectators, a fifth line
within 10 s is refused on the page with its reason, and the chat can be
turned off."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Contexts, Server, open_more_options, run_server, wait_ready
from .test_accounts import sign_up


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own whose flood window is an hour: the fifth line is
    refused however slowly the machine runs the test."""
    folder: Path = tmp_path_factory.mktemp("chat-server")
    with run_server(folder, CHAT_FLOOD_SECONDS="3600") as running:
        yield running


MARKUP = '<img src=x onerror="document.title=1"><b>bold</b>'


def chat_log(page: Any) -> Any:
    return page.get_by_role("log", name="Chat")


def send(page: Any, text: str) -> None:
    page.get_by_label("Chat message").fill(text)
    page.get_by_role("button", name="Send", exact=True).click()


@pytest.mark.parametrize("width", [390, 1280])
def test_players_and_spectators_chat_apart_live(contexts: Contexts, width: int) -> None:
    ada = contexts.page(width=width)
    name = f"Ada{width}"
    ada.goto("/signup")
    sign_up(ada, name)
    ada.wait_for_url(re.compile(r"/$|/account"))
    ada.goto("/")
    expect(ada.get_by_text(f"You play as {name}.")).to_be_visible()
    open_more_options(ada)
    ada.get_by_label("Colour").select_option("white")
    ada.get_by_role("button", name="Create match").click()
    ada.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+$"))
    wait_ready(ada)
    match_id = ada.url.rsplit("/", 1)[1]
    bo = contexts.page(width=width)  # a guest, who joins
    bo.goto(f"/matches/{match_id}")
    wait_ready(bo)
    bo.get_by_label("Your name").fill("Bo")
    bo.get_by_role("button", name="Join").click()
    expect(bo.get_by_role("heading", name="Chat with your opponent")).to_be_visible()
    # A guest writes with the stock phrases: buttons, no box for words of one's own.
    expect(bo.get_by_label("Chat message")).to_be_hidden()
    expect(bo.get_by_text("Guests write with these phrases")).to_be_visible()
    phrases = bo.get_by_role("group", name="Stock phrases")
    # The account's line reaches the guest live, markup shown as text.
    send(ada, MARKUP)
    expect(chat_log(bo)).to_contain_text(MARKUP)
    assert bo.locator("#chat-lines img, #chat-lines b").count() == 0
    assert bo.title() != "1"
    phrases.get_by_role("button", name="Good luck").click()
    expect(chat_log(ada)).to_contain_text("Bo: Good luck")
    # A spectator's line stays with the spectators.
    cy = contexts.page(width=width)
    cy.goto(f"/matches/{match_id}")
    wait_ready(cy)
    expect(cy.get_by_role("heading", name="Spectators' chat")).to_be_visible()
    expect(chat_log(cy)).not_to_contain_text("Good luck")  # the players' lines are not theirs to read
    hello = "Hello" if width == 390 else "Have fun"  # spectators from one address are one writer
    cy.get_by_role("group", name="Stock phrases").get_by_role("button", name=hello).click()
    expect(chat_log(cy)).to_contain_text(f"Guest: {hello}")
    send(ada, "still here")  # a line after the spectator's: when it shows, the spectator's would have too
    expect(chat_log(bo)).to_contain_text("still here")
    expect(chat_log(bo)).not_to_contain_text(hello)
    expect(chat_log(ada)).not_to_contain_text(hello)
    # A repeat, then a flood (a fifth line within the window), refused with the reason on the page.
    send(ada, "still here")
    expect(ada.get_by_role("alert").filter(has_text="you said that just now")).to_be_visible()
    for line in ("line 3", "line 4"):  # with the two before: four lines within the window
        send(ada, line)
        expect(chat_log(ada)).to_contain_text(line)
    send(ada, "one too many")
    expect(ada.get_by_role("alert").filter(has_text="at most 4 lines in 3600 seconds")).to_be_visible()
    expect(chat_log(bo)).not_to_contain_text("one too many")
    # The chat turned off stays off on this browser.
    bo.get_by_role("button", name="Turn chat off").click()
    expect(chat_log(bo)).to_be_hidden()
    bo.reload()
    wait_ready(bo)
    expect(bo.get_by_role("button", name="Turn chat on")).to_be_visible()
    expect(chat_log(bo)).to_be_hidden()


def test_a_report_asks_why_and_is_undone(contexts: Contexts) -> None:
    """Report opens a choice of why; the report sent carries it; Undo withdraws it."""
    made = contexts.server.call("POST", "/matches", {"seat": "white", "name": "Ada"})
    match_id = made["match"]["id"]
    joined = contexts.server.call("POST", f"/matches/{match_id}/join", {"name": "Bo"})
    contexts.server.call("POST", f"/matches/{match_id}/chat", {"text": "Good luck"},
                         token=joined["token"])
    ada = contexts.page(width=390, height=844, is_mobile=True, has_touch=True)
    ada.goto(f"/matches/{match_id}#seat=white.{made['token']}")
    wait_ready(ada)
    expect(chat_log(ada)).to_contain_text("Good luck")
    ada.get_by_role("button", name="Report Bo's line").click()
    why = ada.get_by_role("group", name="Why report Bo's line?")
    why.get_by_label("Reason").select_option("spam")
    with ada.expect_request(lambda r: r.url.endswith("/report") and r.method == "POST") as sent:
        why.get_by_role("button", name="Send report").click()
    assert sent.value.post_data_json == {"reason": "spam"}
    expect(chat_log(ada)).to_contain_text("Reported")
    with ada.expect_response(lambda r: r.url.endswith("/report") and r.request.method == "DELETE") as undone:
        ada.get_by_role("button", name="Undo the report of Bo's line").click()
    assert undone.value.status == 200
    expect(ada.get_by_role("button", name="Report Bo's line")).to_be_visible()
    expect(ada.locator("#chat-refusal")).to_be_empty()
