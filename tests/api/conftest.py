"""Players the API tests meet again and again: accounts with an API token and a
signed-in session each (tests/api/members.py)."""

from __future__ import annotations

from typing import Any

import pytest

from .members import Member, member


@pytest.fixture
async def ada(app: Any) -> Member:
    return await member(app, "Ada")


@pytest.fixture
async def bea(app: Any) -> Member:
    return await member(app, "Bea")
