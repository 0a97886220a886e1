"""Issue 21: GET /matches/{id}/record, the match as a text game record, read
back by app/rules and replayed to the state the server holds."""

from __future__ import annotations

import random

import pytest

from app.matches import MatchService
from app.rules.game_record import BadRecord, read_record

from ..conftest import Api
from .test_positions import MID


async def record_of(api: Api, match_id: str) -> str:
    r = await api.client.get(f"{api.base}/{match_id}/record")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return r.text


@pytest.mark.parametrize("variant", ["rotating", "ultimate_archmage"])
async def test_a_played_match_exports_and_replays_to_the_state_the_server_holds(
        api: Api, service: MatchService, variant: str) -> None:
    game = await api.start(variant=variant, time_control={"type": "realtime", "minutes": 5, "increment": 2})
    rng = random.Random(variant)
    for _ in range(40):
        await api.step(game, rng)
        if game.match["status"] == "finished":
            break
    running = await record_of(api, game.id)
    rec = await service.keeper.get(game.id, fresh=True)
    assert rec.seed not in running and "Seed:" not in running  # R20: not while it runs
    assert "Result: *" in running and "TimeControl: realtime 5 min + 2 s" in running
    with pytest.raises(BadRecord, match="no Seed"):
        read_record(running).start()
    if game.match["status"] == "active":
        await api.client.post(f"{api.base}/{game.id}/resign", headers=game.auth("black"))
    text = await record_of(api, game.id)
    record = read_record(text)
    rec = await service.keeper.get(game.id, fresh=True)
    assert record.headers["Seed"] == rec.seed and record.headers["White"] == "Ada"
    assert record.headers["Variant"] == variant and record.headers["Result"] in ("white", "black", "draw")
    assert record.final() == rec.state
    finished = await api.client.get(f"{api.base}/{game.id}/record")
    assert "etag" in finished.headers  # it never changes again (but for a rematch's entries)
    assert [e.version for e in record.log] == list(range(1, rec.version + 1))


async def test_a_match_from_a_position_records_its_start_and_replays_from_it(
        api: Api, service: MatchService) -> None:
    r = await api.client.post(api.base, json={"position": MID, "seat": "white"})
    assert r.status_code == 201, r.text
    match_id = r.json()["match"]["id"]
    rec = await service.keeper.get(match_id, fresh=True)
    record = read_record(await record_of(api, match_id))
    assert record.headers["Position"] == rec.options["position"]
    assert record.headers["Seed"] == "doc:rotating:18"  # a custom match's seed is public
    assert record.headers["Black"] == "-"  # nobody has joined
    assert record.final() == rec.state
    assert (await api.client.get(f"{api.base}/nosuchmatch1/record")).status_code == 404
