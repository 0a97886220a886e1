"""A finished analysis hands its match to the puzzle miner: the positions of
the match, each once, a part at a time, and the puzzles found join the
server's set. The miner that runs in the worker finds a shipped puzzle again
from its position alone, and mining a part at a time finds what mining the
whole match at once does, whatever the size of the parts."""

from __future__ import annotations

import random
from typing import Any

import pytest
from sqlalchemy import delete, select

from app.config import Settings
from app.db.puzzle_models import puzzles
from app.matches import MatchService
from app.matches.history import positions
from app.puzzles.mining import mine_part, mine_positions
from app.puzzles.service import read_seed
from app.rules import (
    OVER,
    SETUP,
    State,
    action_json,
    apply,
    from_text,
    legal_actions,
    new_match,
    setup_choices,
)
from app.wiring import build

from ..conftest import Api
from ..waiting import until
from .helpers import Searcher, analysis_settings, finished

SHIPPED = read_seed()


@pytest.fixture
def settings(database_url: str) -> Settings:
    return analysis_settings(database_url)


class Miner:
    """The miner's stand-in: notes the versions of each part it was asked to
    mine, answers one known puzzle (in the first part)."""

    def __init__(self, found: list[dict[str, Any]]) -> None:
        self.found = found
        self.asked: list[tuple[str, list[int]]] = []

    async def __call__(self, items: list[tuple[int, dict[str, Any]]], match_id: str, start: int,
                       count: int) -> tuple[list[dict[str, Any]], int]:
        self.asked.append((match_id, [version for version, _ in items[start:start + count]]))
        return (self.found if start == 0 else []), start + count


async def test_a_finished_analysis_adds_its_matchs_puzzles(api: Api, app: Any, service: MatchService) -> None:
    parts = app.state.parts
    known = SHIPPED[0]
    async with parts.engine.begin() as conn:  # as if the server had never held it
        await conn.execute(delete(puzzles).where(puzzles.c.id == known["id"]))
    parts.analyses.search = Searcher()
    miner = parts.analyses.mine = Miner([known])
    parts.analyses.mine_part = 8
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
    assert {match for match, _ in miner.asked} == {game.id}
    assert [version for _, part in miner.asked for version in part] == once  # each once, in order
    assert len(miner.asked) == -(-len(once) // 8) and all(len(part) <= 8 for _, part in miner.asked)
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


def _in_parts(items: list[tuple[int, dict[str, Any]]], match_id: str, size: int) -> list[dict[str, Any]]:
    """Mined a part of `size` positions at a time, as the analyses do it."""
    found: list[dict[str, Any]] = []
    at = 0
    while at < len(items):
        part, after = mine_part(items, match_id, at, size)
        assert after > at
        found += part
        at = after
    return found


def test_mining_in_parts_finds_what_mining_the_whole_match_does_around_shipped_puzzles() -> None:
    """Shipped puzzles, each followed by the position its solution leaves or by
    another puzzle: a position inside a found puzzle's line is skipped, also
    when the line reaches into the next part or past the last position."""
    def puzzle(k: int) -> State:
        return from_text(SHIPPED[k]["position"])

    def after(k: int) -> State:
        return apply(puzzle(k), SHIPPED[k]["solution"][0]["action"])[0]
    assert all(len(SHIPPED[k]["solution"]) == 1 for k in range(7))  # each line one action long
    states = [puzzle(0), after(0), puzzle(1), puzzle(2), after(2), puzzle(3), puzzle(4), puzzle(5), after(5),
              puzzle(6)]
    items = [(100 + i, s.to_json()) for i, s in enumerate(states)]
    whole = mine_positions(items, "m")
    # Puzzles 2 and 4 come right after another puzzle, inside its line: not looked at.
    assert [r["id"] for r in whole] == [SHIPPED[k]["id"] for k in (0, 1, 3, 5, 6)]
    assert [r["source"]["version"] for r in whole] == [100, 102, 105, 107, 109]
    for size in (1, 2, 3, 4, len(items) + 1):
        assert _in_parts(items, "m", size) == whole, size
    assert mine_part(items, "m", 9, 1) == ([whole[-1]], 11)  # the last puzzle's line reaches past the end
    assert mine_positions([], "m") == []
    with pytest.raises(ValueError, match="at least one position"):
        mine_part(items, "m", 0, 0)


def _played(seed: int, actions: int) -> list[State]:
    """The positions of a match of random legal actions (as helpers.finished plays through the API)."""
    rng = random.Random(seed)
    s = new_match(seed=f"played-{seed}")
    out = [s]
    for _ in range(actions):
        if s.phase == OVER:
            break
        if s.phase == SETUP:
            row = setup_choices(s)
            rng.shuffle(row)
            s = apply(s, {"type": "setup", "backrow": row})[0]
        else:
            s = apply(s, action_json(rng.choice(legal_actions(s))))[0]
        out.append(s)
    return out


def test_mining_in_parts_finds_what_mining_the_whole_match_does_in_a_played_match() -> None:
    items = [(v, s.to_json()) for v, s in enumerate(_played(8, 50))]
    whole = mine_positions(items, "played")
    assert [r["source"]["version"] for r in whole] == [29]  # a match with a puzzle, cheap to mine
    for size in (1, 3, 8):
        assert _in_parts(items, "played", size) == whole, size
