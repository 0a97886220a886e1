"""An action's `id` names one action: a true resend (the same id, the same
action, the same version) is answered as the first was and says so; the same id
for another action, or for the same action on another version, is refused
`409 id_taken` naming the version it was used on, and applies nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.conftest import ROW, Api, Game

from ..realtime.conftest import Socket, ws_path

SETUP = {"type": "setup", "backrow": ROW}
FAST = "application/json"
FULL = "application/json; charset=utf-8"  # not the fast path's (app/api/fast.py): the declared route's


async def post(api: Api, game: Game, colour: str, body: dict[str, Any], content_type: str) -> Any:
    return await api.client.post(f"{api.base}/{game.id}/actions", json=body,
                                 headers={**game.auth(colour), "content-type": content_type})


@pytest.mark.parametrize("content_type", [FAST, FULL])
async def test_a_true_resend_is_the_first_answer_marked_replayed(api: Api, content_type: str) -> None:
    game = await api.start()
    body = {"action": SETUP, "version": game.version, "id": "w-1"}
    first = await post(api, game, "white", body, content_type)
    assert first.status_code == 200 and "idempotency-replayed" not in first.headers
    await api.state(game)
    await api.act(game, "black", SETUP)  # the match moves on: still the first answer
    again = await post(api, game, "white", body, content_type)
    assert again.status_code == 200 and again.headers["idempotency-replayed"] == "true"
    assert again.json() == first.json()
    without_id = await post(api, game, "white", {"action": SETUP, "version": body["version"]}, content_type)
    assert without_id.status_code == 200 and without_id.headers["idempotency-replayed"] == "true"
    assert (await api.state(game))["version"] == game.version


@pytest.mark.parametrize("content_type", [FAST, FULL])
async def test_the_same_id_for_another_action_or_version_is_id_taken(api: Api, content_type: str) -> None:
    game = await api.start()
    used_on = game.version
    first = await post(api, game, "white", {"action": SETUP, "version": used_on, "id": "x"}, content_type)
    assert first.status_code == 200
    await api.state(game)
    cases = [
        ("black", {"action": SETUP, "version": game.version, "id": "x"}),  # another seat, another action
        ("white", {"action": {"type": "setup", "backrow": ROW[::-1]}, "version": used_on, "id": "x"}),
        ("white", {"action": SETUP, "version": used_on + 1, "id": "x"}),  # the same action, on another version
    ]
    for colour, body in cases:
        r = await post(api, game, colour, body, content_type)
        assert r.status_code == 409, (body, r.text)
        answer = r.json()
        assert answer["error"] == "id_taken" and answer["used_on"] == used_on, answer
        assert f"version {used_on}" in answer["detail"]
        assert (await api.state(game))["version"] == used_on + 1  # nothing applied


async def test_a_restarted_id_counter_on_a_newer_version_is_refused_not_taken_for_done(api: Api) -> None:
    """A bot reusing an id for the same action later in the match (its counter
    restarted) is told so, rather than answered as if it had played."""
    game = await api.start()
    await api.setups(game)
    rng = random.Random(5)
    played: dict[str, tuple[dict[str, Any], int]] = {}  # White's ids: (action, version played on)
    for n in range(400):
        colour = game.match["to_move"]
        legal = await api.legal(game, colour)
        if colour == "white":
            for ref, (action, on) in played.items():
                if action in legal["actions"]:  # the same action again, on a newer version, with its old id
                    before = game.version
                    r = await api.post(game, "white", action, id=ref)
                    assert r.status_code == 409 and r.json()["error"] == "id_taken", r.text
                    assert r.json()["used_on"] == on
                    assert (await api.state(game))["version"] == before
                    return
            action = rng.choice(legal["actions"])
            played[f"w{n}"] = (action, game.version)
            await api.act(game, "white", action, id=f"w{n}")
        else:
            await api.act(game, colour, rng.choice(legal["actions"]))
        if game.match["status"] == "finished":
            break
    raise AssertionError("White never had the same action to play twice")


async def test_the_socket_says_replayed_and_id_taken(app: Any, api: Api) -> None:
    game = await api.start()
    sock = await Socket.open(app, ws_path(game.id, token=game.tokens["white"]))
    try:
        v0 = game.version
        message = {"type": "action", "action": SETUP, "version": v0, "id": "s-1"}
        await sock.send(message)
        ack, _ = await sock.receive_until(lambda m: m["type"] in ("ack", "error"))
        assert ack == {"type": "ack", "id": "s-1", "version": v0 + 1}
        await sock.send(message)
        again, _ = await sock.receive_until(lambda m: m["type"] in ("ack", "error"))
        assert again == {"type": "ack", "id": "s-1", "version": v0 + 1, "replayed": True}
        await sock.send({**message, "version": v0 + 1})
        taken, _ = await sock.receive_until(lambda m: m["type"] in ("ack", "error"))
        assert taken["type"] == "error" and taken["error"] == "id_taken" and taken["used_on"] == v0
        assert (await api.state(game))["version"] == v0 + 1
    finally:
        await sock.close()
