"""Issue 29: against the computer, a draw offer is answered in the same call (by
its evaluation: tests/bots/test_draw_answer.py), and there is no chat."""

from __future__ import annotations

from typing import Any

import httpx

from tests.bots.test_draw_answer import BLACK_AHEAD, WHITE_AHEAD

from .members import member

BASE = "/api/v1/matches"


async def against_the_computer(client: httpx.AsyncClient, position: str,
                               headers: dict[str, str] | None = None) -> tuple[str, dict[str, str]]:
    """A match from `position` (White to move) with the person White, the computer Black."""
    r = await client.post(BASE, json={"position": position, "seat": "white", "opponent": "bot:random"},
                          headers=headers or {})
    assert r.status_code == 201, r.text
    body = r.json()
    return body["match"]["id"], headers or {"Authorization": f"Bearer {body['token']}"}


async def offer(client: httpx.AsyncClient, match_id: str, auth: dict[str, str]) -> dict[str, Any]:
    r = await client.post(f"{BASE}/{match_id}/draw", json={"offer": True}, headers=auth)
    assert r.status_code == 200, r.text
    return r.json()["match"]  # type: ignore[no-any-return]


async def tail(client: httpx.AsyncClient, match_id: str) -> list[tuple[str, str]]:
    log = (await client.get(f"{BASE}/{match_id}/actions")).json()
    return [(e["player"], e["action"]["type"]) for e in log[-2:]]


async def test_the_computer_behind_accepts_at_once(client: httpx.AsyncClient) -> None:
    match_id, auth = await against_the_computer(client, WHITE_AHEAD)
    match = await offer(client, match_id, auth)
    assert match["status"] == "finished" and match["result"] == {"winner": None, "reason": "agreement"}
    assert await tail(client, match_id) == [("white", "draw_offer"), ("black", "draw_accept")]


async def test_the_computer_ahead_declines_at_once(client: httpx.AsyncClient) -> None:
    match_id, auth = await against_the_computer(client, BLACK_AHEAD)
    match = await offer(client, match_id, auth)
    assert match["status"] == "active" and match["draw_offer"] is None
    assert await tail(client, match_id) == [("white", "draw_offer"), ("black", "draw_decline")]


async def test_no_chat_against_the_computer(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    match_id, auth = await against_the_computer(client, BLACK_AHEAD, ada.token())
    r = await client.post(f"{BASE}/{match_id}/chat", json={"text": "gl hf"}, headers=auth)
    assert r.status_code == 403 and r.json()["error"] == "computer_opponent", r.text
    assert "computer" in r.json()["detail"]
    cy = await member(app, "Cy")  # a spectator still talks with the other spectators
    r = await client.post(f"{BASE}/{match_id}/chat", json={"text": "nice"}, headers=cy.token())
    assert r.status_code == 201, r.text
