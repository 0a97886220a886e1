"""The end of a match in the browser (issue 16): the end panel speaks to the
player, "Rematch" / "Accept rematch" / "Decline rematch" between two browsers
(both pages land on the new match with the colours swapped; both pressing at
once make one match), "New match"; a spectator sees "You are watching"; anyone
can flip the arena, in the replay too; the computer shows it is thinking."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from .conftest import ROW, Contexts, Server, assert_accessible, seat_token, wait_ready, wait_version


def finished(server: Server, **options: Any) -> tuple[str, dict[str, str]]:
    """Ada (White) against Bo (Black), both setups done, Black resigned."""
    made = server.call("POST", "/matches", {"seat": "white", "name": "Ada", "options": options})
    match_id = made["match"]["id"]
    joined = server.call("POST", f"/matches/{match_id}/join", {"name": "Bo"})
    tokens = {"white": made["token"], "black": joined["token"]}
    server.act(match_id, tokens["white"], {"type": "setup", "backrow": ROW})
    server.act(match_id, tokens["black"], {"type": "setup", "backrow": ROW})
    server.call("POST", f"/matches/{match_id}/resign", token=tokens["black"])
    return match_id, tokens


def seated(contexts: Contexts, match_id: str, colour: str, token: str, **kw: Any) -> Any:
    page = contexts.page(**kw)
    page.goto(f"/matches/{match_id}#seat={colour}.{token}")
    wait_ready(page)
    return page


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def landed_on_rematch(page: Any, old_id: str) -> str:
    page.wait_for_url(re.compile(r"/matches/(?!" + re.escape(old_id) + r"$)[A-Za-z0-9_-]+$"))
    wait_ready(page)
    return str(page.url.rsplit("/", 1)[1])


def test_rematch_offered_and_accepted_moves_both_pages_with_colours_swapped(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = finished(server)
    ada = seated(contexts, match_id, "white", tokens["white"], axe=True)
    bo = seated(contexts, match_id, "black", tokens["black"], axe=True)
    expect(ada.locator("#result")).to_have_text("You won — Black resigned.")
    expect(bo.locator("#result")).to_have_text("You lost — you resigned.")
    expect(button(bo, "Accept rematch")).to_be_hidden()
    expect(button(ada, "New match")).to_be_visible()

    button(ada, "Rematch").click()
    expect(ada.locator("#rematch-note")).to_have_text("You offered a rematch; waiting for the answer.")
    expect(button(bo, "Accept rematch")).to_be_visible()
    expect(button(bo, "Decline rematch")).to_be_visible()
    expect(button(bo, "Rematch")).to_be_hidden()
    expect(bo.locator(".toast", has_text="White offers a rematch.")).to_be_visible()
    assert_accessible(ada)
    assert_accessible(bo)

    button(bo, "Accept rematch").click()
    new_for_bo = landed_on_rematch(bo, match_id)
    new_for_ada = landed_on_rematch(ada, match_id)
    assert new_for_ada == new_for_bo
    assert seat_token(ada, new_for_ada)["seat"] == "black"
    assert seat_token(bo, new_for_bo)["seat"] == "white"
    state = server.match(new_for_ada)
    assert state["players"]["white"]["name"] == "Bo" and state["players"]["black"]["name"] == "Ada"
    assert state["rematch_of"] == match_id
    # Each page holds its own seat there: Bo (now White) is asked to set up.
    expect(bo.get_by_role("heading", name="Your setup")).to_be_visible()
    expect(ada.locator("#player-black .you")).to_be_visible()
    # Nobody's old token is in the other's browser.
    assert tokens["black"] not in json.dumps(ada.evaluate("() => ({...localStorage})"))


def test_rematch_declined(contexts: Contexts) -> None:
    match_id, tokens = finished(contexts.server)
    ada = seated(contexts, match_id, "white", tokens["white"])
    bo = seated(contexts, match_id, "black", tokens["black"])
    button(ada, "Rematch").click()
    button(bo, "Decline rematch").click()
    expect(ada.locator("#rematch-note")).to_have_text("Black declined the rematch.")
    expect(ada.locator(".toast", has_text="Black declined the rematch.")).to_be_visible()
    expect(button(ada, "Rematch")).to_be_hidden()
    expect(button(bo, "Accept rematch")).to_be_hidden()
    expect(button(bo, "Rematch")).to_be_visible()  # Bo may still change his mind
    assert contexts.server.match(match_id)["rematch"]["declined_by"] == "black"
    button(ada, "New match").click()  # to the home page's form instead
    ada.wait_for_url(re.compile(r"/#create$"))
    expect(ada.get_by_role("button", name="Create match")).to_be_visible()


def test_both_pressing_rematch_at_once_make_one_match(contexts: Contexts) -> None:
    match_id, tokens = finished(contexts.server)
    ada = seated(contexts, match_id, "white", tokens["white"])
    bo = seated(contexts, match_id, "black", tokens["black"])
    expect(button(ada, "Rematch")).to_be_visible()
    expect(button(bo, "Rematch")).to_be_visible()
    # A click dispatched in each page without waiting for either answer: both requests race.
    ada.evaluate("() => document.getElementById('rematch').click()")
    bo.evaluate("() => document.getElementById('rematch').click()")
    one, two = landed_on_rematch(ada, match_id), landed_on_rematch(bo, match_id)
    assert one == two == contexts.server.match(match_id)["rematch"]["match_id"]
    assert seat_token(ada, one)["seat"] == "black" and seat_token(bo, two)["seat"] == "white"


def test_the_offerer_moves_when_the_made_rematch_comes_before_its_own_answer(contexts: Contexts) -> None:
    """The order that lost a page in CI: Ada's offer lands, Bo accepts, and the
    socket tells Ada the rematch is made before the answer to her offer (with
    her token there) reaches her page."""
    match_id, tokens = finished(contexts.server)
    ada = seated(contexts, match_id, "white", tokens["white"])
    bo = seated(contexts, match_id, "black", tokens["black"])
    held: list[tuple[Any, Any]] = []

    def hold_answer(route: Any) -> None:
        held.append((route, route.fetch()))  # the server has the offer; the page waits

    ada.route(re.compile(r"/api/v1/matches/[^/]+/rematch$"), hold_answer)
    button(ada, "Rematch").click()
    button(bo, "Accept rematch").click()  # shown once Bo's socket hears the offer
    new_for_bo = landed_on_rematch(bo, match_id)
    expect(ada.locator("#rematch-note")).to_have_text("The rematch is ready: taking you there…")
    assert len(held) == 1 and ada.url.endswith(f"/matches/{match_id}")
    route, answer = held[0]
    route.fulfill(response=answer)
    assert landed_on_rematch(ada, match_id) == new_for_bo
    assert seat_token(ada, new_for_bo)["seat"] == "black"


def test_a_spectator_watches_flips_and_is_shown_the_rematch(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = finished(server)
    watcher = contexts.page()
    watcher.goto(f"/matches/{match_id}")
    wait_ready(watcher)
    expect(watcher.get_by_text("You are watching")).to_be_visible()
    expect(button(watcher, "Rematch")).to_be_hidden()
    first_square = watcher.locator(".arena .sq").first
    expect(first_square).to_have_attribute("data-square", "a8")
    button(watcher, "Flip board").click()
    expect(first_square).to_have_attribute("data-square", "h1")
    expect(button(watcher, "Flip board")).to_have_attribute("aria-pressed", "true")
    # In the replay of an older version the flip holds.
    watcher.get_by_role("button", name="First move").click()
    expect(watcher.locator(".arena .sq").first).to_have_attribute("data-square", "h1")
    button(watcher, "Flip board").click()
    expect(watcher.locator(".arena .sq").first).to_have_attribute("data-square", "a8")

    server.call("POST", f"/matches/{match_id}/rematch", token=tokens["white"])
    made = server.call("POST", f"/matches/{match_id}/rematch", token=tokens["black"])["rematch"]["match_id"]
    link = watcher.get_by_role("link", name="Watch the rematch")
    expect(link).to_have_attribute("href", f"/matches/{made}")


def test_a_player_flips_the_arena_and_is_not_told_they_watch(contexts: Contexts) -> None:
    match_id, tokens = finished(contexts.server)
    bo = seated(contexts, match_id, "black", tokens["black"])
    expect(bo.get_by_text("You are watching")).to_be_hidden()
    expect(bo.locator(".arena .sq").first).to_have_attribute("data-square", "h1")
    button(bo, "Flip board").click()
    expect(bo.locator(".arena .sq").first).to_have_attribute("data-square", "a8")


def test_the_computer_shows_it_is_thinking_and_its_rematch_is_at_once(contexts: Contexts) -> None:
    server = contexts.server
    made = server.call("POST", "/matches", {"seat": "white", "name": "Ada", "opponent": "bot:random"})
    match_id, token = made["match"]["id"], made["token"]
    page = contexts.page()
    # The bot's own updates never reach this page, full or compact (the page asks
    # for deltas): it stays at the moment the bot is to act, however quickly the bot answers.
    def hold(ws: Any) -> None:
        upstream = ws.connect_to_server()

        def down(message: Any) -> None:
            data = json.loads(message) if isinstance(message, str) else {}
            if data.get("type") in ("update", "delta") and data.get("player") == "black":
                return
            ws.send(message)

        upstream.on_message(down)
        ws.on_message(upstream.send)

    page.route_web_socket(re.compile(r"/ws"), hold)
    page.goto(f"/matches/{match_id}#seat=white.{token}")
    wait_ready(page)
    expect(page.get_by_text("The computer is thinking…")).to_be_hidden()
    server.act(match_id, token, {"type": "setup", "backrow": ROW})
    wait_version(page, 1)
    expect(page.get_by_text("The computer is thinking…")).to_be_visible()

    server.call("POST", f"/matches/{match_id}/resign", token=token)
    button(page, "Rematch").click()
    new_id = landed_on_rematch(page, match_id)
    assert seat_token(page, new_id)["seat"] == "black"
    assert server.match(new_id)["players"]["white"]["bot"] == "random"
