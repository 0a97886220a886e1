"""`GET /matches/{id}/advantage`: a finished match's positions judged by the
strong level's evaluation, for the graph under the replay; never for a running
match (a judge's opinion would help a player)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from app.bots import evaluate
from app.matches import history
from app.matches.service import MatchService
from app.rules import SETUP, public_view

from ..conftest import Api


async def test_a_running_match_is_not_judged(api: Api) -> None:
    game = await api.start()
    await api.setups(game)
    r = await api.client.get(f"{api.base}/{game.id}/advantage")
    assert r.status_code == 409 and r.json()["error"] == "match_running", r.text
    r = await api.client.get(f"{api.base}/nosuchmatch/advantage")
    assert r.status_code == 404 and r.json()["error"] == "not_found"


async def test_every_position_of_a_played_match_is_judged(api: Api, service: MatchService) -> None:
    game = await api.start()
    rng = random.Random(11)
    # Setups, placements, removals, and at least one automatic pass (R11) among them.
    for i in range(1, 600):
        await api.step(game, rng)
        if i % 20 == 0 and i >= 60 and any(
                e["automatic"] for e in (await api.client.get(f"{api.base}/{game.id}/actions")).json()):
            break
    assert game.match["status"] == "active"
    await api.client.post(f"{api.base}/{game.id}/resign", headers=game.auth("white"))
    r = await api.client.get(f"{api.base}/{game.id}/advantage")
    assert r.status_code == 200, r.text
    body = r.json()
    version = (await api.state(game))["version"]
    assert body["version"] == version and body["judge"] == "strong"
    points = body["points"]
    assert [p["version"] for p in points] == list(range(version + 1))
    assert all(-1 <= p["white"] <= 1 for p in points)
    assert points[-1]["white"] == -1.0  # White resigned: a Black win
    assert len({p["white"] for p in points}) > 3  # the positions were judged, not a constant

    # Each judged position is the state the server made at that version: the
    # replay agrees with every stored public state, automatic passes included.
    states = []
    for first in range(1, version + 1, 100):
        states += (await api.client.get(f"{api.base}/{game.id}/states",
                                         params={"from": first, "to": first + 99})).json()["states"]
    assert any(s["automatic"] for s in states)
    _, start, log = await service.reads.finished_log(game.id)
    replayed = history.positions(start, log)
    for (v, state), stored in zip(replayed[1:], states, strict=True):
        assert v == stored["version"]
        view = public_view(state)
        assert {k: view[k] for k in ("arena", "tower", "to_move", "phase")} == \
            {k: stored["match"][k] for k in ("arena", "tower", "to_move", "phase")}, v
    assert [p["white"] for p in points] == [0.0 if s.phase == SETUP else round(evaluate(s), 3) for _, s in replayed]
    assert points[0]["white"] == 0.0 and points[3]["white"] != 0.0  # set up at versions 2 and 3


async def test_the_graph_is_kept_and_sent_compressed(
        api: Api, service: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    game = await api.start()
    await api.setups(game)
    await api.client.post(f"{api.base}/{game.id}/resign", headers=game.auth("black"))
    reads = service.reads
    real, asked = reads.finished_log, []

    async def counted(match_id: str) -> Any:
        asked.append(match_id)
        return await real(match_id)

    monkeypatch.setattr(reads, "finished_log", counted)
    first, again = await asyncio.gather(  # two at once: judged once
        api.client.get(f"{api.base}/{game.id}/advantage"),
        api.client.get(f"{api.base}/{game.id}/advantage", headers={"Accept-Encoding": "gzip"}))
    third = await api.client.get(f"{api.base}/{game.id}/advantage")
    assert first.json() == again.json() == third.json() and first.json()["points"][-1]["white"] == 1.0
    assert asked == [game.id]  # read and judged once, then kept (a finished match never changes)
