"""With no SMTP_URL email is off: the account page says so, and the API refuses
to take an address (nothing could verify it)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import make_settings
from tests.web.accounts_helpers import csrf_of, sign_up


@pytest.fixture
def settings(database_url: str) -> Any:
    return make_settings(database_url)  # no SMTP_URL


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_without_smtp_url_the_page_says_email_is_off(client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ada")
    page = (await client.get("/account")).text
    assert 'id="email-off"' in page and 'action="/account/email"' not in page
    r = await client.put("/api/v1/account/email", json={"address": "ada@example.org"},
                         headers={"X-CSRF-Token": await csrf_of(client)})
    assert r.status_code == 409 and r.json()["error"] == "email_off"
