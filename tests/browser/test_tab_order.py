"""On a phone the match page is drawn in one column in an order of its own
(the players, the arena, the turn panel, the tower, your reserve, the seat's
buttons, the move list…), not the document's: Tab must visit it as drawn (it
went from the arena to the tower and the reserve, then back up to the turn
panel)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Contexts, my_turn
from .scenes import set_up

REGIONS = ["#join-box", ".players", ".arena", "#turn", ".tower", ".pools", "#seat-panel", ".log-panel",
           ".match-tools", "#chat"]


def tab_regions(page: Any, presses: int) -> list[tuple[str, float]]:
    """The regions Tab visits from the top of the page, in turn, with where each is drawn (its top),
    until Tab comes round to one it visited."""
    seen: list[tuple[str, float]] = []
    page.locator("a.skip").focus()
    for _ in range(presses):
        page.keyboard.press("Tab")
        found = page.evaluate("""regions => { const e = document.activeElement;
            const r = regions.find(q => e && e.closest(q));
            return r ? [r, e.closest(r).getBoundingClientRect().top + window.scrollY] : null; }""", REGIONS)
        if found and (not seen or seen[-1][0] != found[0]):
            if any(found[0] == name for name, _ in seen):
                break  # round the page and back to the top
            seen.append((found[0], found[1]))
    return seen


@pytest.mark.parametrize("size", [(390, 844), (360, 780)], ids=["390", "360"])
def test_tab_follows_the_drawn_order_on_a_phone(contexts: Contexts, size: tuple[int, int]) -> None:
    match_id, tokens = set_up(contexts.server)
    page = contexts.page(width=size[0], height=size[1], is_mobile=True, has_touch=True)
    page.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
    my_turn(page, 3)
    seen = tab_regions(page, 60)
    names = [name for name, _ in seen]
    for region in (".arena", "#turn", ".tower", ".pools", "#seat-panel"):
        assert region in names, f"Tab never reached {region}: {names}"
    assert names.index(".arena") < names.index("#turn") < names.index(".tower") < names.index(".pools"), names
    tops = [top for _, top in seen]
    assert tops == sorted(tops), f"Tab goes up the page: {seen}"
