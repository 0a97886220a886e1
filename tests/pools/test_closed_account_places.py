"""A closed account is paired with nobody: its waiting places in the pools go
with the closing, by its player or by an admin. On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from ..api.members import member
from ..api.test_closed_account import CLOSINGS
from .conftest import new_address

POOL = "/api/v1/pools/standard:10+5/join"


@pytest.mark.parametrize("closing", sorted(CLOSINGS))
async def test_closing_takes_the_accounts_places_out_of_the_pools(app: Any, client: httpx.AsyncClient,
                                                                  closing: str) -> None:
    ada, bea = await member(app, "Ada"), await member(app, "Bea")
    joined = await client.post(POOL, json={}, headers={**ada.token(), "X-Forwarded-For": new_address()})
    assert joined.status_code == 200 and joined.json()["status"] == "waiting", joined.text
    await CLOSINGS[closing](app, client, ada)
    # Bea comes to the pool from elsewhere: she waits, with nobody to be paired with.
    answer = await client.post(POOL, json={}, headers={**bea.token(), "X-Forwarded-For": new_address()})
    assert answer.status_code == 200 and answer.json()["status"] == "waiting", answer.text
    assert answer.json()["match"] is None
