"""One match in the dashboard: its detail and timeline, the seed and chaos
deck only once it is over, the state at each version, and the export that
replays to the final state."""

from __future__ import annotations

import json
import random
from typing import Any

from sqlalchemy import text

from app.matches.replay import replay
from app.rules import State
from app.rules.state import OVER
from tests.admin.conftest import AdminClient
from tests.conftest import Api


async def stored(app: Any, column: str, match_id: str) -> Any:
    async with app.state.parts.engine.connect() as conn:
        value = (await conn.execute(text(f"SELECT {column} FROM matches WHERE id = :id"), {"id": match_id})).scalar()
    return json.loads(value) if isinstance(value, str) and column == "state" else value


async def play_some(api: Api, game: Any, steps: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.match["status"] == "finished":
            return
        await api.step(game, rng)


async def test_secrets_appear_only_once_the_match_is_over(app: Any, admin: AdminClient, api: Api) -> None:
    game = await api.start(variant="archmage")
    await play_some(api, game, 12)
    r = await admin.get(f"/admin/api/matches/{game.id}")
    assert r.status_code == 200
    running = r.json()
    assert running["seed"] is None and running["chaos_deck"] is None
    export = (await admin.get(f"/admin/api/matches/{game.id}/export")).json()
    assert export["seed"] is None
    page = (await admin.get(f"/admin/matches/{game.id}")).text
    secret_row = await api.client.get(f"/api/v1/matches/{game.id}")
    assert secret_row.json()["seed"] is None
    # The seed is nowhere in what the admin sees of a running match.
    seed = await stored(app, "seed", game.id)
    assert seed not in r.text and seed not in page and seed not in str(export)
    for v in range(game.version + 1):
        assert seed not in (await admin.get(f"/admin/api/matches/{game.id}/versions/{v}")).text
    # Over: the seed and how the chaos deck was dealt.
    assert (await admin.moderate(game.id, "draw", "test over")).status_code == 200
    over = (await admin.get(f"/admin/api/matches/{game.id}")).json()
    assert over["seed"] == seed
    deck = over["chaos_deck"]
    assert [c["floor"] for c in deck["floors"]] == [13, 14, 15]
    assert len(deck["private"]["white"]) == len(deck["private"]["black"]) == 1
    dealt = [c["mage"] for c in deck["floors"]] + deck["private"]["white"] + deck["private"]["black"]
    assert len(set(dealt + deck["deck"])) == 11  # every chaos mage, once
    assert seed in (await admin.get(f"/admin/matches/{game.id}")).text


async def test_the_timeline_and_each_version_as_it_stood(admin: AdminClient, api: Api) -> None:
    game = await api.start()
    await play_some(api, game, 10)
    d = (await admin.get(f"/admin/api/matches/{game.id}")).json()
    assert d["players"]["white"]["name"] == "Ada" and d["players"]["black"]["name"] == "Bo"
    assert d["options"]["variant"] == "standard" and "time_control" in d
    assert [e["version"] for e in d["timeline"]] == list(range(1, game.version + 1))
    assert all(e["at"] for e in d["timeline"]) and d["timeline"][0]["action"] == {"type": "join"}
    log = (await api.client.get(f"/api/v1/matches/{game.id}/actions")).json()
    for v in (1, game.version // 2, game.version):
        frame = (await admin.get(f"/admin/api/matches/{game.id}/versions/{v}")).json()
        assert frame["version"] == v == frame["match"]["version"] and frame["last"] == game.version
        assert frame["entry"]["action"] == log[v - 1]["action"]
    assert (await admin.get(f"/admin/api/matches/{game.id}/versions/{game.version}")).json()["match"]["arena"] \
        == (await api.state(game))["arena"]
    zero = (await admin.get(f"/admin/api/matches/{game.id}/versions/0")).json()
    assert zero["entry"] is None and zero["match"]["phase"] == "setup" and zero["match"]["arena"] == {}
    assert zero["match"]["seed"] is None
    for bad in (game.version + 1, -1):
        r = await admin.get(f"/admin/api/matches/{game.id}/versions/{bad}")
        assert r.status_code == 404 and r.json()["error"] == "not_found"
    assert (await admin.get("/admin/api/matches/nosuchmatch/versions/0")).status_code == 404
    assert (await admin.get(f"/admin/api/matches/{game.id}/versions/x")).status_code == 400
    page = await admin.get(f"/admin/matches/{game.id}")
    assert page.status_code == 200
    for snippet in ('id="replay"', 'data-step="back"', 'data-step="forward"', 'src="/static/admin/replay.js"',
                 f'data-last="{game.version}"', "Moderate", "Timeline"):
        assert snippet in page.text
    assert (await admin.get("/static/admin/replay.js")).status_code == 200


async def test_the_export_replays_to_the_final_state(app: Any, admin: AdminClient, api: Api) -> None:
    game = await api.start(variant="rotating")
    # Two rounds or so of random play, then White resigns: a whole random match took
    # hundreds of requests (40-150 s on a busy machine), and the replay of every kind
    # of ending is proved in tests/db/test_replay.py.
    await play_some(api, game, 60, seed=3)
    if game.match["status"] != "finished":
        r = await api.client.post(f"/api/v1/matches/{game.id}/resign", headers=game.auth("white"))
        assert r.status_code == 200, r.text
    r = await admin.get(f"/admin/api/matches/{game.id}/export")
    assert r.status_code == 200
    doc = r.json()
    assert doc["format"] == "magery-match/1" and doc["seed"] and doc["status"] == "finished"
    assert [e["version"] for e in doc["log"]] == list(range(1, doc["version"] + 1))
    final = replay(doc["seed"], doc["options"], doc["chaos"], doc["custom"],
                   [(e["player"], e["action"], e["automatic"]) for e in doc["log"]])
    assert final.phase == OVER and final.result == doc["result"]
    assert final == State.from_json(await stored(app, "state", game.id))


async def test_an_adjudicated_export_replays_too(admin: AdminClient, api: Api) -> None:
    game = await api.start()
    await play_some(api, game, 6)
    assert (await admin.moderate(game.id, "black", "White cheated")).status_code == 200
    doc = (await admin.get(f"/admin/api/matches/{game.id}/export")).json()
    final = replay(doc["seed"], doc["options"], doc["chaos"], doc["custom"],
                   [(e["player"], e["action"], e["automatic"]) for e in doc["log"]])
    assert final.result == {"winner": "black", "reason": "adjudicated"} == doc["result"]
    assert doc["log"][-1]["action"] == {"type": "adjudicate", "winner": "black", "note": "White cheated"}
    assert doc["log"][-1]["player"] is None


async def test_the_admin_replay_of_a_match_from_a_position_starts_there(admin: AdminClient, api: Api) -> None:
    from tests.api.test_positions import MID

    r = await api.client.post("/api/v1/matches", json={"position": MID, "seat": "white"})
    assert r.status_code == 201, r.text
    match_id = r.json()["match"]["id"]
    frame = (await admin.get(f"/admin/api/matches/{match_id}/versions/0")).json()
    assert frame["match"]["round"] == 4 and frame["match"]["to_move"] == "black"
    assert frame["match"]["position"].split(" ")[:13] == MID.split(" ")[:13]
