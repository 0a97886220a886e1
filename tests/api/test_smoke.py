"""The tricky parts of the REST API, on SQLite and on PostgreSQL: whole matches,
concurrent and repeated submissions, clocks, abandonment, secrets (R20)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx

from app.main import create_app
from app.matches import MatchService, RecordingPublisher
from app.matches.store import replay_match

from ..conftest import ROW, Api, FakeTime, created_in_turn, make_settings

SETUP = {"type": "setup", "backrow": ROW}


async def test_a_random_match_played_over_rest_to_its_end(api: Api, service: MatchService) -> None:
    rng = random.Random(7)
    game = await api.start(no_progress_rounds=2)
    seen: list[str] = []
    original = api.client.send

    async def recording_send(request: httpx.Request, **kw: Any) -> httpx.Response:
        response = await original(request, **kw)
        await response.aread()
        seen.append(response.text)
        return response

    api.client.send = recording_send  # type: ignore[method-assign]
    final = await api.play_random(game, rng)
    api.client.send = original  # type: ignore[method-assign]

    assert final["status"] == "finished" and final["phase"] == "over"
    assert final["result"]["reason"] in {"eliminated", "five_greater", "three_of_a_kind", "no_progress"}
    seed = final["seed"]
    assert seed and final["seed_commitment"]
    # R20: no response before the end held the seed (the last one does).
    assert all(seed not in text for text in seen[:-1])
    assert seed in seen[-1]
    # The log is the truth: replaying it gives the stored snapshot exactly.
    replayed, snapshot = await replay_match(service.engine, game.id)  # type: ignore[misc]
    assert replayed == snapshot
    log = (await api.client.get(f"/api/v1/matches/{game.id}/actions")).json()
    assert [e["version"] for e in log] == list(range(1, final["version"] + 1))
    assert log[0]["action"] == {"type": "join"} and log[0]["player"] == "black"
    assert all(set(e) == {"version", "player", "action", "automatic", "at"} for e in log)


async def test_fifty_identical_submissions_land_once(api: Api, service: MatchService) -> None:
    game = await api.start()
    before = game.version
    responses = await asyncio.gather(*[
        api.post(game, "white", SETUP, version=before) for _ in range(50)])
    codes = [r.status_code for r in responses]
    assert set(codes) <= {200, 409}, codes
    assert codes.count(200) >= 1
    state = await api.state(game)
    assert state["version"] == before + 1
    log = (await api.client.get(f"/api/v1/matches/{game.id}/actions", params={"since": before})).json()
    assert len(log) == 1 and log[0]["action"] == SETUP


async def test_fifty_different_actions_race_and_one_wins(api: Api) -> None:
    game = await api.start()
    rows = [ROW[i:] + ROW[:i] for i in range(8)] * 6
    responses = await asyncio.gather(*[
        api.post(game, "white", {"type": "setup", "backrow": row}, version=game.version) for row in rows])
    codes = [r.status_code for r in responses]
    assert set(codes) <= {200, 409}
    state = await api.state(game)
    assert state["version"] == game.version
    landed = [r for r in responses if r.status_code == 200]
    # Only resends of the winning row may answer 200; every 409 names the version.
    winner = state["arena"]
    assert all(r.json()["match"]["arena"] == winner for r in landed)
    assert all(r.json()["version"] == state["version"] for r in responses if r.status_code == 409)


async def test_two_processes_racing_on_one_database_land_once(settings: Any, api: Api) -> None:
    """Two services (as two server processes would) each with its own cache and lock."""
    game = await api.start()
    second = create_app(settings)
    async with second.router.lifespan_context(second):
        a: MatchService = api.client._transport.app.state.parts.service  # type: ignore[attr-defined]
        b: MatchService = second.state.parts.service
        await b.reads.get(game.id)  # b caches the same version
        results = await asyncio.gather(
            a.mover.act(game.id, "white", SETUP, game.version, None),
            b.mover.act(game.id, "white", {"type": "setup", "backrow": ROW[::-1]}, game.version, None),
            return_exceptions=True)
        ok = [r for r in results if not isinstance(r, Exception)]
        errors = [r for r in results if isinstance(r, Exception)]
        assert len(ok) == 1 and len(errors) == 1
        assert getattr(errors[0], "code", None) == "stale_version"
        # b, whose cache is now behind, still acts correctly for Black.
        state = await api.state(game)
        acted = await b.mover.act(game.id, "black", SETUP, state["version"], None)
        assert acted.version == state["version"] + 1


async def test_resend_by_client_id_and_by_same_action(api: Api) -> None:
    game = await api.start()
    first = await api.post(game, "white", SETUP, id="w-setup-1")
    assert first.status_code == 200
    v = first.json()["match"]["version"]
    again = await api.post(game, "white", SETUP, version=v - 1, id="w-setup-1")
    assert again.status_code == 200 and again.json()["match"]["version"] == v
    same = await api.post(game, "white", SETUP, version=v - 1)
    assert same.status_code == 200 and same.json()["match"]["version"] == v
    # The same id for a different action is refused; a different action on the old version is stale.
    other = await api.post(game, "black", SETUP, version=v, id="w-setup-1")
    assert other.status_code == 409 and other.json()["error"] == "id_taken", other.text
    stale = await api.post(game, "white", {"type": "setup", "backrow": ROW[::-1]}, version=v - 1)
    assert stale.status_code == 409
    assert stale.json() == {"error": "stale_version", "detail": stale.json()["detail"], "version": v}
    log = (await api.client.get(f"/api/v1/matches/{game.id}/actions")).json()
    assert len(log) == v


async def test_errors_are_json_and_never_change_a_match(api: Api, client: httpx.AsyncClient) -> None:
    game = await api.start()
    url = f"/api/v1/matches/{game.id}/actions"
    cases = [
        (await client.post(url, content=b"{not json", headers={**game.auth("white"), "content-type": "application/json"})).json(),
        (await client.post(url, json={"action": SETUP, "version": 1, "extra": 1}, headers=game.auth("white"))).json(),
        (await client.post(url, json={"action": {"type": "fly"}, "version": 1}, headers=game.auth("white"))).json(),
        (await client.post(url, json={"action": SETUP, "version": 1})).json(),
        (await client.post(url, json={"action": SETUP, "version": 1}, headers={"Authorization": "Bearer x"})).json(),
        (await client.post(url, json={"action": SETUP, "version": 1}, headers=game.auth("black"))).json(),
        (await client.post(url, json={"action": {"type": "pass"}, "version": 1}, headers=game.auth("white"))).json(),
        (await client.get("/api/v1/matches/nope")).json(),
    ]
    assert [c["error"] for c in cases] == [
        "bad_request", "bad_request", "bad_request", "unauthorized", "unauthorized", "not_your_turn",
        "illegal_action", "not_found"]
    assert cases[6]["detail"].startswith("R9")
    assert (await api.state(game))["version"] == game.version


async def test_write_rate_limit_answers_429_with_retry_after(database_url: str) -> None:
    app = create_app(make_settings(database_url, rate_limit_writes=3, rate_window_seconds=30))
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        codes = [(await c.post("/api/v1/matches", json={})).status_code for _ in range(4)]
        assert codes == [201, 201, 201, 429]
        r = await c.post("/api/v1/matches", json={})
        assert r.json()["error"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
        assert (await c.get("/api/v1/matches")).status_code == 200  # reads are not limited


async def test_a_flag_falls_on_read_and_by_the_sweeper(api: Api, service: MatchService) -> None:
    time = FakeTime(service)
    game = await api.start(time_control={"type": "realtime", "minutes": 1, "increment": 2})
    clock = game.match["clock"]
    assert clock["running"] is None and clock["white"] == 60_000  # setup runs no clock
    await api.setups(game)
    assert game.match["clock"]["running"] == "white"  # the Orb's holder moves first
    time.advance(10)
    await api.act(game, "white", {"type": "pass"})
    assert game.match["clock"]["white"] == 52_000 and game.match["clock"]["running"] == "black"
    time.advance(61)
    state = await api.state(game)  # a read applies the timeout
    assert state["status"] == "finished"
    assert state["result"] == {"winner": "white", "reason": "timeout"}
    log = (await api.client.get(f"/api/v1/matches/{game.id}/actions")).json()
    assert log[-1]["action"] == {"type": "timeout"} and log[-1]["player"] == "black" and log[-1]["automatic"]
    late = await api.post(game, "black", {"type": "pass"}, version=state["version"] - 1)
    assert late.status_code == 409 and late.json()["error"] == "match_over"

    other = await api.start(time_control={"type": "correspondence", "days": 1})
    await api.setups(other)
    time.advance(86_401)
    assert await service.finisher.sweep() == 1  # nobody read it: the sweeper ends it
    replayed, snapshot = await replay_match(service.engine, other.id)  # type: ignore[misc]
    assert replayed == snapshot and snapshot.result == {"winner": "black", "reason": "timeout"}


async def test_draw_offer_decline_and_accept(api: Api) -> None:
    game = await api.start()
    await api.setups(game)
    draw = f"/api/v1/matches/{game.id}/draw"
    r = await api.client.post(draw, json={"offer": True}, headers=game.auth("white"))
    assert r.json()["match"]["draw_offer"] == "white"
    r = await api.client.post(draw, json={"offer": False}, headers=game.auth("black"))
    assert r.json()["match"]["draw_offer"] is None
    await api.client.post(draw, json={"offer": True}, headers=game.auth("black"))
    r = await api.client.post(draw, json={"offer": True}, headers=game.auth("white"))
    match = r.json()["match"]
    assert match["result"] == {"winner": None, "reason": "agreement"} and match["seed"]
    types = [e["action"]["type"] for e in (await api.client.get(f"/api/v1/matches/{game.id}/actions")).json()]
    assert types[-4:] == ["draw_offer", "draw_decline", "draw_offer", "draw_accept"]


async def test_claim_after_the_opponent_is_gone(api: Api, service: MatchService) -> None:
    time = FakeTime(service)
    game = await api.start(time_control={"type": "realtime", "minutes": 10, "increment": 0})
    await api.setups(game)
    await api.act(game, "white", {"type": "pass"})  # Black is to move, and goes away
    claim = f"/api/v1/matches/{game.id}/claim"
    early = await api.client.post(claim, json={"result": "win"}, headers=game.auth("white"))
    assert early.status_code == 403
    time.advance(61)  # past the real-time default of 60 s, within Black's 10 minutes
    await api.legal(game, "white")  # White is here; Black has not been seen for 61 s
    r = await api.client.post(claim, json={"result": "win"}, headers=game.auth("white"))
    assert r.status_code == 200, r.text
    assert r.json()["match"]["result"] == {"winner": "white", "reason": "timeout", "abandoned": "black"}


async def test_abort_before_setups_and_join_timeout(api: Api, service: MatchService) -> None:
    game = await api.start()
    await api.act(game, "white", SETUP)
    r = await api.client.post(f"/api/v1/matches/{game.id}/abort", headers=game.auth("black"))
    assert r.json()["match"]["result"] == {"winner": None, "reason": "aborted"}
    late = await api.start()
    await api.setups(late)
    r = await api.client.post(f"/api/v1/matches/{late.id}/abort", headers=late.auth("white"))
    assert r.status_code == 403

    time = FakeTime(service)
    lonely = await api.create(join_timeout_seconds=30)
    time.advance(31)
    await service.finisher.sweep()
    state = await api.state(lonely)
    assert state["status"] == "finished" and state["result"]["reason"] == "aborted"
    r = await api.client.post(f"/api/v1/matches/{lonely.id}/join", json={"name": "Late"})
    assert r.status_code == 409 and r.json()["error"] == "match_over"


async def test_bot_plays_through_the_service(app: Any, api: Api) -> None:
    rng = random.Random(3)
    game = await api.create(seat="black", opponent="bot:random", no_progress_rounds=2)
    assert game.match["players"]["white"]["bot"] == "random"
    # Forty of Black's actions, each answered by the bot before the next (a whole match
    # took up to 110 s on a busy machine; tests/bots/test_runner.py plays bot matches
    # to their end), then Black resigns and the match is over.
    for _ in range(40):
        await app.state.parts.bots.idle()
        state = await api.state(game)
        if state["status"] == "finished":
            break
        assert state["to_move"] == "black"
        legal = await api.legal(game, "black")
        action = ({"type": "setup", "backrow": legal["setup"]} if legal["setup"]
                  else rng.choice(legal["actions"]))
        await api.act(game, "black", action)
    # The fortieth action, or the bot's answer to it, may have ended the match (the
    # bot's choices are its own): Black resigns only a match still running.
    await app.state.parts.bots.idle()
    if (await api.state(game))["status"] != "finished":
        r = await api.client.post(f"/api/v1/matches/{game.id}/resign", headers=game.auth("black"))
        assert r.status_code == 200, r.text
    assert (await api.state(game))["status"] == "finished"
    bad = await api.client.post("/api/v1/matches", json={"opponent": "bot:grandmaster"})
    assert bad.status_code == 400 and "random" in bad.json()["detail"]


async def test_updates_are_published_after_commit_and_replayable(database_url: str) -> None:
    app = create_app(make_settings(database_url))
    async with app.router.lifespan_context(app):
        recorder = RecordingPublisher()
        app.state.parts.service.keeper.publisher.add(recorder)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            api = Api(c)
            game = await api.start()
            await api.setups(game)
            await api.act(game, "white", {"type": "pass"})
            service: MatchService = app.state.parts.service
            sent = recorder.updates[game.id]
            assert [u["version"] for u in sent] == list(range(1, game.version + 1))
            assert any(u["automatic"] for u in sent) or game.match["to_move"] == "black"
            assert sent[-1]["match"]["version"] == game.version
            assert await service.reads.updates_since(game.id, 0) == sent
            assert await service.reads.updates_since(game.id, 2) == sent[2:]
            assert await service.reads.updates_since(game.id, game.version) == []
            assert await service.reads.updates_since(game.id, game.version + 5) is None


async def test_list_filters_and_pages(api: Api, service: MatchService) -> None:
    made = await created_in_turn(api, service, [f"P{i % 2}" for i in range(5)])
    page = (await api.client.get("/api/v1/matches", params={"limit": 2})).json()
    ids = [m["id"] for m in page["matches"]]
    while page["next_cursor"]:
        page = (await api.client.get("/api/v1/matches", params={"limit": 2, "cursor": page["next_cursor"]})).json()
        ids += [m["id"] for m in page["matches"]]
    assert ids == [g.id for g in reversed(made)]
    mine = (await api.client.get("/api/v1/matches", params={"player": "p1"})).json()["matches"]
    assert {m["id"] for m in mine} == {made[1].id, made[3].id}
    await api.join(made[0])
    active = (await api.client.get("/api/v1/matches", params={"status": "active"})).json()["matches"]
    assert [m["id"] for m in active] == [made[0].id]
    bad = await api.client.get("/api/v1/matches", params={"cursor": "!!"})
    assert bad.status_code == 400


async def test_custom_match_seed_is_public_and_seats_are_private(api: Api, client: httpx.AsyncClient) -> None:
    game = await api.create(seed="my-seed", chaos=["seer", "magus"])
    assert game.match["custom"] and game.match["seed"] == "my-seed"
    assert [t["mage"] for t in game.match["tower"][12:14]] == ["seer", "magus"]
    secret = await api.create()
    text = (await client.get(f"/api/v1/matches/{secret.id}")).text
    assert '"seed":null' in text and secret.tokens["white"] not in text
    r = await client.post(f"/api/v1/matches/{secret.id}/join", json={"name": "B"})
    taken = await client.post(f"/api/v1/matches/{secret.id}/join", json={"name": "C"})
    assert r.status_code == 200 and taken.status_code == 409 and taken.json()["error"] == "seat_taken"
    assert secret.tokens["white"] not in r.text
    openapi = (await client.get("/openapi.json")).json()
    assert "/api/v1/matches/{match_id}/claim" in openapi["paths"]


async def test_a_bot_left_waiting_by_a_stopped_process_resumes(database_url: str) -> None:
    first = create_app(make_settings(database_url, bot_delay_seconds=3600))
    async with first.router.lifespan_context(first):
        made = await first.state.parts.service.lobby.create({}, seat="black", opponent="bot:random")
    match_id = made.match["id"]  # the process stopped before its bot (White) set up
    second = create_app(make_settings(database_url))
    async with second.router.lifespan_context(second):
        service: MatchService = second.state.parts.service
        await second.state.parts.bots.idle()
        state = await service.reads.get(match_id)
        assert state["version"] == 1 and state["to_move"] == "black"
