"""One rule for who a match's live feed speaks for, on the websocket and the
match stream alike (issue 31, break 3; docs/api.md, "Who a live feed speaks
for"): a seat's token, or an account holding a seat, is that seat; no
credential, or a valid account credential whose account holds no seat of the
match, watches; a token that proves nothing (a seat token of no seat here, an
account token unknown, revoked or of a closed account) is refused, never a
watcher in disguise."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from ..realtime.conftest import Closed, Socket, ws_path
from ..waiting import DEADLINE
from .members import Member, member
from .streams import Stream
from .test_account_play import made

ROOT = Path(__file__).resolve().parents[2]


async def stream_speaks_for(app: Any, match_id: str, headers: dict[str, str]) -> str:
    """"white", "black", "watcher" or "refused <status>", as the match stream answers."""
    async with Stream(app, "GET", f"/api/v1/matches/{match_id}/stream", headers) as plain:
        if plain.status != 200:
            return f"refused {plain.status}"
    async with Stream(app, "GET", f"/api/v1/matches/{match_id}/stream?legal=true", headers) as asked:
        if asked.status == 400:
            return "watcher"  # legal=true needs a seat: the stream admitted a watcher
        assert asked.status == 200
        while (first := await asked.next())["type"] != "snapshot":
            pass
        return "white" if "legal" in first else "black"  # White sets up first: only its seat is told


async def socket_speaks_for(app: Any, match_id: str, headers: dict[str, str]) -> str:
    """The same, as the websocket's first message (`hello`'s seat) or its close says."""
    try:
        sock = await Socket.open(app, ws_path(match_id), headers)
        first = await asyncio.wait_for(sock.inbox.get(), DEADLINE)
    except Closed as closed:
        return f"refused {closed.code}"
    try:
        if first["type"] == "websocket.close":
            return f"refused {first.get('code')}"
        hello = json.loads(first["text"])
        assert hello["type"] == "hello", hello
        return hello["seat"] or "watcher"
    finally:
        await sock.close()


@pytest.fixture
async def cy(app: Any) -> Member:
    return await member(app, "Cy")


async def test_the_stream_and_the_socket_speak_for_the_same_caller(
        app: Any, client: httpx.AsyncClient, ada: Member, bea: Member, cy: Member) -> None:
    game = await made(client, ada, bea)
    other = await made(client, bea)
    match_id = game["id"]
    revoked = await member(app, "Dee")
    accounts = app.state.parts.accounts
    play = next(t for t in await accounts.tokens(revoked.account) if t.name == "client")
    assert await accounts.revoke_token(revoked.account, play.id)
    closed = await member(app, "Eve")
    await accounts.close("Eve")

    def bearer(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    cases = {
        "no credential": ({}, "watcher", "watcher"),
        "White's seat token": (bearer(game["white"]["token"]), "white", "white"),
        "a seat token of another match": (bearer(other["white"]["token"]), "refused 401", "refused 1008"),
        "the account holding Black, read scope": (bearer(bea.read), "black", "black"),
        "an account holding no seat, play scope": (bearer(cy.play), "watcher", "watcher"),
        "an account holding no seat, read scope": (bearer(cy.read), "watcher", "watcher"),
        "a revoked account token": (bearer(revoked.play), "refused 401", "refused 1008"),
        "a closed account's token": (bearer(closed.read), "refused 401", "refused 1008"),
        "an unknown account token": (bearer("mgo_no-such-token-0123456789"), "refused 401", "refused 1008"),
    }
    for what, (headers, by_stream, by_socket) in cases.items():
        assert await stream_speaks_for(app, match_id, headers) == by_stream, what
        assert await socket_speaks_for(app, match_id, headers) == by_socket, what


def test_the_rule_is_written_once_and_both_feeds_point_to_it() -> None:
    api = (ROOT / "docs" / "api.md").read_text()
    assert api.count("### Who a live feed speaks for") == 1
    stream = api.split("## A match as a stream (ndjson)")[1].split("\n## ")[0]
    socket = api.split("### Opening")[1].split("\n### ")[0]
    for section in (stream, socket):
        assert "(#who-a-live-feed-speaks-for)" in section
    assert "A token that proves no seat:\n  `401 unauthorized`" not in stream  # the old, contrary promise
