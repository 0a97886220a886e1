"""The arenas' pages drawn on the server (app/web/tournament_pages.py), on both
databases: the list in its three groups, an arena's standings, games and clock,
the podium once over, a missing arena's 404; and an arena game's page, which
offers its player (only) Berserk and the way back to the arena."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import httpx
from sqlalchemy import update

from app.db.tournament_models import tournaments
from app.tournaments import Arenas

from ..api.members import member
from ..tournaments.conftest import arena, playing


def _text(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


async def _end(app: Any, tid: str) -> None:
    async with app.state.parts.engine.begin() as conn:
        await conn.execute(update(tournaments).where(tournaments.c.id == tid).values(ends_ms=1))


async def test_the_list_groups_running_upcoming_and_finished(app: Any, client: httpx.AsyncClient) -> None:
    arenas: Arenas = app.state.parts.arenas
    ann = await member(app, "Ann")
    now = await arenas.create(ann.account.id, arena("Lunch Blitz"))
    later = await arenas.create(ann.account.id, arena("Evening Arena", starts_in_seconds=3600))
    over = await arenas.create(ann.account.id, arena("Dawn Arena"))
    await _end(app, over)
    r = await client.get("/tournaments")
    assert r.status_code == 200
    html = r.text
    groups = {key: html[html.index(f'id="group-{key}"'):] for key in ("running", "upcoming", "finished")}
    assert f'href="/tournaments/{now}"' in groups["running"].split("</section>")[0]
    assert f'href="/tournaments/{later}"' in groups["upcoming"].split("</section>")[0]
    assert f'href="/tournaments/{over}"' in groups["finished"].split("</section>")[0]
    assert 'href="/tournaments" aria-current="page"' in html  # the header's link


async def test_an_arena_page_and_its_podium(app: Any, client: httpx.AsyncClient) -> None:
    arenas: Arenas = app.state.parts.arenas
    ann, bob = await member(app, "Ann"), await member(app, "Bob")
    tid = await arenas.create(ann.account.id, arena())
    await arenas.join(tid, ann.account.id, ann.name)
    await arenas.join(tid, bob.account.id, bob.name)
    game = (await playing(app, tid))[ann.account.id]
    text = _text((await client.get(f"/tournaments/{tid}")).text)
    assert "Hourly Blitz" in text and "Ends in" in text and "2 players" in text
    assert "Ann v Bob playing" in text or "Bob v Ann playing" in text
    signed = _text((await client.get(f"/tournaments/{tid}", headers=ann.session())).text)
    assert "Withdraw" in signed and "Sign in to join" not in signed
    page = (await client.get(f"/matches/{game}", headers=ann.session())).text
    assert 'id="berserk"' in page and f'href="/tournaments/{tid}"' in page
    watched = (await client.get(f"/matches/{game}")).text
    assert 'id="berserk"' not in watched and f'href="/tournaments/{tid}"' in watched
    await _end(app, tid)
    over = (await client.get(f"/tournaments/{tid}")).text
    podium = over[over.index('id="podium"'):over.index("</ol>", over.index('id="podium"'))]
    assert podium.count("<li") == 2 and "Finished" in _text(over)
    assert 'id="berserk"' not in (await client.get(f"/matches/{game}", headers=ann.session())).text
    assert (await client.get("/tournaments/Nothing0Here")).status_code == 404
