"""Fixtures for the admin dashboard's tests: an admin (an account with the
admin role), and a client signed in through the dashboard's sign-in form.

`tests/conftest.py` empties every table, the admin's too, between PostgreSQL tests.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.accounts import admins
from tests.realtime.conftest import sockets  # noqa: F401  (the socket fixture, for the moderation tests)

PASSWORD = "correct horse battery"
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
META_CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)">')


async def add_admin(app: Any, name: str = "root", password: str = PASSWORD) -> None:
    await admins.add(app.state.parts.accounts, name, password, "a test")


def login_token(html: str) -> str:
    found = CSRF.search(html)
    assert found, html
    return found.group(1)


async def sign_in(client: httpx.AsyncClient, name: str = "root", password: str = PASSWORD,
                  next_path: str = "/admin") -> httpx.Response:
    """The sign-in form, filled in and sent as a browser would."""
    form = await client.get("/admin/login")
    assert form.status_code == 200, form.text
    return await client.post("/admin/login", data={
        "username": name, "password": password, "csrf_token": login_token(form.text), "next": next_path})


class AdminClient:
    """A client signed in as an admin, with its session's CSRF token."""

    def __init__(self, http: httpx.AsyncClient, csrf: str) -> None:
        self.http = http
        self.csrf = csrf

    async def get(self, url: str, **kw: Any) -> httpx.Response:
        return await self.http.get(url, **kw)

    async def post(self, url: str, **kw: Any) -> httpx.Response:
        return await self.http.post(url, **kw)

    async def moderate(self, match_id: str, verdict: str, reason: str = "a test") -> httpx.Response:
        return await self.http.post(f"/admin/api/matches/{match_id}/moderate",
                                    json={"verdict": verdict, "reason": reason},
                                    headers={"X-CSRF-Token": self.csrf})


@pytest.fixture
async def admin(app: Any) -> AsyncIterator[AdminClient]:
    await add_admin(app)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
        r = await sign_in(http)
        assert r.status_code == 303, r.text
        page = await http.get("/admin")
        assert page.status_code == 200, page.text
        found = META_CSRF.search(page.text)
        assert found
        yield AdminClient(http, found.group(1))
