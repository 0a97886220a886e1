"""Issue 16, defect 1: the friend who opens the invite link and joins gets the
seat's controls whichever arrives first, the join's answer or the socket's
update for version 1; and the creator gets theirs, as White or as Black. An
action's answer and its update are tried in both orders too."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Contexts, create_on_page, my_turn, until_on, wait_ready, wait_version
from .scenes import set_up


def confirm(page: Any) -> Any:
    return page.get_by_role("button", name="Confirm setup")


class HeldSocket:
    """Relays a page's websockets, holding what the server sends while `held`."""

    def __init__(self, page: Any) -> None:
        self.held = False
        self.queue: list[tuple[Any, str | bytes]] = []
        page.route_web_socket(re.compile(r"/ws"), self.relay)

    def relay(self, ws: Any) -> None:
        upstream = ws.connect_to_server()
        upstream.on_message(lambda m: self.queue.append((ws, m)) if self.held else ws.send(m))
        ws.on_message(upstream.send)

    def release(self) -> None:
        self.held = False
        for ws, message in self.queue:
            with contextlib.suppress(Exception):  # the page closed that socket meanwhile (it joined)
                ws.send(message)
        self.queue.clear()


@pytest.mark.parametrize("first", ["socket", "answer"])
@pytest.mark.parametrize("creator", ["black", "white"])
def test_the_invited_friend_and_the_creator_get_their_setup_whatever_arrives_first(
        contexts: Contexts, creator: str, first: str) -> None:
    host = contexts.page()
    match_id = create_on_page(host, name="Ada", colour=creator)
    friend = contexts.page()
    held_answers: list[tuple[Any, Any]] = []
    socket = HeldSocket(friend)
    if first == "socket":
        # The join reaches the server at once, but its answer waits until the
        # friend's page has heard version 1 on its (still a spectator's) socket.
        friend.route("**/join", lambda route: held_answers.append((route, route.fetch())))
    friend.goto(f"/matches/{match_id}")  # the invite link
    wait_ready(friend)
    friend.get_by_label("Your name").fill("Bo")
    if first == "answer":
        socket.held = True
    friend.get_by_role("button", name="Join").click()
    if first == "socket":
        wait_version(friend, 1)
        friend.wait_for_function("() => !('seat' in document.documentElement.dataset)")  # the answer has not come
        until_on(friend, lambda: held_answers, "the route's handler to have the answer in hand")
        route, answer = held_answers[0]
        route.fulfill(response=answer)
    else:
        friend.wait_for_function(
            "() => { const m = document.documentElement.dataset; return 'seat' in m && m.version === '1'; }")
        socket.release()

    white, black = (host, friend) if creator == "white" else (friend, host)
    for page in (white, black):
        expect(page.get_by_role("status")).to_have_text(
            "Setup · White to move: your turn." if page is white else "Setup · White to move.")
    expect(confirm(white)).to_be_visible()
    expect(black.locator("#turn")).to_be_hidden()
    confirm(white).click()
    expect(confirm(black)).to_be_visible()
    expect(white.locator("#turn")).to_be_hidden()
    confirm(black).click()
    for page in (white, black):
        wait_version(page, 3)
    expect(white.get_by_role("status")).to_have_text(re.compile(r"Decision phase · White to move: your turn"))
    expect(white.locator("#turn")).to_be_visible()

    # A spectator opening the same link once both sit: no seat, no controls, no join.
    watcher = contexts.page()
    watcher.goto(f"/matches/{match_id}")
    wait_ready(watcher)
    expect(watcher.get_by_role("status")).to_have_text(re.compile(r"^Round 1 · Decision phase · White to move\.$"))
    expect(watcher.locator("#turn")).to_be_hidden()
    expect(watcher.locator("#join-box")).to_be_hidden()


@pytest.mark.parametrize("first", ["socket", "answer"])
def test_an_action_whose_answer_and_update_come_in_either_order(contexts: Contexts, first: str) -> None:
    """White places again after Black passed: whichever comes first, the action's answer
    or its update, the page offers White's next placement, marks the last action and
    logs it once."""
    server = contexts.server
    match_id, tokens = set_up(server)
    server.act(match_id, tokens["white"], {"type": "place", "mage": "druid", "minion": "fey"})
    server.act(match_id, tokens["black"], {"type": "pass"})  # White is to move again, at version 5
    page = contexts.page()
    socket = HeldSocket(page)
    held_answers: list[tuple[Any, Any]] = []
    if first == "socket":
        page.route("**/actions", lambda route: held_answers.append((route, route.fetch())))
    page.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
    my_turn(page, 5)
    if first == "answer":
        socket.held = True
    page.get_by_role("button", name=re.compile("^Dragon:")).click()
    page.get_by_role("button", name=re.compile("^Dragon Lord,")).click()
    if first == "socket":
        wait_version(page, 6)  # from the socket: the answer is still held
        until_on(page, lambda: held_answers, "the route's handler to have the answer in hand")
        route, answer = held_answers[0]
        route.fulfill(response=answer)
    else:
        wait_version(page, 6)  # from the answer: the socket is still held
        socket.release()
    my_turn(page, 6)
    expect(page.locator("#turn")).to_be_visible()
    expect(page.locator(".chamber-row.last")).to_contain_text("Dragon Lord")
    expect(page.locator("#log li[data-version='6']")).to_have_count(1)
    expect(page.locator("#log")).to_contain_text("White places a dragon on the Dragon Lord.")
