"""Seeks in real Chromium, at a desk's width and a 390 px phone's:
a signed-in player asks for opponents within ±200 of their rating from the
home form; a guest sees the seek listed with the creator's rating ("1500?")
and the ratings it admits, with the header's "Leaderboard" link in the
window, and no Join: the words beside it say why. A player whose rating is
outside the range sees the same ("Open to 1300–1700; you are 1720"); a join
refused after all (a rated seek, for a guest) is said in its row, beside the
button pressed."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import expect
from sqlalchemy import insert, select

from app.db import make_engine
from app.db.account_models import accounts, ratings

from .conftest import Contexts, Server, wait_ready
from .test_accounts import fits, fresh_name, phone_or_desk, sign_up

WIDTHS = [pytest.param(1280, id="desktop"), pytest.param(390, id="phone")]


@pytest.mark.parametrize("width", WIDTHS)
def test_a_ranged_seek_is_listed_with_its_rating_and_refuses_a_guest(contexts: Contexts, width: int) -> None:
    creator = phone_or_desk(contexts, width)
    creator.goto("/signup")
    name = fresh_name("Sek")
    sign_up(creator, name)
    creator.wait_for_url(re.compile(r"/$"))
    range_field = creator.get_by_label("Rating range")
    creator.get_by_label("Opponent").select_option("bot:random")
    expect(range_field).to_be_hidden()  # a computer joins at once: no range to ask of it
    creator.get_by_label("Opponent").select_option("human")
    range_field.select_option("200")
    with creator.expect_request(lambda r: r.url.endswith("/api/v1/matches") and r.method == "POST") as sent:
        creator.get_by_role("button", name="Create match").click()
    assert sent.value.post_data_json["options"]["rating_range"] == 200
    creator.wait_for_url(re.compile(r"/matches/"))
    wait_ready(creator)  # the creator stays on the match page: the seek is listed

    guest = phone_or_desk(contexts, width, axe=False)
    guest.goto("/")
    row = guest.locator("#open-list li", has_text=name)
    expect(row).to_contain_text(f"{name} (1500?) waits, as")
    expect(row).to_contain_text("ratings 1300\u20131700")
    expect(row.get_by_role("link", name=name)).to_have_attribute("href", f"/@/{name}")
    leaderboard = guest.get_by_role("banner").get_by_role("link", name="Leaderboard")
    expect(leaderboard).to_have_attribute("href", "/leaderboard")
    box = leaderboard.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    fits(guest)
    # A guest has no rating: no Join, and why, where the Join would be.
    expect(row.get_by_role("button")).to_have_count(0)
    expect(row).to_contain_text("Open to 1300\u20131700; sign in to join (a guest has no rating)")

    strong = phone_or_desk(contexts, width)
    strong.goto("/signup")
    strong_name = fresh_name("Hi")
    sign_up(strong, strong_name)
    strong.wait_for_url(re.compile(r"/$"))
    rate(contexts.server, strong_name, 1720.0)
    strong.reload()
    row = strong.locator("#open-list li", has_text=name)
    expect(row).to_contain_text("Open to 1300\u20131700; you are 1720")
    expect(row.get_by_role("button")).to_have_count(0)
    fits(strong)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_refused_join_is_said_in_its_row(contexts: Contexts, width: int) -> None:
    creator = phone_or_desk(contexts, width)
    creator.goto("/signup")
    name = fresh_name("Rat")
    sign_up(creator, name)
    creator.wait_for_url(re.compile(r"/$"))
    creator.get_by_label("Rated").check()
    creator.get_by_role("button", name="Create match").click()
    creator.wait_for_url(re.compile(r"/matches/"))
    wait_ready(creator)

    guest = phone_or_desk(contexts, width, axe=False)
    guest.goto("/")
    row = guest.locator("#open-list li", has_text=name)
    row.get_by_role("button", name=re.compile("^Join")).click()
    said = row.get_by_role("alert")
    expect(said).to_contain_text("Could not join:")
    expect(row.get_by_role("button")).to_have_text("Not open to you")
    expect(guest.locator("#create-error")).to_be_empty()  # not in the form, far above
    box, button = said.bounding_box(), row.get_by_role("button").bounding_box()
    assert box is not None and button is not None and 0 <= box["y"] - button["y"] < 200, (box, button)
    assert guest.url.endswith("/")  # still home: nobody joined
    fits(guest)


def rate(server: Server, name: str, rating: float) -> None:
    """Gives the account `name` a settled rating in the standard variant, as rated matches would have."""
    async def write() -> None:
        engine = make_engine(server.database_url)
        try:
            async with engine.begin() as conn:
                account = (await conn.execute(select(accounts.c.id).where(accounts.c.name == name))).scalar_one()
                await conn.execute(insert(ratings).values(account_id=account, variant="standard", rating=rating,
                                                          rd=60.0, volatility=0.06, games=30, last_rated_at=None))
        finally:
            await engine.dispose()

    def run() -> Any:
        return asyncio.run(write())

    with ThreadPoolExecutor(1) as pool:  # a loop of its own: Playwright's sync API holds this thread's
        pool.submit(run).result()
