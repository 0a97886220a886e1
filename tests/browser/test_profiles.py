"""The players' pages in real Chromium (issue 19), at a desktop's width and a
360 px phone's: a profile with its ratings, a rating chart, its results and
matches linking to their replays; the leaderboard; and the match page's end
panel showing each side's rated change. axe finds no WCAG 2.1 AA violation,
and nothing needs sideways scrolling."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import (
    Contexts,
    Server,
    assert_accessible,
    database_url,
    page_width,
    run_server,
    wait_ready,
)
from .rated_scenes import Scene, players_with_history

WIDTHS = [1280, 360]


@pytest.fixture(scope="module")
def scene_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Scene]]:
    """A server of its own: its players' names are nobody else's to sign up."""
    folder: Path = tmp_path_factory.mktemp("profiles-server")
    scene = players_with_history(database_url(folder))  # before the server and its sweeper start
    with run_server(folder) as running:
        yield running, scene


@pytest.fixture
def pages(browser: Any, scene_server: tuple[Server, Scene]) -> Iterator[Contexts]:
    made = Contexts(browser, scene_server[0])
    yield made
    made.close()
    assert not made.errors, made.errors


def _fits(page: Any, width: int) -> None:
    wide = page_width(page)
    assert wide <= width, f"{page.url} is {wide} px wide at {width}"


@pytest.mark.parametrize("width", WIDTHS)
def test_a_profile_shows_ratings_a_chart_results_and_matches(
        pages: Contexts, scene_server: tuple[Server, Scene], width: int) -> None:
    _, scene = scene_server
    page = pages.page(width=width, axe=True)
    page.goto("/@/ada")  # any case
    expect(page.get_by_role("heading", name="Ada", level=1)).to_be_visible()
    ratings = page.get_by_role("table").first
    standard = ratings.get_by_role("row", name=re.compile(r"^Standard"))
    expect(standard).to_contain_text("10")  # rated matches
    expect(page.get_by_role("img", name="Ada's Standard rating after each rated match")).to_be_visible()
    assert page.locator("svg.chart circle").count() == 10  # a point per rated match
    expect(page.get_by_text("Member since")).to_be_visible()
    expect(page.get_by_text("Last seen")).to_be_visible()
    facts = page.locator(".facts").inner_text()
    assert re.search(r"Wins\s+7\s+Draws\s+1\s+Losses\s+2", facts), facts
    _fits(page, width)
    assert_accessible(page)
    # The newest match links to its replay; an opponent's name to their profile.
    page.get_by_role("link", name=re.compile(r"^Replay the match of .* against Bea$")).first.click()
    expect(page).to_have_url(re.compile(f"/matches/{scene.last_match}$"))
    wait_ready(page)
    page.go_back()
    page.get_by_role("link", name="Bea", exact=True).first.click()
    expect(page.get_by_role("heading", name="Bea", level=1)).to_be_visible()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_leaderboard(pages: Contexts, width: int) -> None:
    page = pages.page(width=width, axe=True)
    page.goto("/leaderboard")
    standard = page.get_by_role("region", name="Standard", exact=True)
    names = standard.get_by_role("link").all_inner_texts()
    assert names == ["Bea", "Cyrus", "Dee", "Eamon"], names  # Ada is provisional still
    expect(standard.get_by_role("row").nth(1)).to_contain_text("1688")
    computers = page.get_by_role("region", name="Computer levels")
    strong = computers.get_by_role("row", name=re.compile("^Strong"))
    expect(strong).to_contain_text(re.compile(r"Standard 1\d\d\d\?"))  # it beat Eamon, rated
    expect(computers.get_by_role("row", name=re.compile("^Random"))).to_contain_text("no rated match yet")
    expect(page.get_by_role("region", name="Archmage", exact=True)).to_contain_text("Nobody has a settled rating here yet")
    _fits(page, width)
    assert_accessible(page)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_end_panel_shows_each_sides_change(pages: Contexts, scene_server: tuple[Server, Scene],
                                               width: int) -> None:
    server, scene = scene_server
    state = server.match(scene.last_match)
    white, black = state["players"]["white"], state["players"]["black"]
    assert white["rating_change"] > 0 > black["rating_change"]
    page = pages.page(width=width, axe=True)
    page.goto(f"/matches/{scene.last_match}")
    wait_ready(page)
    changes = page.get_by_role("list", name="Rating changes")
    expect(changes).to_be_visible()
    # The rating before and after ("1500? → 1742?"), then the change.
    w, b = white["rating"]["rating"], black["rating"]["rating"]
    expect(changes).to_contain_text(f"White, Ada: {w}? → {w + white['rating_change']}? (+{white['rating_change']})")
    expect(changes).to_contain_text(f"Black, Bea: {b}? → {b + black['rating_change']}? (\u2212{-black['rating_change']})")
    # The players' names link to their profiles, with their ratings.
    ada = page.locator("#player-white").get_by_role("link", name="Ada")
    expect(ada).to_have_attribute("href", "/@/Ada")
    expect(page.locator("#player-white .player-rating")).to_have_text(f" ({white['rating']['rating']}?)")
    _fits(page, width)
    assert_accessible(page)
