"""A finished analysis hands its match to the puzzle miner: the positions of
the match, each once, and the puzzles found join the server's set. The miner
that runs in the worker finds a shipped puzzle again from its position alone."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import delete, select

from app.config import Settings
from app.db.puzzle_models import puzzles
from app.matches import MatchService
from app.matches.history import positions
from app.puzzles.mining import mine_positions
from app.puzzles.service import read_seed
from app.rules import from_text
from app.wiring import build

from ..conftest import Api
from ..waiting import until
from .helpers import Searcher, analysis_settings, finished

SHIPPED = read_seed()


@pytest.fixture
def settings(database_url: str) -> Settings:
    return analysis_settings(database_url)


class Miner:
    """The miner's stand-in: notes what it was given, answers one known puzzle."""

    def __init__(self, found: list[dict[str, Any]]) -> None:
        self.found = found
        self.asked: list[tuple[str, list[int]]] = []

    async def __call__(self, items: list[tuple[int, dict[str, Any]]], match_id: str) -> list[dict[str, Any]]:
        self.asked.append((match_id, [version for version, _ in items]))
        return self.found


async def test_a_finished_analysis_adds_its_matchs_puzzles(api: Api, app: Any, service: MatchService) -> None:
    parts = app.state.parts
    known = SHIPPED[0]
    async with parts.engine.begin() as conn:  # as if the server had never held it
        await conn.execute(delete(puzzles).where(puzzles.c.id == known["id"]))
    parts.analyses.search = Searcher()
    miner = parts.analyses.mine = Miner([known])
    game = await finished(api, actions=40)
    r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=game.auth("white"))
    assert r.status_code == 202, r.text

    async def done() -> bool:
        body = (await api.client.get(f"{api.base}/{game.id}/analysis")).json()
        return body["status"] == "done"
    await until(done, "the analysis is done")
    await parts.analyses.mined()
    _, start, log = await service.reads.finished_log(game.id)
    states = list(positions(start, log))
    once = [v for i, (v, s) in enumerate(states) if i == 0 or s is not states[i - 1][1]]
    assert miner.asked == [(game.id, once)]
    async with parts.engine.connect() as conn:
        row = (await conn.execute(select(puzzles).where(puzzles.c.id == known["id"]))).one()
    assert row.source == "analysis"
    shown = (await api.client.get(f"/api/v1/puzzles/{known['id']}")).json()
    assert shown["id"] == known["id"]


def test_the_miner_finds_a_shipped_puzzle_again_from_its_position() -> None:
    known = SHIPPED[0]
    state = from_text(known["position"])
    [again] = mine_positions([(7, state.to_json())], "m")
    assert {k: v for k, v in again.items() if k != "source"} == {k: v for k, v in known.items() if k != "source"}
    assert again["source"]["match"] == "m" and again["source"]["version"] == 7


async def test_a_server_set_not_to_mine_gives_its_analyses_no_miner(database_url: str) -> None:
    """ANALYSIS_PUZZLES=false (the browser tests' server): an analysis's end hands
    its match to no miner; left as it is, to the server's puzzle set."""
    for mines in (True, False):
        parts = build(analysis_settings(database_url, analysis_puzzles=mines))
        try:
            assert (parts.analyses.puzzles is parts.puzzles) is mines
            assert (parts.analyses.puzzles is None) is not mines
        finally:
            await parts.engine.dispose()
