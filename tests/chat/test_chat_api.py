"""The match chat over REST (issue 20), on SQLite and PostgreSQL: two rooms kept
apart, every rule of words (140 characters, text never markup, guests' stock
phrases, floods, repeats), mutes and hidden lines, reports, and what a hostile
caller meets."""

from __future__ import annotations

from typing import Any

import httpx

from app.chat import PHRASES
from tests.conftest import Api, Game

from ..api.members import Member, member

BASE = "/api/v1/matches"


class Clock:
    """The chat's clock, moved by the test."""

    def __init__(self, app: Any) -> None:
        self.now = 1_800_000_000.0
        app.state.parts.chat.clock = lambda: self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


async def say(client: httpx.AsyncClient, game: Game | str, text: str, headers: dict[str, str] | None = None,
              **body: Any) -> httpx.Response:
    match_id = game if isinstance(game, str) else game.id
    return await client.post(f"{BASE}/{match_id}/chat", json={"text": text, **body}, headers=headers or {})


async def read(client: httpx.AsyncClient, game: Game, headers: dict[str, str] | None = None) -> dict[str, Any]:
    r = await client.get(f"{BASE}/{game.id}/chat", headers=headers or {})
    assert r.status_code == 200, r.text
    return r.json()


async def accounts_match(app: Any, client: httpx.AsyncClient) -> tuple[str, Member, Member]:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    r = await client.post(BASE, json={"seat": "white"}, headers=ada.token())
    match_id = r.json()["match"]["id"]
    j = await client.post(f"{BASE}/{match_id}/join", json={}, headers=bo.token())
    assert j.status_code == 200, j.text
    return match_id, ada, bo


async def test_players_talk_in_their_room_and_spectators_in_theirs(app: Any, client: httpx.AsyncClient) -> None:
    Clock(app)
    match_id, ada, bo = await accounts_match(app, client)
    cy = await member(app, "Cy")  # a signed-in spectator
    r = await say(client, match_id, "gl hf, <b>Bo</b>", ada.token())
    assert r.status_code == 201, r.text
    line = r.json()["line"]
    assert line["text"] == "gl hf, <b>Bo</b>"  # kept as said: the page shows it as text
    assert (line["room"], line["author"], line["seat"]) == ("players", "Ada", "white")
    assert (await say(client, match_id, "You too", bo.session())).status_code == 201  # a page: cookie + CSRF
    assert (await say(client, match_id, "Nice opening", cy.token())).status_code == 201
    game = Game(match_id)
    players = await read(client, game, bo.token())
    assert players["room"] == "players" and players["guest"] is False
    assert [x["text"] for x in players["lines"]] == ["gl hf, <b>Bo</b>", "You too"]
    watchers = await read(client, game)  # nobody: a spectator
    assert watchers["room"] == "spectators" and watchers["guest"] is True
    assert [x["text"] for x in watchers["lines"]] == ["Nice opening"]
    assert [x["text"] for x in (await read(client, game, cy.token()))["lines"]] == ["Nice opening"]
    # A spectator naming the players' room is refused, and nothing is written there.
    r = await say(client, match_id, "psst, move the dragon", cy.token(), room="players")
    assert r.status_code == 403 and r.json()["error"] == "wrong_room"
    r = await say(client, match_id, "Hello", room="players")  # a guest spectator
    assert r.status_code == 403 and r.json()["error"] == "wrong_room"
    assert len((await read(client, game, ada.token()))["lines"]) == 2
    # Nor does a player write in the spectators' room.
    r = await say(client, match_id, "hi all", ada.token(), room="spectators")
    assert r.status_code == 403 and r.json()["error"] == "wrong_room"


async def test_a_guest_writes_only_stock_phrases(app: Any, client: httpx.AsyncClient, api: Api) -> None:
    Clock(app)
    game = await api.start()  # two guests' seats
    r = await say(client, game, "you are bad", game.auth("white"))
    assert r.status_code == 403 and r.json()["error"] == "guest_phrases_only"
    assert r.json()["phrases"] == list(PHRASES)
    r = await say(client, game, "Good luck", game.auth("white"))
    assert r.status_code == 201 and r.json()["line"]["author"] == "Ada"
    assert (await say(client, game, "Have fun", game.auth("black"))).status_code == 201
    body = await read(client, game, game.auth("black"))
    assert body["guest"] is True and body["phrases"] == list(PHRASES)
    assert [x["text"] for x in body["lines"]] == ["Good luck", "Have fun"]
    assert [x["seat"] for x in body["lines"]] == ["white", "black"]
    r = await say(client, game, "Hello there")  # a guest spectator, free text
    assert r.status_code == 403 and r.json()["error"] == "guest_phrases_only"
    assert (await say(client, game, "Hello")).status_code == 201
    assert [x["author"] for x in (await read(client, game))["lines"]] == ["Guest"]


async def test_length_and_bad_text_are_refused_with_a_reason(app: Any, client: httpx.AsyncClient) -> None:
    Clock(app)
    match_id, ada, _ = await accounts_match(app, client)
    assert (await say(client, match_id, "x" * 140, ada.token())).status_code == 201
    for text, words in (("y" * 141, "at most 140"), ("   ", "says something"), ("a\u0000b", "NUL"),
                        ("a\u0007b", "control character")):
        r = await say(client, match_id, text, ada.token())
        assert r.status_code == 400, r.text
        assert r.json()["error"] == "bad_chat_line" or r.json()["error"] == "bad_request"
        assert words in r.json()["detail"]
    r = await client.post(f"{BASE}/{match_id}/chat", json={"text": 5}, headers=ada.token())
    assert r.status_code in (400, 422) and "error" in r.json()
    r = await say(client, "nosuchmatch", "hi", ada.token())
    assert r.status_code == 404


async def test_floods_and_repeats_are_refused_and_time_lets_them_through(app: Any, client: httpx.AsyncClient) -> None:
    clock = Clock(app)
    match_id, ada, _ = await accounts_match(app, client)
    for n in range(4):
        assert (await say(client, match_id, f"line {n}", ada.token())).status_code == 201
        clock.advance(1)
    r = await say(client, match_id, "line 4", ada.token())  # the fifth within 10 s
    assert r.status_code == 429 and r.json()["error"] == "chat_flood"
    assert r.headers["Retry-After"] == "6"
    clock.advance(6)
    assert (await say(client, match_id, "line 4", ada.token())).status_code == 201
    for again in ("line 4", "LINE 3"):  # either of the last two, whatever the case
        r = await say(client, match_id, again, ada.token())
        assert r.status_code == 409 and r.json()["error"] == "chat_repeated", r.text
    clock.advance(60)
    assert (await say(client, match_id, "line 2", ada.token())).status_code == 201  # not one of the last two


async def test_muted_hidden_and_reported_lines(app: Any, client: httpx.AsyncClient) -> None:
    Clock(app)
    chat = app.state.parts.chat
    match_id, ada, bo = await accounts_match(app, client)
    rude = (await say(client, match_id, "something rude", bo.token())).json()["line"]
    assert (await say(client, match_id, "Thanks", ada.token())).status_code == 201
    # Ada reports Bo's line: it joins the admins' queue.
    r = await client.post(f"{BASE}/{match_id}/chat/{rude['id']}/report", headers=ada.token())
    assert r.status_code == 202, r.text
    queue = await chat.reported()
    assert [(x["id"], x["reports"]) for x in queue] == [(rude["id"], 1)]
    # A spectator cannot report a line of the players' room (it cannot see it).
    r = await client.post(f"{BASE}/{match_id}/chat/{rude['id']}/report")
    assert r.status_code == 404
    await chat.hide(rude["id"], "root")
    game = Game(match_id)
    for who in (ada, bo):
        assert [x["text"] for x in (await read(client, game, who.token()))["lines"]] == ["Thanks"]
    assert await chat.reported() == []
    await chat.mute("bo", 30, "rude in chat", "root")
    r = await say(client, match_id, "sorry", bo.token())
    assert r.status_code == 403 and r.json()["error"] == "muted"
    assert "muted in chat until" in r.json()["detail"]
    assert (await read(client, game, bo.token()))["muted_until"] is not None
    await chat.mute("Bo", 0, "", "root")  # lifted
    assert (await say(client, match_id, "sorry", bo.token())).status_code == 201


async def test_a_read_token_reads_but_does_not_write_and_a_cookie_needs_csrf(app: Any,
                                                                             client: httpx.AsyncClient) -> None:
    Clock(app)
    match_id, ada, _ = await accounts_match(app, client)
    r = await say(client, match_id, "hi", ada.token(ada.read))
    assert r.status_code == 403 and r.json()["error"] == "insufficient_scope"
    r = await say(client, match_id, "hi", ada.session(csrf=False))
    assert r.status_code == 403 and r.json()["error"] == "csrf_failed"
    assert (await read(client, Game(match_id), ada.token(ada.read)))["room"] == "players"
    r = await say(client, match_id, "hi", {"Authorization": "Bearer not-a-seat"})
    assert r.status_code == 401


async def test_chat_is_exported_with_the_match_and_never_with_a_secret(app: Any, client: httpx.AsyncClient) -> None:
    Clock(app)
    from app.admin.detail import export

    match_id, ada, bo = await accounts_match(app, client)
    await say(client, match_id, "Good luck", ada.token())
    hidden = (await say(client, match_id, "rude", bo.token())).json()["line"]
    await app.state.parts.chat.hide(hidden["id"], "root")
    out = await export(app.state.parts.engine, match_id)
    assert [(x["text"], x["hidden"]) for x in out["chat"]] == [("Good luck", False), ("rude", True)]
    assert out["seed"] is None  # the match runs: no seed, chat or not
    said = str(out["chat"])
    assert "author_key" not in said and "account:" not in said and "seed" not in said


async def test_lines_sent_at_once_are_counted_one_by_one(app: Any, client: httpx.AsyncClient) -> None:
    """Eight lines of one writer at the same instant: the flood check and the
    insert of each run one at a time, so four pass and four are refused."""
    import asyncio

    Clock(app)
    match_id, ada, _ = await accounts_match(app, client)
    said = await asyncio.gather(*(say(client, match_id, f"line {n}", ada.token()) for n in range(8)))
    assert sorted(r.status_code for r in said) == [201] * 4 + [429] * 4, [r.text for r in said]


async def test_a_line_is_reported_once_per_reporter(app: Any, client: httpx.AsyncClient) -> None:
    """Report pressed twice (or twice at once) by one player is one report in the queue."""
    import asyncio

    Clock(app)
    chat = app.state.parts.chat
    match_id, ada, bo = await accounts_match(app, client)
    rude = (await say(client, match_id, "something rude", bo.token())).json()["line"]
    mine = (await say(client, match_id, "Thanks", ada.token())).json()["line"]
    url = f"{BASE}/{match_id}/chat/{rude['id']}/report"
    twice = await asyncio.gather(*(client.post(url, headers=ada.token()) for _ in range(2)))
    assert [r.status_code for r in twice] == [202, 202]
    assert (await client.post(url, headers=ada.token())).status_code == 202
    assert [(x["id"], x["reports"]) for x in await chat.reported()] == [(rude["id"], 1)]
    assert (await client.post(f"{BASE}/{match_id}/chat/{mine['id']}/report", headers=bo.token())).status_code == 202
    assert [(x["id"], x["reports"]) for x in await chat.reported()] == [(rude["id"], 1), (mine["id"], 1)]


async def test_a_report_says_why_and_is_undone_within_a_minute(app: Any, client: httpx.AsyncClient) -> None:
    clock = Clock(app)
    chat = app.state.parts.chat
    match_id, ada, bo = await accounts_match(app, client)
    rude = (await say(client, match_id, "something rude", bo.token())).json()["line"]
    url = f"{BASE}/{match_id}/chat/{rude['id']}/report"
    r = await client.post(url, json={"reason": "cheating"}, headers=ada.token())
    assert r.status_code == 202, r.text
    [queued] = await chat.reported()
    assert (queued["id"], queued["reports"], queued["reasons"]) == (rude["id"], 1, {"cheating": 1})
    # Pressed by mistake: withdrawn within the minute, the line leaves the queue.
    clock.advance(59)
    r = await client.delete(url, headers=ada.token())
    assert r.status_code == 200 and r.json() == {"reported": False}, r.text
    assert await chat.reported() == []
    assert (await client.delete(url, headers=ada.token())).status_code == 404  # nothing of Ada's to withdraw
    # Reported again: after the minute it stands.
    assert (await client.post(url, json={"reason": "abuse"}, headers=ada.token())).status_code == 202
    clock.advance(61)
    r = await client.delete(url, headers=ada.token())
    assert r.status_code == 409 and r.json()["error"] == "report_kept", r.text
    assert "within 60 s" in r.json()["detail"]
    assert [(x["id"], x["reasons"]) for x in await chat.reported()] == [(rude["id"], {"abuse": 1})]
    # A reason not offered is refused in words; no body at all is "other", as before.
    mine = (await say(client, match_id, "Thanks", ada.token())).json()["line"]
    mine_url = f"{BASE}/{match_id}/chat/{mine['id']}/report"
    r = await client.post(mine_url, json={"reason": "boring"}, headers=bo.token())
    assert r.status_code == 400 and "reason" in r.text, r.text
    assert (await client.post(mine_url, headers=bo.token())).status_code == 202
    assert {x["id"]: x["reasons"] for x in await chat.reported()}[mine["id"]] == {"other": 1}
