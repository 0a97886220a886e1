"""The match on one screen: at the start of each of your turns
(setup, decision, action) the arena, the whole tower, your reserve, both clocks
and the turn panel stand in the window together, with no scrolling, on a
1366×768 desktop and on 390×844 and 360×780 phones (touch): for the creator and
for the friend who joins by the invite link, as White and as Black, and for a
spectator. The invite's Join is in the first screen and does not read as
watching. The page does not shift as it loads and updates: the layout shifts a
PerformanceObserver sees add up to at most 0.1 (Lighthouse's bar for "good")."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Contexts, my_turn, seat_token, wait_ready

SIZES = [(1366, 768, False), (390, 844, True), (360, 780, True)]

# Every layout shift the page makes by itself (not in answer to a press), added up.
WATCH_SHIFTS = """
window.__shifts = 0;
window.__moved = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.hadRecentInput) continue;
    window.__shifts += e.value;
    const rect = (r) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
    const what = (e.sources || []).map((s) => `${s.node ? (s.node.id || s.node.className || s.node.nodeName) : "?"}`
      + ` ${rect(s.previousRect)} → ${rect(s.currentRect)}`);
    window.__moved.push(`${e.value.toFixed(3)} at ${Math.round(e.startTime)} ms: ${what.join(", ")}`);
  }
}).observe({type: "layout-shift", buffered: true});
"""

PLAY = [".arena", ".tower", "#turn", ".pool.mine .reserve", "#player-white .clock", "#player-black .clock"]
WATCH = [".arena", ".tower", "#player-white", "#player-black"]

OUT_OF_VIEW = """(selectors) => {
  const out = [];
  if (scrollX || scrollY) out.push(`scrolled to ${scrollX}, ${scrollY}`);
  for (const q of selectors) {
    const e = document.querySelector(q);
    if (!e || !e.getClientRects().length) { out.push(`${q} is not shown`); continue; }
    const r = e.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
      out.push(`${q} at ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`);
  }
  return out;
}"""


def in_one_screen(page: Any, selectors: list[str]) -> None:
    page.wait_for_load_state("load")
    outside = page.evaluate(OUT_OF_VIEW, selectors)
    assert not outside, f"{page.viewport_size}: {outside}"


def shifts(page: Any) -> float:
    return float(page.evaluate("() => window.__shifts"))


def no_shift(page: Any) -> None:
    """The layout shifts add up to at most 0.1; if not, which elements moved, and when."""
    moved = "\n".join(page.evaluate("() => window.__moved"))
    assert shifts(page) <= 0.1, f"{page.url} {page.viewport_size}: {shifts(page)}:\n{moved}"


def open_page(contexts: Contexts, size: tuple[int, int, bool], path: str) -> Any:
    width, height, touch = size
    page = contexts.page(width=width, height=height, has_touch=touch, is_mobile=touch)
    page.context.add_init_script(WATCH_SHIFTS)
    page.goto(path)
    wait_ready(page)
    return page


@pytest.mark.parametrize("creator", ["white", "black"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_turn_starts_in_one_screen(contexts: Contexts, size: tuple[int, int, bool], creator: str) -> None:
    server = contexts.server
    clock = {"type": "realtime", "minutes": 10, "increment": 5}
    made = server.call("POST", "/matches", {"seat": creator, "name": "Ada", "options": {"time_control": clock}})
    match_id = made["match"]["id"]
    host = open_page(contexts, size, f"/matches/{match_id}#seat={creator}.{made['token']}")

    # The friend opens the link: who invites, which colour, casual, and Join, all in view.
    friend = open_page(contexts, size, f"/matches/{match_id}")
    other = "black" if creator == "white" else "white"
    join = friend.get_by_role("button", name=f"Join as {other.capitalize()}")
    expect(friend.get_by_role("heading", name="Ada invites you to play")).to_be_visible()
    expect(friend.locator("#join-box")).to_contain_text(f"You play {other.capitalize()} · Casual")
    expect(friend.get_by_text("You are watching")).to_be_hidden()
    in_one_screen(friend, ["#join", "#join-name"])
    friend.get_by_label("Your name").fill("Bo")
    join.click()
    friend.wait_for_function("() => 'seat' in document.documentElement.dataset")
    token = {creator: made["token"], other: seat_token(friend, match_id)["token"]}
    pages = {creator: host, other: friend}

    watcher = open_page(contexts, size, f"/matches/{match_id}")
    expect(watcher.get_by_text("You are watching")).to_be_visible()
    in_one_screen(watcher, WATCH)

    # The setups, each confirmed on its page.
    for version, colour in [(1, "white"), (2, "black")]:
        my_turn(pages[colour], version)
        in_one_screen(pages[colour], PLAY)
        pages[colour].get_by_role("button", name="Confirm setup").click()
    # The decision phase: each places once, then both pass into the action phase.
    my_turn(pages["white"], 3)
    in_one_screen(pages["white"], PLAY)
    server.act(match_id, token["white"], {"type": "place", "mage": "druid", "minion": "fey"})
    my_turn(pages["black"], 4)
    in_one_screen(pages["black"], PLAY)
    server.act(match_id, token["black"], {"type": "place", "mage": "sorcerer", "minion": "beast"})
    state = server.match(match_id)
    while state["phase"] == "decision":
        state = server.act(match_id, token[state["to_move"]], {"type": "pass"})
    # The action phase: each side's first turn in it.
    for _ in range(2):
        mover = state["to_move"]
        my_turn(pages[mover], state["version"])
        in_one_screen(pages[mover], PLAY)
        legal = server.legal(match_id, token[mover])
        state = server.act(match_id, token[mover], legal["actions"][0])
    in_one_screen(watcher, WATCH)
    for page in (host, friend, watcher):
        page.evaluate("name => { window.__moved.unshift(name) }", ["host", "friend", "watcher"][[host, friend, watcher].index(page)])
    for page in (host, friend, watcher):
        no_shift(page)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_end_shows_the_result_and_rematch_in_the_first_screen(contexts: Contexts,
                                                                 size: tuple[int, int, bool]) -> None:
    server = contexts.server
    made = server.call("POST", "/matches", {"seat": "white", "name": "Ada"})
    match_id = made["match"]["id"]
    joined = server.call("POST", f"/matches/{match_id}/join", {"name": "Bo"})
    page = open_page(contexts, size, f"/matches/{match_id}#seat=white.{made['token']}")
    my_turn(page, 1)
    server.call("POST", f"/matches/{match_id}/resign", token=joined["token"])
    expect(page.locator("#result")).to_have_text("You won — Black resigned.")
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()
    in_one_screen(page, ["#result", "#rematch", "#new-match"])
    no_shift(page)
