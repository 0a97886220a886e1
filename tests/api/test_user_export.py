"""`GET /api/v1/users/{name}/matches/export`: a player's finished matches in
one stream, as JSON lines or game records, newest first, filtered, resumed
with `after` without a repeat or a gap, bounded, counted as reads."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import httpx

from app.kernel.moments import ms_of
from app.rules.game_record import read_record
from tests.accounts.played import member, parts, rated_match
from tests.conftest import FakeTime

EXPORT = "/api/v1/users/{}/matches/export"


async def _history(app: Any) -> list[str]:
    """Six finished matches of Ada's (a second apart, the oldest first), a running
    one, and a guest's: rated and casual, standard and rotating."""
    accounts, service = parts(app)
    ada, bea = await member(accounts, "Ada"), await member(accounts, "Bea")
    clock, made = FakeTime(service), []
    for n in range(6):
        made.append(await rated_match(service, ada, bea, winner="white" if n % 2 else None,
                                      variant="rotating" if n == 4 else "standard", rated=n % 3 != 2))
        clock.advance(1)
    running = await service.lobby.create({}, seat="white", name="Ada", account_id=ada.id)
    await service.lobby.join(running.match["id"], name="Bea", account_id=bea.id)
    guest = await service.lobby.create({}, seat="white", name="guest")  # a guest named Ada is not the account
    await service.lobby.join(guest.match["id"], name="Ada")
    await service.finisher.abort(guest.match["id"], "white")
    return made


def _lines(r: httpx.Response) -> list[dict[str, Any]]:
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in r.text.splitlines()]


async def test_each_line_is_the_match_as_its_own_address_shows_it(app: Any, client: httpx.AsyncClient) -> None:
    made = await _history(app)
    lines = _lines(await client.get(EXPORT.format("ada")))
    assert [m["id"] for m in lines] == made[::-1]  # finished only, newest first, the account's only
    for line in lines:
        alone = (await client.get(f"/api/v1/matches/{line['id']}")).json()
        assert line == alone
        assert line["status"] == "finished" and line["seed"]  # public once over (R20)
        assert "token" not in json.dumps(line)


async def test_filters(app: Any, client: httpx.AsyncClient) -> None:
    made = await _history(app)
    every = _lines(await client.get(EXPORT.format("Ada")))
    by_id = {m["id"]: m for m in every}

    def ids(r: httpx.Response) -> list[str]:
        return [m["id"] for m in _lines(r)]

    assert ids(await client.get(EXPORT.format("Ada"), params={"rated": "true"})) == [
        i for i in made[::-1] if by_id[i]["rated"]]
    assert ids(await client.get(EXPORT.format("Ada"), params={"rated": "false"})) == [made[5], made[2]]
    assert ids(await client.get(EXPORT.format("Ada"), params={"variant": "rotating"})) == [made[4]]
    # since is inclusive, until exclusive, both on when the match was made
    since = _ms(by_id[made[1]]["created_at"])
    until = _ms(by_id[made[4]]["created_at"])
    assert ids(await client.get(EXPORT.format("Ada"), params={"since": since, "until": until})) == [
        made[3], made[2], made[1]]
    assert ids(await client.get(EXPORT.format("Ada"), params={"max": 2})) == [made[5], made[4]]
    r = await client.get(EXPORT.format("Ada"), params={"since": until, "until": since})
    assert r.status_code == 422 and r.json()["error"] == "empty_span" and "until" in r.json()["detail"]
    r = await client.get(EXPORT.format("Ada"), params={"variant": "nonesuch"})
    assert r.status_code == 400


def _ms(stamp: str) -> int:
    return ms_of(datetime.fromisoformat(stamp.replace("Z", "+00:00")))


async def test_resuming_after_the_last_id_kept_repeats_nothing_and_skips_nothing(
        app: Any, client: httpx.AsyncClient) -> None:
    made = await _history(app)
    seen: list[str] = []
    params: dict[str, Any] = {"max": 2}
    for _ in range(5):
        got = [m["id"] for m in _lines(await client.get(EXPORT.format("Ada"), params=params))]
        if not got:
            break
        seen += got
        params["after"] = got[-1]
    assert seen == made[::-1]
    # Resumed with a filter, it keeps the filter.
    first = _lines(await client.get(EXPORT.format("Ada"), params={"max": 1, "rated": "true"}))
    rest = _lines(await client.get(EXPORT.format("Ada"), params={"rated": "true", "after": first[0]["id"]}))
    assert [m["id"] for m in first + rest] == [m["id"] for m in _lines(
        await client.get(EXPORT.format("Ada"), params={"rated": "true"}))]
    r = await client.get(EXPORT.format("Ada"), params={"after": "noSuchMatch"})
    assert r.status_code == 422 and r.json()["error"] == "unknown_cursor" and "after" in r.json()["detail"]


async def test_the_records_read_back_and_replay_to_the_state_the_server_holds(
        app: Any, client: httpx.AsyncClient) -> None:
    made = await _history(app)
    r = await client.get(EXPORT.format("Ada"), headers={"Accept": "text/plain"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    texts = ["Match: " + t if not t.startswith("Match: ") else t for t in r.text.split("\n\nMatch: ")]
    assert len(texts) == 6
    service = parts(app)[1]
    for match_id, text in zip(made[::-1], texts, strict=True):
        record = read_record(text)
        assert record.headers["Match"] == match_id
        alone = (await client.get(f"/api/v1/matches/{match_id}/record")).text
        assert text.rstrip("\n") == alone.rstrip("\n")
        assert record.final() == (await service.keeper.get(match_id, fresh=True)).state


async def test_an_unknown_player_is_404_and_a_large_max_is_bounded(app: Any, client: httpx.AsyncClient) -> None:
    r = await client.get(EXPORT.format("Nobody"))
    assert r.status_code == 404 and r.json()["detail"] == "there is no player named 'Nobody'"
    made = await _history(app)
    app.state.parts.settings.export_max_matches = 4
    got = _lines(await client.get(EXPORT.format("Ada"), params={"max": 2**31 - 1}))
    assert [m["id"] for m in got] == made[:1:-1]
    r = await client.get(EXPORT.format("Ada"), params={"max": 2**31})
    assert r.status_code == 400


async def test_an_export_counts_as_a_heavy_read(app: Any, client: httpx.AsyncClient) -> None:
    await _history(app)
    budget = app.state.parts.reads
    budget.limit = 15  # ten for the export, then five reads of matches
    assert (await client.get(EXPORT.format("Ada"), params={"max": 1})).status_code == 200
    for _ in range(5):
        assert (await client.get("/api/v1/matches")).status_code == 200
    r = await client.get(EXPORT.format("Ada"))
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
