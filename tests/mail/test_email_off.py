"""With no SMTP_URL email is off: the account page says so, and the API refuses
to take an address (nothing could verify it)."""

from __future__ import annotations

import re
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


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_without_smtp_url_the_grids_email_column_is_disabled_and_says_why(client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ada")
    page = (await client.get("/account")).text
    assert "This server sends no email (its operator has not set SMTP_URL)." in page
    boxes = re.findall(r'<input type="checkbox" name="[a-z_]+\.email"[^>]*>', page)
    assert boxes and all("disabled" in b and 'aria-describedby="notify-email-why"' in b for b in boxes)
    assert 'name="cells" value="your_turn.email"' not in page  # the form may not change them
    r = await client.post("/account/notifications", data={"csrf_token": await csrf_of(client),
                                                          "cells": ["your_turn.email"], "your_turn.email": "on"})
    assert r.status_code == 303
    got = (await client.get("/api/v1/account/notification-preferences")).json()["preferences"]
    assert got["your_turn"]["email"] is False
