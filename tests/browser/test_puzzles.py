"""The puzzle page in real Chromium, on a phone (390 x 844) and a desktop
(1366 x 768): a signed-in player solves a puzzle by clicking the board (its
rating moves, and the profile shows the try), and fails another by declining
the power, and sees the solution replayed step by step.

The two puzzles are the test's own, put in the server's database by the
puzzle service itself: whatever the shipped set holds (it grows as it is
mined again), the clicks below spell their solutions."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import expect

from app.db import make_engine
from app.puzzles.mining import puzzle_id
from app.puzzles.service import Puzzles
from app.rules import COLOURS, from_text

from .conftest import Contexts, Server, page_width
from .test_accounts import sign_up

SHOTS = os.environ.get("MAGERY_SHOTS")  # a folder to keep the screenshots in, when set
SIZES = [(390, 844), (1366, 768)]


def _known(position: str, solution: list[dict[str, Any]], themes: list[str]) -> dict[str, Any]:
    return {"id": puzzle_id(position), "position": position, "solution": solution, "themes": themes,
            "rating": 1300.0}


# Two black animist moves, each the only win (mined from self-play, seed `ship`, match 6).
KNOWN = [
    _known("BS6/4m3/m7/4D3/8/8/8/4u3 ab w 11 12222232/12222122 11110100/20111001 ........e...|fm.,sh.,al.,mg. "
           "-/- wb - - - 0 me,il,rm,se,dm,en,co/- puzzles-ship-000006 standard:10 -",
           [{"player": "black", "action": {"type": "remove", "mage": "animist", "power": {"move": ["e7", "e5"]}}}],
           ["animist", "capture", "greater_minion", "one_action"]),
    _known("1S6/8/1m6/8/8/8/8/4u3 ab w 22 12222232/12222222 21110101/20111001 ........e...|fm.,sh.,al.,mg. "
           "-/- wb - - - 9 me,il,rm,se,dm,en,co/- puzzles-ship-000006 standard:10 -",
           [{"player": "black", "action": {"type": "remove", "mage": "animist", "power": {"move": ["b6", "b8"]}}}],
           ["animist", "capture", "eliminated", "one_action"]),
]


async def _load(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        await Puzzles(engine).load(KNOWN, source="test")  # a puzzle already held (the same id) stays as it is
    finally:
        await engine.dispose()


@pytest.fixture
def known_puzzles(server: Server) -> list[dict[str, Any]]:
    """The test's two puzzles, in the server's database (on a loop of its own:
    Playwright's sync API holds this thread's)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _load(server.database_url)).result()
    for rec in KNOWN:
        colour = COLOURS[from_text(rec["position"]).to_move]
        assert [ply["player"] for ply in rec["solution"]] == [colour]
    return KNOWN


def click_action(page: Any, action: dict[str, Any]) -> None:
    """The clicks that spell a removal that moves a minion: the chamber, then the two squares."""
    page.locator(f'.chamber-row[data-mage="{action["mage"]}"] button.chamber').click()
    frm, to = action["power"]["move"]
    page.locator(f'.arena [data-square="{frm}"]').click()
    page.locator(f'.arena [data-square="{to}"]').click()


def shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name), full_page=True)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_solve_one_and_fail_one(contexts: Contexts, known_puzzles: list[dict[str, Any]], width: int,
                                height: int) -> None:
    page = contexts.page(width, height)
    name = f"Pia{width}"
    page.goto("/signup")
    sign_up(page, name)
    solved, failed = known_puzzles

    page.goto(f"/puzzles/{solved['id']}")
    expect(page.locator("html")).to_have_attribute("data-puzzle", solved["id"])
    page.get_by_role("button", name="Hint").click()
    expect(page.locator("#hint-text")).to_contain_text("Themes:")
    shot(page, f"puzzle-start-{width}.png")
    click_action(page, solved["solution"][0]["action"])
    expect(page.locator("html")).to_have_attribute("data-puzzle-outcome", "solved")
    expect(page.get_by_role("status")).to_contain_text("Solved!")
    expect(page.locator("#player-rating")).not_to_have_text("1500?")
    shot(page, f"puzzle-solved-{width}.png")

    page.goto(f"/puzzles/{failed['id']}")
    expect(page.locator("html")).to_have_attribute("data-puzzle", failed["id"])
    mage = failed["solution"][0]["action"]["mage"]
    page.locator(f'.chamber-row[data-mage="{mage}"] button.chamber').click()
    page.get_by_role("button", name="Without power").click()
    expect(page.locator("html")).to_have_attribute("data-puzzle-outcome", "failed")
    expect(page.get_by_role("status")).to_contain_text("not the winning action")
    steps = page.locator("#solution li")
    expect(steps).to_have_count(len(failed["solution"]))
    expect(steps.first).to_have_class("current")  # the board shows the solution's first action
    page.get_by_role("button", name="Back").click()
    expect(steps.first).not_to_have_class("current")
    page.get_by_role("button", name="Forward").click()
    expect(steps.first).to_have_class("current")
    assert page_width(page) <= width
    shot(page, f"puzzle-failed-{width}.png")

    page.goto(f"/@/{name}")
    history = page.locator(".puzzle-history tbody tr")
    expect(history).to_have_count(2)
    expect(page.locator(".puzzle-rating")).to_contain_text("Puzzle rating")
    shot(page, f"puzzle-profile-{width}.png")
