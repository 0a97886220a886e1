"""Issue 12, defects 1 and 2: text a client can send but nobody can print.

A lone surrogate (`"\\ud800"`, legal in JSON's escapes, not in UTF-8) in an
action's field *name* reached the rules' error message, whose answer could not
be encoded: a 500 (and a reset connection) over REST, no answer and a dead
socket over the websocket. JSON nested deeper than the parser's stack raised
RecursionError over the websocket and closed it without a word. Each is a
`bad_request` that names the problem, and a socket lives on after it.

Every answer here must encode as UTF-8 (a real server writes bytes; the test
transport would not notice an unencodable string otherwise).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tests.conftest import Api
from tests.realtime.conftest import TIMEOUT, Socket, ws_path

FAST = "application/json"
FULL = "application/json; charset=utf-8"  # not the fast path's: the declared route answers
LONE = "\\ud800"  # as written in the JSON text: the escape of a lone surrogate

ACTIONS = {
    "key of an action": '{"type": "pass", "' + LONE + '": 1}',
    "key of a power": '{"type": "remove", "mage": "animist", "power": {"' + LONE + '": ["b2", "c3"]}}',
    "key only": '{"' + LONE + '": "pass"}',
    "value": '{"type": "place", "mage": "' + LONE + '", "minion": "beast"}',
}


def _encodable(text: str) -> None:
    text.encode("utf-8")  # raises UnicodeEncodeError on a lone surrogate


@pytest.mark.parametrize("content_type", [FAST, FULL], ids=["fast path", "declared route"])
@pytest.mark.parametrize("case", list(ACTIONS))
async def test_a_lone_surrogate_in_an_action_is_a_bad_request(api: Api, case: str, content_type: str) -> None:
    game = await api.start()
    body = '{"action": ' + ACTIONS[case] + ', "version": ' + str(game.version) + "}"
    r = await api.client.post(f"{api.base}/{game.id}/actions", content=body.encode(),
                              headers={**game.auth("white"), "content-type": content_type})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_request" and r.json()["detail"]
    assert (await api.state(game))["version"] == game.version


@pytest.mark.parametrize("content_type", [FAST, FULL], ids=["fast path", "declared route"])
async def test_a_lone_surrogate_in_an_envelope_key_is_a_bad_request(api: Api, content_type: str) -> None:
    game = await api.start()
    body = '{"action": {"type": "pass"}, "version": 1, "' + LONE + '": 1}'
    r = await api.client.post(f"{api.base}/{game.id}/actions", content=body.encode(),
                              headers={**game.auth("white"), "content-type": content_type})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_request"
    for url, raw in ((api.base, '{"' + LONE + '": 1}'), (api.base, '{"name": "' + LONE + '"}'),
                     (f"{api.base}/{game.id}/join", '{"' + LONE + '": 1}'),
                     (f"{api.base}/{game.id}/draw", '{"' + LONE + '": true}')):
        r = await api.client.post(url, content=raw.encode(),
                                  headers={**game.auth("black"), "content-type": content_type})
        assert r.status_code == 400, (url, raw, r.text)
        assert r.json()["error"] == "bad_request"


DEEP = "[" * 5000 + "]" * 5000  # 10 kB: under the socket's frame limit


@pytest.mark.parametrize("content_type", [FAST, FULL], ids=["fast path", "declared route"])
@pytest.mark.parametrize("where", ["whole body", "action", "a field of the action"])
async def test_deep_nesting_over_rest_is_a_bad_request(api: Api, where: str, content_type: str) -> None:
    game = await api.start()
    body = {
        "whole body": DEEP,
        "action": '{"action": ' + DEEP + ', "version": 1}',
        "a field of the action": '{"action": {"type": "pass", "x": ' + DEEP + '}, "version": 1}',
    }[where]
    r = await api.client.post(f"{api.base}/{game.id}/actions", content=body.encode(),
                              headers={**game.auth("white"), "content-type": content_type})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_request"


async def _error_then_alive(sock: Socket, text: str) -> dict[str, Any]:
    """Send `text`; the answer is an error frame, and the socket still answers a ping."""
    await sock.send(text)
    while True:
        message = await asyncio.wait_for(sock.inbox.get(), TIMEOUT)  # a dead socket says nothing
        assert message["type"] == "websocket.send", message  # not a close
        _encodable(message["text"])
        reply = json.loads(message["text"])
        if reply["type"] == "error":
            break
    await sock.send({"type": "ping"})
    pong, _ = await sock.receive_until(lambda m: m["type"] == "pong")
    assert pong == {"type": "pong"}
    return reply


@pytest.mark.parametrize("case", list(ACTIONS))
async def test_a_lone_surrogate_over_the_socket_is_answered(app: Any, api: Api, case: str) -> None:
    game = await api.start()
    sock = await Socket.open(app, ws_path(game.id, token=game.tokens["white"]))
    try:
        await sock.receive()  # the snapshot
        text = '{"type": "action", "action": ' + ACTIONS[case] + ', "version": ' + str(game.version) + "}"
        reply = await _error_then_alive(sock, text)
        assert reply["error"] == "bad_request" and reply["detail"]
        for text in ('{"type": "' + LONE + '"}', '{"type": "action", "' + LONE + '": 1}'):
            reply = await _error_then_alive(sock, text)
            assert reply["error"] == "bad_request"
    finally:
        await sock.close()
    assert (await api.state(game))["version"] == game.version


async def test_deep_nesting_over_the_socket_is_answered(app: Any, api: Api) -> None:
    game = await api.start()
    sock = await Socket.open(app, ws_path(game.id, token=game.tokens["white"]))
    try:
        await sock.receive()
        for text in (DEEP, '{"type": "action", "action": {"type": "pass", "x": ' + DEEP + '}, "version": 1}',
                     '{"type": "ping", "x": ' + DEEP + "}"):
            reply = await _error_then_alive(sock, text)
            assert reply["error"] == "bad_request", text[:40]
            assert "nest" in reply["detail"] or "JSON" in reply["detail"], reply
    finally:
        await sock.close()


async def test_rules_refusals_quote_names_printably(api: Api) -> None:
    """The refusal names the odd field (escaped), so a person can see which."""
    game = await api.start()
    body = '{"action": {"type": "pass", "' + LONE + 'x": 1}, "version": ' + str(game.version) + "}"
    r = await api.client.post(f"{api.base}/{game.id}/actions", content=body.encode(),
                              headers={**game.auth("white"), "content-type": FAST})
    assert r.status_code == 400
    assert "\\ud800x" in r.json()["detail"], r.json()
