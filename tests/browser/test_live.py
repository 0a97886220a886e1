"""Live play in the browser: a refused action shows the server's reason, a
dropped socket reconnects with ?since= and catches up, a seat plays by keyboard
alone, and an absent opponent can be claimed against after the countdown."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .conftest import (
    ROW,
    Contexts,
    Server,
    create_on_page,
    log_count,
    my_turn,
    wait_ready,
    wait_version,
)


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=re.compile(f"^{re.escape(name)}"))


def started(server: Server) -> tuple[str, dict[str, str]]:
    """A match made through the API, both setups done: White to place, version 3."""
    made = server.call("POST", "/matches", {"seat": "white", "name": "Ada"})
    match_id = made["match"]["id"]
    joined = server.call("POST", f"/matches/{match_id}/join", {"name": "Bo"})
    tokens = {"white": made["token"], "black": joined["token"]}
    server.act(match_id, tokens["white"], {"type": "setup", "backrow": ROW})
    server.act(match_id, tokens["black"], {"type": "setup", "backrow": ROW})
    return match_id, tokens


def test_a_stale_action_from_a_second_tab_shows_the_servers_reason(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = started(server)
    first = contexts.page()
    first.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")  # the seat, handed over by link
    my_turn(first, 3)
    # A second tab of the same browser holds the same seat; its socket hears nothing for a while.
    second = first.context.new_page()
    deaf = {"on": False}

    def hold(ws: Any) -> None:
        upstream = ws.connect_to_server()
        upstream.on_message(lambda m: None if deaf["on"] else ws.send(m))
        ws.on_message(upstream.send)

    second.route_web_socket(re.compile(r"/ws"), hold)
    second.goto(f"/matches/{match_id}")
    my_turn(second, 3)
    deaf["on"] = True
    button(first, "Fey:").click()
    button(first, "Druid,").click()
    wait_version(first, 4)
    button(second, "Dragon:").click()
    button(second, "Dragon Lord,").click()
    expect(second.get_by_role("alert").filter(has_text="Refused")).to_have_text(
        "Refused: the match is at version 4; reload it and act on that")
    # The page looked again: it shows what landed, and offers nothing (Black is to move).
    wait_version(second, 4)
    expect(button(second, "Druid,")).to_have_accessible_name(re.compile("^Druid, floor 5, holds White's fey"))
    expect(second.locator("#turn")).to_be_hidden()
    assert server.match(match_id)["version"] == 4


def test_a_dropped_socket_reconnects_and_catches_up(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = started(server)
    routes: list[Any] = []
    urls: list[str] = []
    gate = {"open": True}

    def relay(ws: Any) -> None:
        urls.append(ws.url)
        if not gate["open"]:
            ws.close(code=1013, reason="try again later")
            return
        routes.append(ws)
        upstream = ws.connect_to_server()
        upstream.on_message(ws.send)
        ws.on_message(upstream.send)

    watcher = contexts.page()
    watcher.route_web_socket(re.compile(r"/ws"), relay)
    watcher.goto(f"/matches/{match_id}")
    wait_ready(watcher)
    expect(watcher.locator("#log li[data-version]")).to_have_count(3)
    server.act(match_id, tokens["white"], {"type": "place", "mage": "druid", "minion": "fey"})
    wait_version(watcher, 4)

    gate["open"] = False
    routes[0].close(code=1011, reason="line dropped")
    expect(watcher.locator("#banner")).to_have_text(re.compile("Connection lost"))
    server.act(match_id, tokens["black"], {"type": "place", "mage": "sorcerer", "minion": "beast"})
    server.act(match_id, tokens["white"], {"type": "pass"})
    server.act(match_id, tokens["black"], {"type": "pass"})
    gate["open"] = True

    wait_version(watcher, 7)
    expect(watcher.locator("#banner")).to_be_hidden()
    assert any("since=4" in u for u in urls[1:]), urls
    expect(watcher.locator("#log li[data-version]")).to_have_count(7)
    log = watcher.locator("#log").inner_text()
    assert "Black places a beast on the Sorcerer." in log and log.count("Black passes.") == 1
    expect(watcher.get_by_role("status")).to_contain_text("Action phase · White to move")


def tab_to(page: Any, name: str, presses: int = 250) -> None:
    """Presses Tab until the focused element's accessible name begins with `name`."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        focused = page.evaluate("""() => { const e = document.activeElement;
            return e ? (e.getAttribute('aria-label') || e.textContent || '').trim() : ''; }""")
        if focused.startswith(name):
            return
    raise AssertionError(f"no focusable element named {name!r}")


def test_keyboard_alone_sets_up_and_places_a_minion(contexts: Contexts) -> None:
    page = contexts.page()
    match_id = create_on_page(page, name="Kay", colour="white", opponent="bot:random")
    my_turn(page, 0)  # with a bot there is no join: White sets up at version 0
    # Setup by keyboard: into the arena, along rank 1, swap a1 and b1.
    tab_to(page, "a8,")
    for _ in range(7):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # a1 picked
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # b1: swapped
    expect(button(page, "a1,")).to_have_accessible_name(re.compile("^a1, White's fey"))
    tab_to(page, "Confirm setup")
    page.keyboard.press("Enter")
    my_turn(page, 2)  # the bot set up too
    tab_to(page, "Dragon:")
    page.keyboard.press("Enter")
    # Focus went to the first chamber on offer; Enter places the dragon there.
    focused = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert focused.endswith("can be chosen"), focused
    mage = focused.split(",")[0]
    page.keyboard.press("Enter")
    expect(page.locator("#log")).to_contain_text(f"White places a dragon on the {mage}.")
    assert contexts.server.match(match_id)["arena"]["a1"] == {"owner": "white", "minion": "fey"}


def test_an_absent_opponent_can_be_claimed_against_after_the_countdown(contexts: Contexts) -> None:
    ada = contexts.page()
    create_on_page(ada, name="Ada", colour="white", extra_options={"abandon_seconds": 10})
    bo = contexts.page()
    bo.goto(ada.get_by_label("Invite link").input_value())
    bo.get_by_role("button", name="Join").click()
    expect(ada.locator("#player-black .presence")).to_contain_text("connected")
    bo.context.close()
    expect(ada.locator("#player-black .presence")).to_contain_text("away")
    expect(ada.locator("#claim-note")).to_contain_text(re.compile(r"within \d+ s"))
    expect(button(ada, "Claim victory")).to_be_disabled()
    expect(button(ada, "Claim victory")).to_be_enabled()  # after a 10 s countdown
    button(ada, "Claim victory").click()
    expect(ada.locator("#result")).to_have_text("You won — Black left the match.")
    assert log_count(ada) >= 2
