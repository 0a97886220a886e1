"""The match chat on the match's ndjson stream: a `chatLine` for each line said
while the stream is open, in the room the caller reads (the players' for a seat,
the spectators' for a watcher); a muted writer's line is never said, and a line
hidden before it went out is never sent."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from ..api.members import member
from ..api.streams import Stream
from .test_chat_api import Clock, accounts_match, say


def path(match_id: str) -> str:
    return f"/api/v1/matches/{match_id}/stream"


async def next_chat(stream: Stream) -> dict[str, Any]:
    """The stream's next `chatLine` (the match's own lines skipped)."""
    while (line := await stream.next())["type"] != "chatLine":
        pass
    return line


async def test_each_reader_hears_its_own_room_live(app: Any, client: httpx.AsyncClient) -> None:
    Clock(app)
    match_id, ada, bo = await accounts_match(app, client)
    cy = await member(app, "Cy")  # a signed-in spectator
    assert (await say(client, match_id, "said before", ada.token())).status_code == 201
    async with Stream(app, "GET", path(match_id), bo.token()) as black, \
            Stream(app, "GET", path(match_id), cy.token(), client="10.1.1.1") as watcher:
        r = await say(client, match_id, "gl hf", ada.token())
        assert r.status_code == 201, r.text
        line = await next_chat(black)  # what was said before the stream opened is not told again
        assert line == {"type": "chatLine", "room": "players", "username": "Ada", "text": "gl hf",
                        "id": r.json()["line"]["id"], "seat": "white", "at": r.json()["line"]["at"]}
        # The watcher's relay went over the players' line in the same pass: it was never its to hear.
        assert (await say(client, match_id, "Hello", cy.token())).status_code == 201
        line = await next_chat(watcher)
        assert (line["room"], line["username"], line["text"]) == ("spectators", "Cy", "Hello")
        assert (await say(client, match_id, "thanks", bo.token())).status_code == 201
        line = await next_chat(black)  # its own line comes back; the spectators' never came
        assert (line["room"], line["username"], line["text"]) == ("players", "Bo", "thanks")


async def test_a_seat_token_reads_the_players_room(app: Any, client: httpx.AsyncClient) -> None:
    Clock(app)
    made = await client.post("/api/v1/matches", json={"seat": "white", "name": "Ada"})
    match_id, white = made.json()["match"]["id"], made.json()["token"]
    joined = await client.post(f"/api/v1/matches/{match_id}/join", json={"name": "Bo"})
    black = {"Authorization": f"Bearer {joined.json()['token']}"}
    async with Stream(app, "GET", path(match_id), {"Authorization": f"Bearer {white}"}) as seat:
        assert (await say(client, match_id, "Hello")).status_code == 201  # a guest spectator
        assert (await say(client, match_id, "Good luck", black)).status_code == 201
        line = await next_chat(seat)
        assert (line["room"], line["username"], line["seat"], line["text"]) == ("players", "Bo", "black",
                                                                                "Good luck")


async def test_a_muted_writer_is_not_heard_and_a_hidden_line_is_not_sent(
        app: Any, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch) -> None:
    Clock(app)
    chat = app.state.parts.chat
    match_id, ada, bo = await accounts_match(app, client)
    async with Stream(app, "GET", path(match_id), ada.token()) as white:
        await chat.mute("Bo", 30, "rude in chat", "root")
        r = await say(client, match_id, "you will lose", bo.token())
        assert r.status_code == 403 and r.json()["error"] == "muted"
        await chat.mute("Bo", 0, "", "root")
        # Said and hidden with no relay woken in between (a nudge, held back): hidden before it went out.
        nudges = chat.nudges

        class Held:
            def nudge(self, key: str) -> None:
                pass

        monkeypatch.setattr(chat, "nudges", Held())
        rude = (await say(client, match_id, "something rude", bo.token())).json()["line"]
        await chat.hide(rude["id"], "root")
        monkeypatch.setattr(chat, "nudges", nudges)
        assert (await say(client, match_id, "Well played", bo.token())).status_code == 201
        line = await next_chat(white)
        assert (line["username"], line["text"]) == ("Bo", "Well played")
