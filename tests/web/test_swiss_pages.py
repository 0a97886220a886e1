"""A Swiss event on the tournaments' pages, drawn on the server
(app/web/swiss_pages.py), on both databases: listed among the arenas with its
rounds, and its own page: the round of the total and when the next is paired,
the standings with Buchholz and Sonneborn-Berger, the pairings by round and
board with the bye, join or withdraw by who is looking, and the TRF export."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import httpx
import pytest

from app.tournaments import Arenas

from ..api.members import member
from ..conftest import make_settings
from ..tournaments.conftest import arena
from ..tournaments.swiss_helpers import end_by, event, games, swisses


@pytest.fixture
def settings(database_url: str) -> Any:
    # These tests tick the Swiss events themselves. The app's own tick, once a second,
    # could pair a round and still be making its match when the test's tick returned
    # (seen in a loaded run: the page linked to /matches/None).
    return make_settings(database_url, tournament_tick_seconds=3600.0)


def _text(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def _between(html: str, start: str, end: str) -> str:
    at = html.index(start)
    return html[at:html.index(end, at)]


async def test_the_list_shows_swiss_events_beside_arenas(app: Any, client: httpx.AsyncClient) -> None:
    arenas: Arenas = app.state.parts.arenas
    ann = await member(app, "Ann")
    blitz = await arenas.create(ann.account.id, arena("Lunch Blitz"))
    later = await swisses(app).create(ann.account.id, event("Sunday Swiss", rounds=5, starts_in_seconds=3600))
    now = await swisses(app).create(ann.account.id, event("Monday Swiss", rounds=4, starts_in_seconds=0))
    html = (await client.get("/tournaments")).text
    upcoming = _text(_between(html, 'id="group-upcoming"', "</section>"))
    running = _text(_between(html, 'id="group-running"', "</section>"))
    assert f'href="/tournaments/{later}"' in html and f'href="/tournaments/{now}"' in html
    assert "Sunday Swiss Swiss · Standard" in upcoming and "5 rounds, starts" in upcoming
    # Started, though no round is paired yet: listed as running, never as over (its row has no end of its own).
    assert "Monday Swiss Swiss · Standard" in running and "round 0 of 4" in running
    assert "Lunch Blitz" in running and "Swiss" not in _text(_between(html, f'href="/tournaments/{blitz}"', "</li>"))


async def test_a_swiss_page_its_rounds_standings_pairings_bye_and_trf(app: Any, client: httpx.AsyncClient) -> None:
    sw = swisses(app)
    people = [await member(app, name) for name in ("Ann", "Bob", "Cyd")]
    by_id = {m.account.id: m for m in people}
    tid = await sw.create(people[0].account.id, event("Sunday Swiss", rounds=3, interval=120, starts_in_seconds=60))
    for m in people[:2]:
        await sw.join(tid, m.account.id, m.name)

    before = (await client.get(f"/tournaments/{tid}")).text
    assert "Round 1 of 3 is paired at" in _text(before) and "No round is paired yet." in before
    assert f'href="/api/v1/tournaments/{tid}/trf"' in before and "Sign in to join this Swiss event" in _text(before)
    cyd = _text((await client.get(f"/tournaments/{tid}", headers=people[2].session())).text)
    assert "You have not joined this Swiss event." in cyd and "Join" in cyd and "Withdraw" not in cyd
    await sw.join(tid, people[2].account.id, "Cyd")

    now = sw.clock()
    sw.clock = lambda: now + 61
    await sw.tick()
    [game] = [g for g in await games(app, tid) if g.black is not None]
    playing = (await client.get(f"/tournaments/{tid}", headers=by_id[game.white].session())).text
    assert f'<a href="/matches/{game.match_id}">Your round 1 game is on: open it</a>' in playing
    await end_by(app, "black resigns", game, by_id[game.white], by_id[game.black])
    await sw.settled()
    await sw.tick()
    html = (await client.get(f"/tournaments/{tid}")).text
    text = _text(html)
    assert "Round 1 of 3 · round 2 is paired when every game is over, not before" in text
    round_one = _text(_between(html, 'id="round-1"', "</ol>"))
    white, black = by_id[game.white].name, by_id[game.black].name
    bye = ({"Ann", "Bob", "Cyd"} - {white, black}).pop()
    assert f"1. {white} v {black} 1–0" in round_one and f"2. {bye}: bye 1 point" in round_one
    assert f'href="/matches/{game.match_id}"' in html
    head = _text(_between(html, "<thead>", "</thead>"))
    assert "Buch." in head and "S-B" in head
    rows = [_text(r).split() for r in re.findall(r"<tr[^>]*>(.*?)</tr>", _between(html, 'id="standings"', "</tbody>"),
                                                   re.S)]
    # The winner and the bye 1 point each (a bye is no game); the loser's Buchholz is the winner's point.
    assert [r[0] for r in rows] == ["1", "2", "3"]
    assert sorted(r[1:] for r in rows[:2]) == sorted([[white, "1", "1", "0", "0"], [bye, "1", "0", "0", "0"]])
    assert rows[2][1:] == [black, "0", "1", "1", "0"]

    mine = _text((await client.get(f"/tournaments/{tid}", headers=by_id[game.white].session())).text)
    assert "You play in this event: #1 with 1 point." in mine and "Withdraw" in mine and "game is on" not in mine
    await sw.withdraw(tid, game.black)
    gone = _text((await client.get(f"/tournaments/{tid}", headers=by_id[game.black].session())).text)
    assert "You withdrew" in gone and "Join" in gone and f"{black} (withdrawn)" in gone
    trf = await client.get(f"/api/v1/tournaments/{tid}/trf")
    assert trf.status_code == 200
