"""The log is the truth: replaying a stored match's log through the engine gives
its snapshot exactly, whatever ended it."""

from __future__ import annotations

import random

from app.bots import random_bot
from app.matches import MatchService
from app.matches.store import replay_match

from ..conftest import ROW


async def _play(service: MatchService, match_id: str, rng: random.Random, actions: int) -> None:
    for _ in range(actions):
        rec = await service.keeper.get(match_id)
        colour = rec.seat_to_move()
        if colour is None:
            return
        await service.mover.act(match_id, colour, random_bot(rec.state, rng), rec.version)


async def test_replay_of_every_kind_of_ending_equals_the_snapshot(service: MatchService) -> None:
    rng = random.Random(11)
    ids = []
    for variant in ("standard", "rotating", "archmage", "ultimate_archmage"):
        made = await service.lobby.create({"variant": variant, "no_progress_rounds": 2}, seat="white")
        await service.lobby.join(made.match["id"], "Bo")
        await _play(service, made.match["id"], rng, 10_000)  # to the end
        ids.append(made.match["id"])
    endings = [
        lambda m: service.finisher.resign(m, "black"),
        lambda m: service.finisher.draw(m, "white", True),
        lambda m: service.finisher.abort(m, "white"),
    ]
    for end in endings:
        made = await service.lobby.create({"chaos": ["seer", "dream_lord"]}, seat="white")
        match_id = made.match["id"]
        await service.lobby.join(match_id, "Bo")
        if end is not endings[2]:
            await service.mover.act(match_id, "white", {"type": "setup", "backrow": ROW}, 1)
            await service.mover.act(match_id, "black", {"type": "setup", "backrow": ROW[::-1]}, 2)
            await _play(service, match_id, rng, 15)
        await end(match_id)
        if end is endings[1]:
            await service.finisher.draw(match_id, "black", True)
        ids.append(match_id)
    running = await service.lobby.create({"seed": "fixed"}, seat="black")
    await service.lobby.join(running.match["id"])
    await _play(service, running.match["id"], rng, 40)
    ids.append(running.match["id"])

    service.keeper.cache = type(service.keeper.cache)(10)  # forget what is in memory
    for match_id in ids:
        found = await replay_match(service.engine, match_id)
        assert found is not None
        replayed, snapshot = found
        assert replayed == snapshot, match_id
    reasons = {(await service.reads.get(m))["result"]["reason"] for m in ids[4:7]}
    assert reasons == {"resigned", "agreement", "aborted"}
