"""`POST/GET /api/v1/matches/{id}/analysis` end to end (on SQLite and PostgreSQL):
who may ask, what a running match answers, the analysis itself checked
against a recomputation: each judgement from the evals, each `best` applied
by the rules at its version."""

from __future__ import annotations

from typing import Any

import pytest

from app.analysis import judge
from app.config import Settings
from app.matches import MatchService
from app.matches.history import positions
from app.rules import apply

from ..conftest import Api
from ..waiting import until
from .helpers import Searcher, analysis_settings, finished


@pytest.fixture
def settings(database_url: str) -> Settings:
    return analysis_settings(database_url)


def _searcher(app: Any, **kw: Any) -> Searcher:
    searcher = Searcher(**kw)
    app.state.parts.analyses.search = searcher
    return searcher


async def _done(api: Api, match_id: str) -> dict[str, Any]:
    async def read() -> dict[str, Any] | None:
        body: dict[str, Any] = (await api.client.get(f"{api.base}/{match_id}/analysis")).json()
        return body if body.get("status") == "done" else None
    return await until(read, "the analysis is done")


async def test_a_running_match_is_refused_and_nothing_is_read_before_a_request(api: Api, app: Any) -> None:
    _searcher(app)
    game = await api.start()
    r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=game.auth("white"))
    assert r.status_code == 409 and r.json()["error"] == "match_running", r.text
    r = await api.client.get(f"{api.base}/{game.id}/analysis")
    assert r.status_code == 404 and r.json()["error"] == "no_analysis", r.text


async def test_a_stranger_is_refused_a_seat_may_ask(api: Api, app: Any) -> None:
    searcher = _searcher(app, hold=True)
    game = await finished(api, actions=10)
    r = await api.client.post(f"{api.base}/{game.id}/analysis")
    assert r.status_code == 401 and r.json()["error"] == "unauthorized", r.text
    other = await api.start()
    r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=other.auth("white"))
    assert r.status_code == 401, r.text  # a seat of another match is nobody here
    r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=game.auth("black"))
    assert r.status_code == 202, r.text
    first = r.json()
    assert first["status"] in ("queued", "running") and first["engine"] == "strong depth 1"
    r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=game.auth("white"))
    assert r.status_code == 202 and r.json()["status"] in ("queued", "running")  # the same analysis
    searcher.let_all_go()
    body = await _done(api, game.id)
    r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=game.auth("white"))
    assert r.status_code == 200 and r.json() == body


async def test_the_judgements_agree_with_the_evals_and_every_best_is_legal(
        api: Api, app: Any, service: MatchService) -> None:
    _searcher(app)
    game = await finished(api, actions=90)
    r = await api.client.post(f"{api.base}/{game.id}/analysis", headers=game.auth("white"))
    assert r.status_code == 202, r.text
    body = await _done(api, game.id)
    version, start, log = await service.reads.finished_log(game.id)
    plies = body["plies"]
    assert [p["version"] for p in plies] == list(range(version + 1)) and body["progress"] == 1.0
    assert plies[-1]["eval"] == -1.0  # White resigned
    made = {v: (player, action, automatic) for v, player, action, automatic in log}
    states = dict(positions(start, log))
    judged = {"white": [], "black": []}  # type: dict[str, list[float]]
    for before, ply in zip(plies, plies[1:], strict=False):
        if ply["best"] is not None:
            apply(states[ply["version"]], ply["best"])  # legal where it is offered: the rules take it
        player, action, automatic = made[ply["version"]]
        chose = player is not None and not automatic and action["type"] in ("place", "remove", "pass")
        assert ply["mover"] == (player if chose else None)
        if ply["drop"] is None:
            assert ply["judgement"] is None
            continue
        assert chose and before["best"] is not None and action != before["best"]
        lost = max(0.0, judge.expected(before["eval"], player) - judge.expected(ply["eval"], player))
        assert ply["drop"] == pytest.approx(lost, abs=1e-4)
        stored = round(lost, 4)  # judged as stored: a drop of 0.14995 is a blunder of 0.15
        expected = ("blunder" if stored >= 0.15 else "mistake" if stored >= 0.10
                    else "inaccuracy" if stored >= 0.05 else None)
        assert ply["judgement"] == expected, ply
        judged[player].append(lost)
    assert any(p["best"] is not None for p in plies) and judged["white"] and judged["black"]
    for colour, drops in judged.items():
        mean = sum(100 * 2.718281828459045 ** (-5 * d) for d in drops) / len(drops)
        assert body["accuracy"][colour] == pytest.approx(mean, abs=0.06)
