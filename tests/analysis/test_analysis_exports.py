"""A done analysis travels with its match's exports (on SQLite and
PostgreSQL): the game record carries its engine and accuracies as headers and
each version's eval as a comment line, which the record's reader passes over
(it still replays to the match's end); the admins' JSON export holds the
analysis whole; before an analysis is done neither says anything of it."""

from __future__ import annotations

from typing import Any

import pytest

from app.config import Settings
from app.rules.game_record import read_record
from tests.admin.conftest import AdminClient, admin  # noqa: F401  (the fixture)

from ..conftest import Api
from ..waiting import until
from .helpers import Searcher, analysis_settings, finished


@pytest.fixture
def settings(database_url: str) -> Settings:
    return analysis_settings(database_url)


async def test_the_record_and_the_json_export_carry_a_done_analysis(
        api: Api, app: Any, admin: AdminClient) -> None:  # noqa: F811
    searcher = Searcher(hold=True)
    app.state.parts.analyses.search = searcher
    game = await finished(api, actions=40)
    plain = (await api.client.get(f"{api.base}/{game.id}/record")).text
    assert "# " not in plain and "Analysis:" not in plain
    r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=game.auth("white"))
    assert r.status_code == 202, r.text
    await until(lambda: searcher.held == 1, "the analysis runs")
    assert (await api.client.get(f"{api.base}/{game.id}/record")).text == plain  # not done: not there
    assert (await admin.get(f"/admin/api/matches/{game.id}/export")).json()["analysis"] is None
    searcher.let_all_go()

    async def done() -> Any:
        body = (await api.client.get(f"{api.base}/{game.id}/analysis")).json()
        return body if body["status"] == "done" else None
    body = await until(done, "the analysis is done")

    text = (await api.client.get(f"{api.base}/{game.id}/record")).text
    comments = [line for line in text.splitlines() if line.startswith("# ")]
    assert len(comments) == len(body["plies"]) == game.version + 1
    assert "Analysis: strong depth 1" in text.splitlines()
    for line, ply in zip(comments, body["plies"], strict=True):
        assert line.startswith(f"# eval {ply['eval']:+.3f}")
        assert (ply["judgement"] is None) == (" (drop " not in line)
        assert (ply["best"] is None) == (" best {" not in line)
    record = read_record(text)
    assert read_record(plain).log == record.log and record.headers["Analysis"] == "strong depth 1"
    assert record.final().phase == read_record(plain).final().phase
    export = (await admin.get(f"/admin/api/matches/{game.id}/export")).json()
    assert export["analysis"] == body
