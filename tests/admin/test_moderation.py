"""Moderation: an admin aborts or adjudicates a running match; it is saved,
logged, and reaches the players' and watchers' sockets like any ending."""

from __future__ import annotations

import random
from typing import Any

from tests.admin.conftest import AdminClient
from tests.conftest import Api


def is_update(m: dict[str, Any]) -> bool:
    return m["type"] == "update"


async def test_an_adjudication_reaches_the_players_socket_live(admin: AdminClient, api: Api, sockets: Any) -> None:
    game = await api.start()
    await api.setups(game)
    white = await sockets(game.id, token=game.tokens["white"])
    watcher = await sockets(game.id)
    assert (await white.receive())["type"] == "snapshot"
    assert (await watcher.receive())["type"] == "snapshot"
    r = await admin.moderate(game.id, "black", "White's client kept crashing")
    assert r.status_code == 200, r.text
    assert r.json()["match"]["result"] == {"winner": "black", "reason": "adjudicated"}
    for sock in (white, watcher):
        update, _ = await sock.receive_until(is_update)
        assert update["version"] == game.version + 1 and update["player"] is None
        assert update["action"] == {"type": "adjudicate", "winner": "black", "note": "White's client kept crashing"}
        assert update["match"]["status"] == "finished" and update["match"]["phase"] == "over"
        assert update["match"]["result"] == {"winner": "black", "reason": "adjudicated"}
        assert update["match"]["seed"]  # revealed at the end, as for any ending
    log = (await api.client.get(f"/api/v1/matches/{game.id}/actions")).json()
    assert log[-1]["action"]["type"] == "adjudicate" and log[-1]["player"] is None
    r = await api.post(game, "white", {"type": "pass"})
    assert r.status_code == 409 and r.json()["error"] == "match_over"


async def test_an_admin_aborts_at_any_phase_a_player_cannot(admin: AdminClient, api: Api) -> None:
    game = await api.start()
    await api.setups(game)
    rng = random.Random(5)
    for _ in range(4):
        await api.step(game, rng)
    r = await api.client.post(f"/api/v1/matches/{game.id}/abort", headers=game.auth("white"))
    assert r.status_code == 403  # too late for a player
    r = await admin.moderate(game.id, "abort", "duplicate match")
    assert r.status_code == 200, r.text
    assert r.json()["match"]["result"] == {"winner": None, "reason": "aborted"}
    waiting = await api.create()
    r = await admin.moderate(waiting.id, "abort", "spam")
    assert r.status_code == 200 and r.json()["match"]["status"] == "finished"


async def test_what_cannot_be_moderated_is_refused_clearly(admin: AdminClient, api: Api) -> None:
    waiting = await api.create()
    r = await admin.moderate(waiting.id, "white", "no opponent")
    assert r.status_code == 403 and "waits" in r.json()["detail"]
    game = await api.start()
    for verdict, reason, status in (("winner", "x", 400), ("draw", "   ", 400), ("draw", "x" * 501, 400)):
        r = await admin.moderate(game.id, verdict, reason)
        assert r.status_code == status, (verdict, r.text)
    r = await admin.http.post(f"/admin/api/matches/{game.id}/moderate", json={"verdict": "draw"},
                              headers={"X-CSRF-Token": admin.csrf})
    assert r.status_code == 400 and "reason" in r.json()["detail"]
    assert (await admin.moderate("nosuchmatch", "draw")).status_code == 404
    assert (await admin.moderate(game.id, "draw", "agreed by mail")).status_code == 200
    r = await admin.moderate(game.id, "abort", "again")
    assert r.status_code == 409 and r.json()["error"] == "match_over"
    assert (await api.state(game))["result"] == {"winner": None, "reason": "adjudicated"}


async def test_the_match_page_form_moderates(admin: AdminClient, api: Api) -> None:
    game = await api.start()
    await api.setups(game)
    page = await admin.get(f"/admin/matches/{game.id}")
    assert 'value="white"' in page.text and "End the match" in page.text
    r = await admin.post(f"/admin/matches/{game.id}/moderate",
                         data={"verdict": "white", "reason": "Black left", "csrf_token": admin.csrf})
    assert r.status_code == 303 and r.headers["location"] == f"/admin/matches/{game.id}?moderated=1"
    assert (await api.state(game))["result"] == {"winner": "white", "reason": "adjudicated"}
    page = await admin.get(r.headers["location"])
    assert "The match is ended." in page.text and "End the match" not in page.text
    again = await admin.post(f"/admin/matches/{game.id}/moderate",
                             data={"verdict": "black", "reason": "oops", "csrf_token": admin.csrf})
    assert again.status_code == 409 and "the match is over" in again.text
