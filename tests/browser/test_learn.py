"""Issue 16: a newcomer learns Magery on the site and plays a first match.

The Learn page shows every minion type and every mage in the engine's words
(compared here with app.rules' own data), a type's moves on an empty arena when
it is chosen, the rulings a refusal links to; the guided first match writes a
sentence that changes with the step; every chamber and minion explains itself
on hover, focus and long press; the words the match page shows are the engine's.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from app.rules import IllegalAction, apply
from app.rules.mages import MAGES
from app.rules.minions import TYPES
from app.rules.powers import POWERS
from app.rules.vocabulary import MOVES, RULINGS, moves_from, vocabulary
from tests.rules.helpers import position

from .conftest import ROW, Contexts, Server, assert_accessible, my_turn, wait_ready


def test_the_learn_page_is_the_engines_data(contexts: Contexts) -> None:
    page = contexts.page(axe=True)
    page.goto("/")
    page.get_by_role("link", name="Learn", exact=True).first.click()
    page.wait_for_url(re.compile(r"/learn$"))
    wait_ready(page)
    expect(page.get_by_role("heading", name="Learn Magery", level=1)).to_be_visible()
    for heading in ("How to win", "The round", "The backrow and summoning", "The minions", "The mages", "Variants"):
        expect(page.get_by_role("heading", name=heading, level=2)).to_be_visible()
    v = vocabulary()
    # Every minion type, with the engine's words for its moves and its diagram of them.
    for kind, name in enumerate(TYPES):
        card = page.locator(f"#minion-{name}")
        expect(card.get_by_role("heading", level=3)).to_contain_text(name.capitalize())
        expect(card.locator(".moves")).to_have_text(f"It {MOVES[kind]}.")
        expect(card.get_by_role("img")).to_have_attribute("aria-label", re.compile(", ".join(moves_from(kind)) + "$"))
        assert card.locator(".mini-arena span.to").count() == len(moves_from(kind))
    # Every mage, with the engine's MagePower words and an example the engine told.
    for record in POWERS:
        card = page.locator(f"#mage-{MAGES[record.mage]}")
        expect(card.locator(".power")).to_have_text(record.words)
        expect(card.locator(".example")).to_have_text(f"For example: {v['mages'][MAGES[record.mage]]['example']}")
    assert page.locator(".mage-card").count() == len(MAGES)
    for variant in v["variants"].values():
        expect(page.locator(".variant-list")).to_contain_text(variant["rules"])
    for rule, words in RULINGS.items():
        expect(page.locator(f"#{rule.lower()} dd")).to_have_text(words)
    assert_accessible(page)


def test_choosing_a_type_shows_its_moves_on_an_empty_arena(contexts: Contexts) -> None:
    page = contexts.page()
    page.goto("/learn")
    wait_ready(page)
    arena = page.get_by_role("group", name="Empty arena")
    expect(arena.locator(".sq.to")).to_have_count(0)
    page.get_by_role("button", name="Fey", exact=True).click()
    expect(page.get_by_role("button", name="Fey", exact=True)).to_have_attribute("aria-pressed", "true")
    targets = sorted(arena.locator(".sq.to").evaluate_all("els => els.map(e => e.dataset.square)"))
    assert targets == moves_from(TYPES.index("fey"))
    expect(page.get_by_role("status")).to_contain_text("Fey on d4: 8 squares")
    # Stand a dragon on d1, its own backrow: it may not reach rank 8 (R4), as the engine says.
    page.get_by_role("button", name="Dragon", exact=True).click()
    arena.get_by_role("button", name=re.compile("^d1")).click()
    targets = sorted(arena.locator(".sq.to").evaluate_all("els => els.map(e => e.dataset.square)"))
    assert targets == moves_from(TYPES.index("dragon"), 3) and "d8" not in targets
    expect(arena.get_by_role("button", name="d1, White's dragon")).to_be_visible()


def _guided(contexts: Contexts, start: str) -> Any:
    page = contexts.page()
    page.goto(start)
    page.locator(".guided-start[data-ready]").first.wait_for()
    page.get_by_role("button", name="Play a guided first match").first.click()
    page.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+$"))
    wait_ready(page)
    return page


def test_the_guided_first_match_says_what_to_do_at_each_step(contexts: Contexts) -> None:
    page = _guided(contexts, "/learn")
    guide = page.get_by_role("region", name="Guide")
    expect(guide).to_contain_text("You play White against the computer")
    step = page.locator("#guide-step")
    expect(step).to_have_attribute("data-step", "setup")
    expect(step).to_contain_text("Set up your backrow")
    page.get_by_role("button", name="Confirm setup").click()
    # The computer sets up; then the decision phase's sentence, which changes as the player picks.
    expect(step).to_have_attribute("data-step", "decision")
    expect(step).to_contain_text("place a minion from your reserve on a free chamber")
    expect(step).to_contain_text("that mage's power fires")
    # The sentence follows the state; a click counts once the seat's legal actions are in.
    page.wait_for_function("() => { const m = document.documentElement.dataset; return m.legalVersion === m.version; }")
    page.get_by_role("button", name=re.compile("^Oracle,")).click()
    expect(step).to_have_attribute("data-step", "decision-chamber")
    expect(step).to_contain_text(vocabulary()["mages"]["oracle"]["power"])
    page.get_by_role("button", name="Cancel").click()
    expect(step).to_have_attribute("data-step", "decision")
    # Hidden at the player's word, and for good on this match.
    page.get_by_role("button", name="Hide the guide").click()
    expect(page.get_by_role("region", name="Guide")).to_have_count(0)
    page.reload()
    wait_ready(page)
    expect(page.locator("#guide-step")).to_have_count(0)


def test_the_home_page_starts_a_guided_match_too(contexts: Contexts) -> None:
    page = _guided(contexts, "/")
    expect(page.locator("#guide-step")).to_have_attribute("data-step", "setup")


def _started(server: Server) -> tuple[str, dict[str, str]]:
    made = server.call("POST", "/matches", {"seat": "white", "name": "Ada"})
    match_id = made["match"]["id"]
    joined = server.call("POST", f"/matches/{match_id}/join", {"name": "Bo"})
    tokens = {"white": made["token"], "black": joined["token"]}
    server.act(match_id, tokens["white"], {"type": "setup", "backrow": ROW})
    server.act(match_id, tokens["black"], {"type": "setup", "backrow": ROW})
    return match_id, tokens


def _open_seat(contexts: Contexts, match_id: str, token: str, **kw: Any) -> Any:
    page = contexts.page(**kw)
    page.goto(f"/matches/{match_id}#seat=white.{token}")
    wait_ready(page)
    return page


def test_chambers_and_minions_explain_themselves_on_hover_focus_and_long_press(
        contexts: Contexts, server: Server) -> None:
    match_id, tokens = _started(server)
    page = _open_seat(contexts, match_id, tokens["white"])
    my_turn(page, 3)  # hovered once the page has settled on its turn's choices
    expect(page.get_by_role("link", name="How to play")).to_have_attribute("href", "/learn")
    tip = page.get_by_role("tooltip")
    v = vocabulary()
    chaos = next(c["mage"] for c in server.match(match_id)["tower"] if c["floor"] == 13)
    name = v["mages"][chaos]["name"]
    page.get_by_role("button", name=re.compile(f"^{name},")).hover()
    expect(tip).to_have_text(f"{name} (a chaos mage): {v['mages'][chaos]['power']} It is empty.")
    page.get_by_role("button", name=re.compile("^d1, White's dragon")).hover()
    expect(tip).to_contain_text(f"White's dragon on d1, a greater minion: it {v['minions']['dragon']['moves']}.")
    # By keyboard: the tower is one tab stop, walked with the arrow keys
    # in its grid of four floors a row, floor 16 first: the Druid (floor 5) is two
    # rows down and three along. Focus the page puts there itself explains nothing.
    stop = page.locator(".tower button.chamber[tabindex='0']")
    expect(stop).to_have_count(1)
    stop.focus()
    for key in ["Home", "ArrowDown", "ArrowDown", "ArrowRight", "ArrowRight", "ArrowRight"]:
        page.keyboard.press(key)
    expect(page.get_by_role("button", name=re.compile("^Druid,"))).to_be_focused()
    expect(tip).to_have_text(f"Druid (floor 5): {v['mages']['druid']['power']} It is empty.")
    expect(stop).to_have_count(1)
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()

    # A phone: a long press explains and does not choose.
    phone = _open_seat(contexts, match_id, tokens["white"], width=390, height=844, has_touch=True, is_mobile=True)
    my_turn(phone, 3)
    oracle = phone.get_by_role("button", name=re.compile("^Oracle,"))
    oracle.scroll_into_view_if_needed()
    box = oracle.bounding_box()
    assert box is not None
    oracle.dispatch_event("pointerdown", {"pointerType": "touch", "isPrimary": True})
    expect(phone.get_by_role("tooltip")).to_have_text(re.compile(f"^Oracle \\(floor 11\\): {re.escape(v['mages']['oracle']['power'])}"))
    oracle.dispatch_event("pointerup", {"pointerType": "touch", "isPrimary": True})
    oracle.dispatch_event("click")
    expect(oracle).not_to_have_accessible_name(re.compile(r", chosen\b"))


FOCUS_IN = """() => { const e = document.activeElement;
    return e.closest(".arena") ? "the arena" : e.closest("button.type, button.chamber, #choices") ? "a choice" : e.tagName; }"""


def test_what_the_mouse_rests_on_stays_explained_when_the_turn_arrives(
        contexts: Contexts, server: Server) -> None:
    """The page moves focus itself when its turn's choices arrive (from the arena,
    where it waited, to the first choice): that takes away an explanation focus
    brought, never the one the mouse rests on."""
    match_id, tokens = _started(server)
    page = contexts.page()
    page.goto(f"/matches/{match_id}#seat=black.{tokens['black']}")
    wait_ready(page)
    tip = page.get_by_role("tooltip")
    page.get_by_role("button", name=re.compile("^Druid,")).hover()
    expect(tip).to_have_text(re.compile(r"^Druid \(floor 5\): .* It is empty\.$"))
    white = server.legal(match_id, tokens["white"])["actions"]
    server.act(match_id, tokens["white"], next(a for a in white if a["type"] == "place" and a["mage"] != "druid"))
    my_turn(page, 4)
    assert page.evaluate(FOCUS_IN) == "a choice", "the page did not move focus to Black's first choice"
    expect(tip).to_have_text(re.compile(r"^Druid \(floor 5\): .* It is empty\.$"))
    # Focus moved from one choice to another by the page (as when a choice's
    # buttons are made anew) leaves the explanation the mouse brought.
    page.evaluate("() => [...document.querySelectorAll('button.type:not(:disabled)')]"
                  ".find((b) => b !== document.activeElement).focus()")
    assert page.evaluate(FOCUS_IN) == "a choice"
    expect(tip).to_have_text(re.compile(r"^Druid \(floor 5\): .* It is empty\.$"))


def test_a_refusal_links_its_ruling_to_the_learn_page(contexts: Contexts, server: Server) -> None:
    match_id, tokens = _started(server)
    page = _open_seat(contexts, match_id, tokens["white"])
    my_turn(page, 3)
    # The engine's own refusal of a place on a taken chamber (R9), answered as the server
    # answers it, for the page's place on the Oracle (the chamber was taken meanwhile).
    taken = position({"a1": "C", "h8": "c"}, turn="db", tower={"oracle": "U"})
    with pytest.raises(IllegalAction) as refusal:
        apply(taken, {"type": "place", "mage": "oracle", "minion": "fey"})
    detail = str(refusal.value)
    assert detail.startswith("R9: "), detail
    page.route("**/api/v1/matches/*/actions", lambda route: route.fulfill(
        status=422, content_type="application/json",
        body=json.dumps({"error": "illegal_action", "detail": detail})))
    page.get_by_role("button", name=re.compile("^Oracle,")).click()
    page.get_by_role("button", name=re.compile("^Fey:")).click()
    link = page.get_by_role("alert").get_by_role("link", name="R9")
    expect(link).to_have_attribute("href", "/learn#r9")
    expect(page.get_by_role("alert")).to_contain_text(f"(R9: {RULINGS['R9']})")
    link.click()
    page.wait_for_url(re.compile(r"/learn#r9$"))
    expect(page.locator("#r9")).to_be_focused()
    expect(page.locator("#r9 dd")).to_have_text(RULINGS["R9"])


def test_the_match_page_shows_the_engines_words(contexts: Contexts, server: Server) -> None:
    """Defects 8 and 11: the tower's power texts and the log are the engine's, not a copy;
    the log names the minion that moved, not only the one taken off the chamber."""
    match_id, tokens = _started(server)
    server.act(match_id, tokens["white"], {"type": "place", "mage": "wizard", "minion": "elemental"})
    server.act(match_id, tokens["black"], {"type": "pass"})
    server.act(match_id, tokens["white"], {"type": "pass"})
    server.act(match_id, tokens["white"], {"type": "remove", "mage": "wizard", "power": {"move": ["h1", "h3"]}})
    page = _open_seat(contexts, match_id, tokens["white"])
    v = vocabulary()
    mages = page.locator(".chamber-row").evaluate_all("rows => rows.map(r => r.dataset.mage)")
    assert len(mages) == 16
    for mage in mages:
        expect(page.locator(f".chamber-row[data-mage={mage}] .power")).to_have_text(v["mages"][mage]["power"])
    log = page.locator("#log")
    expect(log).to_contain_text("White places an elemental on the Wizard.")
    expect(log).to_contain_text("White removes an elemental from the Wizard and moves the myrmidon from h1 to h3.")
