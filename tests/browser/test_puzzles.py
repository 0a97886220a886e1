"""The puzzle page in real Chromium, on a phone (390 x 844) and a desktop
(1366 x 768): a signed-in player solves a puzzle by clicking the board (its
rating moves, and the profile shows the try), and fails another by declining
the power, and sees the solution replayed step by step."""

from __future__ import annotations

import os
from typing import Any

import pytest
from playwright.sync_api import expect

from app.puzzles.service import read_seed
from app.rules import COLOURS, from_text

from .conftest import Contexts, page_width
from .test_accounts import sign_up

SHOTS = os.environ.get("MAGERY_SHOTS")  # a folder to keep the screenshots in, when set
SIZES = [(390, 844), (1366, 768)]


def _moves_only(rec: dict[str, Any]) -> bool:
    colour = COLOURS[from_text(rec["position"]).to_move]
    mine = [ply["action"] for ply in rec["solution"] if ply["player"] == colour]
    return len(mine) == 1 and isinstance(mine[0].get("power"), dict) and "move" in mine[0]["power"]


PUZZLES = [rec for rec in read_seed() if _moves_only(rec)]


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
def test_solve_one_and_fail_one(contexts: Contexts, width: int, height: int) -> None:
    assert len(PUZZLES) >= 2, "the seed set holds puzzles solved by one move"
    page = contexts.page(width, height)
    name = f"Pia{width}"
    page.goto("/signup")
    sign_up(page, name)
    solved, failed = PUZZLES[0], PUZZLES[1]

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
