"""The queue's bounds (on SQLite and PostgreSQL): so many analyses waiting or
running from one address, so many requested by one account (or address) a
day; beyond either, 429 `too_many_analyses` with a Retry-After. An analysis
already requested is answered to anybody, bounds or not."""

from __future__ import annotations

from typing import Any

import pytest

from app.config import Settings

from ..api.members import member
from ..bots.standin import api_from
from ..conftest import Api
from .helpers import Searcher, analysis_settings, finished


@pytest.fixture
def settings(database_url: str) -> Settings:
    return analysis_settings(database_url, analysis_per_address=2, analysis_per_day=3)


async def test_an_address_and_a_day_hold_so_many(api: Api, app: Any) -> None:
    app.state.parts.analyses.search = Searcher(hold=True)  # nothing finishes: every one waits or runs
    ada = await member(app, "Spectra")
    games = [await finished(api, seed=s, actions=8) for s in range(5)]

    async def ask(address: str, match: int) -> Any:
        async with api_from(app, address) as far:
            return await far.client.post(f"{far.base}/{games[match].id}/analysis", headers=ada.token())

    assert (await ask("10.0.0.1", 0)).status_code == 202
    assert (await ask("10.0.0.1", 1)).status_code == 202
    r = await ask("10.0.0.1", 2)  # a third waiting from one address
    assert r.status_code == 429 and r.json()["error"] == "too_many_analyses", r.text
    assert int(r.headers["Retry-After"]) > 0
    assert (await ask("10.0.0.1", 0)).status_code == 202  # asked already: the same analysis
    assert (await ask("10.0.0.2", 2)).status_code == 202  # Ada's third today, from elsewhere
    r = await ask("10.0.0.3", 3)  # a fourth today
    assert r.status_code == 429 and r.json()["error"] == "too_many_analyses", r.text
    assert 0 < int(r.headers["Retry-After"]) <= 86_400
    # A seat token's holder without an account counts as its address.
    r = await api.client.post(f"{api.base}/{games[4].id}/analysis", headers=games[4].auth("white"))
    assert r.status_code == 202, r.text
    await app.state.parts.analyses.close()
