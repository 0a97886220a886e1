"""Issue 16, defect 9: keyboard focus stays where the next choice is, after
"Confirm setup", after each choice and after each action (it fell to the page's
body, and one action took 87 key presses). Presses are counted."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .conftest import ROW, Contexts, create_on_page, my_turn, sent_or_still_choosing, wait_version


def focused(page: Any) -> str:
    return str(page.evaluate("""() => { const e = document.activeElement;
        if (!e || e === document.body) return '(the page)';
        return (e.getAttribute('aria-label') || e.textContent || '').trim(); }"""))


def on_a_choice(page: Any) -> bool:
    """Focus is on a square, chamber or type on offer, or on a button of the turn panel."""
    return bool(page.evaluate("""() => { const e = document.activeElement;
        return Boolean(e && ((e.getAttribute('aria-label') || '').endsWith('can be chosen')
                              || (e.closest('#choices') && e.tagName === 'BUTTON'))); }"""))


def test_focus_follows_the_next_choice_through_setup_a_placement_and_an_action(contexts: Contexts) -> None:
    server = contexts.server
    page = contexts.page()
    match_id = create_on_page(page, name="Kay", colour="white")
    black = server.call("POST", f"/matches/{match_id}/join", {"name": "Bo"})["token"]
    my_turn(page, 1)
    # The setup: focus is on "Confirm setup" already; one press sets up.
    page.wait_for_function("() => document.activeElement && document.activeElement.textContent === 'Confirm setup'")
    page.keyboard.press("Enter")
    wait_version(page, 2)
    # Not our turn: focus waits on the arena (not the page's body), ready for the arrows.
    page.wait_for_function("() => document.activeElement && document.activeElement.classList.contains('sq')")
    server.act(match_id, black, {"type": "setup", "backrow": ROW})

    # A placement: focus lands on the first choice; two presses place a minion.
    my_turn(page, 3)
    page.wait_for_function("() => (document.activeElement.getAttribute('aria-label') || '').endsWith('can be chosen')")
    presses = 0
    while server.match(match_id)["version"] == 3:
        assert on_a_choice(page), focused(page)
        page.keyboard.press("Enter")
        presses += 1
        assert presses <= 3, f"{presses} presses and still placing; focus on {focused(page)!r}"
        sent_or_still_choosing(page, 3)
    assert presses == 2

    # Black places; White passes; Black passes: the action phase.
    server.act(match_id, black, {"type": "place", "mage": "sorcerer", "minion": "beast"})
    state = server.match(match_id)
    white = dict(page.evaluate(f"() => JSON.parse(localStorage.getItem('magery.seat.{match_id}'))"))["token"]
    tokens = {"white": white, "black": black}
    while state["phase"] == "decision":
        state = server.act(match_id, tokens[state["to_move"]], {"type": "pass"})
    while state["to_move"] != "white":  # Black acts first: a removal without its power
        state = server.act(match_id, black, {"type": "remove", "mage": "sorcerer", "power": None})
    version = state["version"]
    my_turn(page, version)
    page.wait_for_function("() => (document.activeElement.getAttribute('aria-label') || '').endsWith('can be chosen')")
    presses = 0
    while server.match(match_id)["version"] == version:
        assert on_a_choice(page), focused(page)
        page.keyboard.press("Enter")
        presses += 1
        assert presses <= 5, f"{presses} presses and still acting; focus on {focused(page)!r}"
        sent_or_still_choosing(page, version)
    assert presses <= 4, presses
    expect(page.locator("#log")).to_contain_text("White removes")
