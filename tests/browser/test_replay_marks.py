"""Issue 16, defects 4, 5 and 8: the last action is marked on a page opened
fresh (a reload, a finished match); the replay's log follows the version shown,
however far back; and the words of the prompts, the result and the replay."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .conftest import Contexts, Server, move_versions, my_turn, wait_ready, wait_version
from .scenes import play_on, set_up, to_action_phase


def a_move(server: Server) -> tuple[str, dict[str, str], dict[str, Any]]:
    """The action phase's first removal, one that moves a minion: (match, tokens, action)."""
    match_id, tokens, mover = to_action_phase(server)
    legal = server.legal(match_id, tokens[mover])["actions"]
    action = next(a for a in legal if isinstance(a.get("power"), dict) and "move" in a["power"])
    server.act(match_id, tokens[mover], action)
    return match_id, tokens, action


def test_the_last_action_is_marked_on_a_page_opened_after_it(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens, action = a_move(server)
    version = server.match(match_id)["version"]
    frm, to = action["power"]["move"]
    seat = contexts.page()
    seat.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")  # a reload, as far as the page knows
    watcher = contexts.page()
    watcher.goto(f"/matches/{match_id}")
    for page in (seat, watcher):
        wait_version(page, version)
        expect(page.locator(f'.sq[data-square="{frm}"]')).to_have_class(re.compile(r"\blast-from\b"))
        expect(page.locator(f'.sq[data-square="{to}"]')).to_have_class(re.compile(r"\blast-to\b"))
        expect(page.locator(".chamber-row.last")).to_have_count(1)
        expect(page.locator(".chamber-row.last")).to_contain_text(re.compile(action["mage"].replace("_", " "), re.I))


def test_a_finished_match_opened_fresh_marks_its_last_action(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = set_up(server, options={"no_progress_rounds": 1})
    state = play_on(server, match_id, tokens, until=10_000)
    assert state["status"] == "finished", state
    last = server.call("GET", f"/matches/{match_id}/states?from={state['version']}&to={state['version']}")
    action = last["states"][-1]["action"]
    assert action.get("mage"), action  # the no-progress rule ends the round on a removal
    page = contexts.page()
    page.goto(f"/matches/{match_id}")
    wait_ready(page)
    # The action's own chamber (a power aimed at another chamber marks that one too).
    expect(page.locator(f'.chamber-row.last[data-mage="{action["mage"]}"]')).to_have_count(1)


def test_the_replay_log_follows_the_version_shown(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = set_up(server, options={"no_progress_rounds": 0})
    state = play_on(server, match_id, tokens, until=90)
    if state["status"] == "active":
        state = dict(server.call("POST", f"/matches/{match_id}/resign", token=tokens[state["to_move"]])["match"])
    latest = state["version"]
    assert latest > 80, latest
    page = contexts.page()
    page.goto(f"/matches/{match_id}")
    wait_ready(page)
    moves = move_versions(server, match_id)
    total = len(moves)
    expect(page.locator("#position")).to_have_text(f"Move {total} of {total}")
    page.get_by_role("button", name="First move").click()
    expect(page.locator("#position")).to_have_text(f"Move 1 of {total} (replay)")
    current = page.locator("#log li.current")
    expect(current).to_have_attribute("data-version", str(moves[0]))
    expect(current).to_be_in_viewport()
    entry = current.get_by_role("button")
    expect(entry).to_have_accessible_name("Move 1")
    expect(entry).to_have_accessible_description(re.compile("^Setup: White sets up their backrow"))
    for _ in range(5):
        page.get_by_role("button", name="Next move").click()
    expect(page.locator("#position")).to_have_text(f"Move 6 of {total} (replay)")
    expect(current).to_have_attribute("data-version", str(moves[5]))
    expect(current).to_be_in_viewport()
    expect(page.locator("#log li[data-version]")).to_have_count(latest)  # each entry once
    # A finished match has no live position to go back to.
    expect(page.get_by_role("button", name="Back to the final position")).to_be_visible()


def test_the_words_of_a_draw_agreed_and_of_a_power_to_use(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = set_up(server)
    page = contexts.page()
    page.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
    my_turn(page, 3)
    expect(page.get_by_role("button", name="Back to the live position")).to_be_hidden()
    server.call("POST", f"/matches/{match_id}/draw", {"offer": True}, token=tokens["black"])
    server.call("POST", f"/matches/{match_id}/draw", {"offer": True}, token=tokens["white"])
    expect(page.get_by_role("status")).to_have_text("Match over. A draw: both players agreed.")
    prompt = page.evaluate("""async () => {
      const { choose, prompt } = await import('/static/js/chooser.js');
      const legal = [{type: 'remove', mage: 'oracle', power: {}}, {type: 'remove', mage: 'oracle', power: null}];
      const picks = [{kind: 'chamber', value: 'oracle'}];
      return prompt(choose(legal, picks).options, picks);
    }""")
    assert prompt == "Use the power, or remove the minion without it."
