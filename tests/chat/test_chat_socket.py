"""The match chat on the match's websocket (issue 20): a line reaches the
opponent's socket live, a spectator's line stays with the spectators, a hidden
line is taken back from everyone and never sent to a newcomer, and a socket's
refusals are the REST ones."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import Api

from ..api.members import member
from ..realtime.conftest import Socket
from .test_chat_api import Clock, accounts_match, say


def is_chat(message: dict[str, Any]) -> bool:
    return message["type"] == "chat"


async def follow(sock: Socket) -> dict[str, Any]:
    await sock.send({"type": "chat_follow"})
    room, _ = await sock.receive_until(lambda m: m["type"] == "chat_room")
    return room


async def test_a_line_reaches_the_opponent_live_and_spectators_keep_their_own(
        app: Any, api: Api, sockets: Any) -> None:
    Clock(app)
    game = await api.start()
    white = await sockets(game.id, token=game.tokens["white"])
    black = await sockets(game.id, token=game.tokens["black"])
    watcher = await sockets(game.id, client="10.1.1.1")
    assert (await follow(black))["room"] == "players"
    assert (await follow(white))["guest"] is True
    assert (await follow(watcher))["room"] == "spectators"
    await white.send({"type": "chat", "text": "Good luck", "id": "c1"})
    ack, _ = await white.receive_until(lambda m: m["type"] == "chat_ack")
    assert ack["id"] == "c1" and ack["line"]["text"] == "Good luck"
    got, _ = await black.receive_until(is_chat)
    assert [(x["author"], x["text"]) for x in got["lines"]] == [("Ada", "Good luck")]
    # A spectator's line reaches the spectators, never the players.
    await watcher.send({"type": "chat", "text": "Hello", "id": "w1"})
    got, _ = await watcher.receive_until(is_chat)
    assert got["room"] == "spectators" and [x["text"] for x in got["lines"]] == ["Hello"]
    # ...and it asks for the players' room in vain.
    await watcher.send({"type": "chat", "text": "Thanks", "room": "players", "id": "w2"})
    refused, _ = await watcher.receive_until(lambda m: m["type"] == "error")
    assert (refused["id"], refused["error"]) == ("w2", "wrong_room")
    await black.send({"type": "chat", "text": "Have fun", "id": "b1"})
    got, before = await white.receive_until(lambda m: is_chat(m) and m["lines"][0]["text"] == "Have fun")
    seen = [x["text"] for m in [*before, got] if is_chat(m) for x in m["lines"]]
    assert "Hello" not in seen and "Thanks" not in seen
    # A guest's free text over the socket is refused with the phrases' reason.
    await black.send({"type": "chat", "text": "<script>alert(1)</script>", "id": "b2"})
    refused, _ = await black.receive_until(lambda m: m["type"] == "error")
    assert refused["error"] == "guest_phrases_only"


async def test_a_hidden_line_is_taken_back_and_never_sent_again(app: Any, client: httpx.AsyncClient,
                                                              sockets: Any) -> None:
    Clock(app)
    match_id, ada, bo = await accounts_match(app, client)
    a = await sockets(match_id, headers=ada.token())
    await follow(a)
    rude = (await say(client, match_id, "something rude", bo.token())).json()["line"]
    got, _ = await a.receive_until(is_chat)
    assert got["lines"][0]["id"] == rude["id"]
    await app.state.parts.chat.hide(rude["id"], "root")
    gone, _ = await a.receive_until(lambda m: m["type"] == "chat_hidden")
    assert gone["ids"] == [rude["id"]]
    await say(client, match_id, "sorry", bo.token())
    b = await sockets(match_id, headers=bo.token())  # a newcomer: the backlog, without the hidden line
    await follow(b)
    got, _ = await b.receive_until(is_chat)
    assert [x["text"] for x in got["lines"]] == ["sorry"]


async def test_a_signed_in_spectator_writes_as_itself_and_a_muted_one_is_told(
        app: Any, client: httpx.AsyncClient, sockets: Any) -> None:
    Clock(app)
    match_id, _, _ = await accounts_match(app, client)
    cy = await member(app, "Cy")
    sock = await sockets(match_id, headers=cy.token())
    room = await follow(sock)
    assert (room["room"], room["guest"]) == ("spectators", False)
    await sock.send({"type": "chat", "text": "what a move!", "id": "x"})
    ack, _ = await sock.receive_until(lambda m: m["type"] == "chat_ack")
    assert ack["line"]["author"] == "Cy"
    await app.state.parts.chat.mute("Cy", 10, "spam", "root")
    await sock.send({"type": "chat", "text": "again", "id": "y"})
    refused, _ = await sock.receive_until(lambda m: m["type"] == "error")
    assert refused["error"] == "muted" and "until" in refused["detail"]


async def test_a_socket_that_turned_the_chat_off_is_sent_no_line(app: Any, client: httpx.AsyncClient,
                                                                sockets: Any) -> None:
    """"Turn chat off" unfollows the room: the lines said meanwhile are not sent to
    the socket; turned on again, it is sent them as the backlog."""
    Clock(app)
    match_id, ada, bo = await accounts_match(app, client)
    a = await sockets(match_id, headers=ada.token())
    await follow(a)
    await a.send({"type": "chat_unfollow"})
    off, _ = await a.receive_until(lambda m: m["type"] in ("chat_unfollowed", "error"))
    assert off["type"] == "chat_unfollowed", off
    assert app.state.parts.relay.following() == 0  # nobody here follows the match's chat
    said = (await say(client, match_id, "while you were away", bo.token())).json()["line"]
    await a.send({"type": "chat_follow"})
    _, before = await a.receive_until(lambda m: m["type"] == "chat_room")
    assert not [m for m in before if is_chat(m)]  # nothing came while the chat was off
    got, _ = await a.receive_until(is_chat)
    assert [x["id"] for x in got["lines"]] == [said["id"]]
