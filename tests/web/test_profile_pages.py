"""The profile page `/@/{name}` and the `/leaderboard` (issue 19), drawn on the
server: a rated match played to its end through the service shows on both
players' profiles (the new ratings, a point of the history chart, W/D/L, the
match with a link to its replay); the leaderboard ranks settled ratings only
and lists the computer levels apart."""

from __future__ import annotations

import re
from html import unescape as html_unescape
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from app.accounts import computer_account
from app.db.account_models import accounts as accounts_table
from app.db.account_models import ratings
from tests.accounts.played import member, parts, rated_match


def _text(html: str) -> str:
    return html_unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


async def test_a_profile_after_a_rated_match(app: Any, client: httpx.AsyncClient) -> None:
    accounts, service = parts(app)
    ada, bea = await member(accounts, "Ada"), await member(accounts, "Bea")
    match_id = await rated_match(service, ada, bea, winner="white")
    r = await client.get("/@/ada")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    html, text = r.text, _text(r.text)
    assert "Standard 1742? (provisional) 1" in text
    assert "Wins 1 Draws 0 Losses 0" in text and "Member since" in text and "Last seen" in text
    chart = re.search(r'<svg class="chart"[^>]*aria-label="([^"]+)"', html)
    assert chart is not None and html_unescape(chart.group(1)) == "Ada's Standard rating after each rated match"
    assert html.count("<circle") == 1  # one rated match, one point
    assert f'href="/matches/{match_id}"' in html and 'href="/@/Bea"' in html
    assert "Won +242 (resigned)" in text
    bea_text = _text((await client.get("/@/Bea")).text)
    assert "1258?" in bea_text and "\u2212242" in bea_text and "Wins 0 Draws 0 Losses 1" in bea_text


async def test_a_closed_account_and_a_computer_level(app: Any, client: httpx.AsyncClient) -> None:
    accounts, _ = parts(app)
    await member(accounts, "Cy")
    await accounts.close("Cy")
    text = _text((await client.get("/@/Cy")).text)
    assert "Cy closed" in text and "This account is closed" in text
    strong = _text((await client.get("/@/Strong")).text)
    assert "Strong computer" in strong and "No rated matches yet" in strong and "Last seen" not in strong


async def test_no_such_player_and_a_bad_cursor(client: httpx.AsyncClient) -> None:
    r = await client.get("/@/Nobody")
    assert r.status_code == 404 and "There is no player named \u201cNobody\u201d" in r.text
    r = await client.get("/@/%3Cb%3E")
    assert r.status_code == 404 and "<b>" not in r.text  # the name typed is text, escaped
    await client.get("/@/Strong", params={"cursor": "1.x"})
    r = await client.get("/@/Strong", params={"cursor": "nonsense"})
    assert r.status_code == 400 and "Older matches" in r.text


async def test_the_matches_are_paged(app: Any, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.web import profile_pages

    monkeypatch.setattr(profile_pages, "PAGE", 2)
    accounts, service = parts(app)
    ada, bea = await member(accounts, "Ada"), await member(accounts, "Bea")
    made = [await rated_match(service, ada, bea, winner=w, rated=False) for w in ("white", "black", None)]
    first = (await client.get("/@/Ada")).text
    older = re.search(r'href="(/@/Ada\?cursor=[^"]+)">Older matches', first)
    assert older is not None and made[0] not in first and made[2] in first
    second = (await client.get(older.group(1).replace("&amp;", "&"))).text
    assert made[0] in second and made[2] not in second and "Older matches" not in second
    assert "Newest matches" in second


async def test_the_leaderboard_ranks_settled_ratings_and_lists_computers_apart(
        app: Any, client: httpx.AsyncClient) -> None:
    accounts, service = parts(app)
    people = {name: await member(accounts, name) for name in ("Ada", "Bea", "Cy", "Dee")}
    await rated_match(service, people["Ada"], people["Bea"])
    await rated_match(service, people["Cy"], people["Dee"])
    ada = await service.lobby.create({}, seat="white", rated=True, account_id=people["Ada"].id,
                                     opponent="bot:strong")
    await service.finisher.resign(ada.match["id"], "white")  # early: moves no rating
    settled = {"Ada": (1610.4, 60.0), "Bea": (1702.0, 110.0), "Cy": (1900.0, 111.0), "Dee": (1650.0, 80.0)}
    today = accounts.clock()
    accounts.clock = lambda: today  # rated just now, and time stands still: no RD grows (Bea stays at 110)
    async with service.engine.begin() as conn:
        for name, (rating, rd) in settled.items():
            await conn.execute(update(ratings).where(ratings.c.account_id == people[name].id)
                               .values(rating=rating, rd=rd, last_rated_at=accounts.now()))
    await accounts.close("Dee")  # a closed account leaves the board
    strong_id = await computer_account(service.engine, "strong", accounts.now())
    assert strong_id is not None
    async with service.engine.begin() as conn:
        await conn.execute(ratings.insert().values(account_id=strong_id, variant="standard", rating=2000.0, rd=50.0,
                                                   volatility=0.06, games=30))
        await conn.execute(update(accounts_table).where(accounts_table.c.id == strong_id).values(last_seen=None))
    html = (await client.get("/leaderboard")).text
    standard = html[html.index('id="board-standard"'):html.index('id="board-rotating"')]
    assert re.findall(r'<a href="/@/(\w+)">', standard) == ["Bea", "Ada"]  # Cy is provisional, Dee closed
    assert _text(standard).count("1702") == 1 and "1610" in _text(standard)
    computers = _text(html[html.index('id="computers-title"'):])
    assert "Strong Standard 2000" in computers and "Random no rated match yet" in computers
    assert "Strong" not in _text(standard)


async def test_an_idle_players_rating_grows_provisional_again(app: Any, client: httpx.AsyncClient) -> None:
    """Issue 19: the RD shown grows with the days since the last rated match
    (lichess: 0.21436 rating periods a day), so a settled player away for a
    year shows as provisional on the profile and the API and leaves the board."""
    accounts, service = parts(app)
    ada, bea = await member(accounts, "Ada"), await member(accounts, "Bea")
    await rated_match(service, ada, bea)
    async with service.engine.begin() as conn:
        await conn.execute(update(ratings).where(ratings.c.account_id == ada.id)
                           .values(rating=1610.4, rd=60.0, volatility=0.09, last_rated_at=accounts.now()))
    board = _text((await client.get("/leaderboard")).text)
    assert "Ada 1610" in board and "1610?" not in board
    assert "Standard 1610 " in _text((await client.get("/@/Ada")).text)
    today = accounts.clock()
    accounts.clock = lambda: today + 365 * 86_400.0  # a year without a rated match
    board = _text((await client.get("/leaderboard")).text)
    assert "Ada" not in board
    assert "Standard 1610? (provisional)" in _text((await client.get("/@/Ada")).text)
    api = (await client.get("/api/v1/users/Ada")).json()["ratings"]["standard"]
    assert api["provisional"] is True and 110 < api["rd"] <= 500 and api["rating"] == 1610


async def test_every_page_links_the_leaderboard_from_its_header(app: Any, client: httpx.AsyncClient) -> None:
    """Issue 19: a "Leaderboard" link in the site header of every page, marked
    as the current page on the leaderboard itself."""
    link = '<a class="leaderboard-link" href="/leaderboard">Leaderboard</a>'
    for path in ("/", "/learn", "/login", "/signup", "/@/Strong", "/@/Nobody"):
        html = (await client.get(path)).text
        header = html[html.index('<header class="top">'):html.index("</header>")]
        assert link in header, path
    board = (await client.get("/leaderboard")).text
    assert '<a class="leaderboard-link" href="/leaderboard" aria-current="page">Leaderboard</a>' in board


async def test_a_profile_says_rated_or_casual_and_an_open_seek_is_waiting(app: Any, client: httpx.AsyncClient) -> None:
    accounts, service = parts(app)
    ada, bea = await member(accounts, "Ada"), await member(accounts, "Bea")
    await rated_match(service, ada, bea, winner="white")
    await rated_match(service, ada, bea, winner="black", rated=False)
    await service.lobby.create({}, seat="white", name="Ada", account_id=ada.id)  # a seek nobody joined yet
    rows = [_text(row) for row in re.findall(r"<tr>\s*<td><time(.*?)</tr>", (await client.get("/@/Ada")).text, re.S)]
    assert len(rows) == 3
    assert "Casual" in rows[0] and "Waiting for an opponent" in rows[0] and "Playing" not in rows[0]
    assert "Casual" in rows[1] and "Lost" in rows[1]
    assert "Rated" in rows[2] and "Won" in rows[2]
    assert "five greater mages" not in (await client.get("/@/Ada")).text
