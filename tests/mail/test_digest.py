"""The daily digest, on both databases: at the player's hour, one mail listing
the correspondence matches awaiting their move, sent once a day even when two
processes tick at the same moment; nothing to whoever nothing awaits."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import httpx

from app.mail import Delivered, Mailer, send_digests
from tests.conftest import ROW
from tests.mail.conftest import SITE, Sink, account_token, links, parts_of, path_of
from tests.mail.test_email_flow import EMAIL, verified

MATCHES = "/api/v1/matches"
CORRESPONDENCE = {"time_control": {"type": "correspondence", "days": 2}}


async def correspondence_match(client: httpx.AsyncClient, white: dict[str, str], black: dict[str, str]) -> dict[str, Any]:
    made = await client.post(MATCHES, json={"seat": "white", "options": CORRESPONDENCE}, headers=white)
    assert made.status_code == 201, made.text
    match_id = made.json()["match"]["id"]
    assert (await client.post(f"{MATCHES}/{match_id}/join", json={}, headers=black)).status_code == 200
    for headers in (white, black):
        state = (await client.get(f"{MATCHES}/{match_id}")).json()
        r = await client.post(f"{MATCHES}/{match_id}/actions", headers=headers,
                              json={"action": {"type": "setup", "backrow": ROW}, "version": state["version"]})
        assert r.status_code == 200, r.text
    return dict((await client.get(f"{MATCHES}/{match_id}")).json())


def at(app: Any, moment: datetime) -> None:
    app.state.parts.accounts.clock = lambda: moment.timestamp()


async def test_one_digest_a_day_at_the_chosen_hour_whoever_ticks(app: Any, client: httpx.AsyncClient,
                                                                 sink: Sink) -> None:
    ada, ada_h = await account_token(client, app, "Ada")
    bo, bo_h = await account_token(client, app, "Bo")
    state = await correspondence_match(client, ada_h, bo_h)
    waiting, idle = ("ada@example.org", "bo@example.org") if state["to_move"] == "white" else (
        "bo@example.org", "ada@example.org")
    at(app, datetime(2026, 12, 1, 10, 30, tzinfo=UTC))
    for headers, address in ((ada_h, "ada@example.org"), (bo_h, "bo@example.org")):
        await verified(client, sink, headers, address)
        r = await client.put(f"{EMAIL}/preferences", json={"digest": True, "digest_hour": 11}, headers=headers)
        assert r.status_code == 200 and r.json()["preferences"]["digest_hour"] == 11
    sink.clear()
    parts = app.state.parts
    two_processes = [parts.mail, Mailer(parts.engine, parts.settings, clock=parts.accounts.clock)]
    read = parts.service.reads.get

    assert await send_digests(parts.mail, read) == {}  # 10:30: before the hour
    at(app, datetime(2026, 12, 1, 11, 5, tzinfo=UTC))
    two_processes[1].clock = parts.accounts.clock
    ticks = await asyncio.gather(*(send_digests(m, read) for m in two_processes))
    claimed = [outcome for tick in ticks for outcome in tick.values()]
    assert sorted(map(repr, claimed)) == sorted([repr(Delivered()), "None"])  # one mail, one "nothing awaits"
    (digest,) = sink.to(waiting)
    assert sink.to(idle) == []
    text, html = parts_of(digest)
    assert digest["Subject"] == "1 correspondence match awaits your move"
    assert f"{SITE}/matches/{state['id']}" in text and f'href="{SITE}/matches/{state["id"]}"' in html
    assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    assert await send_digests(parts.mail, read) == {}  # later the same day: nothing more
    at(app, datetime(2026, 12, 2, 11, 0, tzinfo=UTC))
    assert list((await send_digests(parts.mail, read)).values()).count(Delivered()) == 1  # the next day's
    assert len(sink.to(waiting)) == 2

    # Its unsubscribe link turns the digest off, and the next day brings none.
    unsubscribe = links(digest)[-1]
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as stranger:
        assert (await stranger.post(path_of(unsubscribe), data={"List-Unsubscribe": "One-Click"})).status_code == 200
    at(app, datetime(2026, 12, 3, 11, 0, tzinfo=UTC))
    assert Delivered() not in (await send_digests(parts.mail, read)).values()
    assert len(sink.to(waiting)) == 2


async def test_a_digest_the_server_could_not_take_is_tried_again_that_day(app: Any, client: httpx.AsyncClient,
                                                                          sink: Sink) -> None:
    ada, ada_h = await account_token(client, app, "Ada")
    bo, bo_h = await account_token(client, app, "Bo")
    state = await correspondence_match(client, ada_h, bo_h)
    headers = ada_h if state["to_move"] == "white" else bo_h
    await verified(client, sink, headers, "mover@example.org")
    await client.put(f"{EMAIL}/preferences", json={"digest": True, "digest_hour": 0}, headers=headers)
    sink.clear()
    at(app, datetime(2026, 12, 1, 9, 0, tzinfo=UTC))
    sink.answers["mover@example.org"] = "421 4.3.2 closing for maintenance"
    parts = app.state.parts
    (first,) = (await send_digests(parts.mail, parts.service.reads.get)).values()
    assert type(first).__name__ == "RetryLater" and sink.to("mover@example.org") == []
    del sink.answers["mover@example.org"]
    assert list((await send_digests(parts.mail, parts.service.reads.get)).values()) == [Delivered()]
    assert len(sink.to("mover@example.org")) == 1
