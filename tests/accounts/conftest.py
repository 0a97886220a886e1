"""Fixtures for the account tests: the account service and the match service
on a fresh database (SQLite, then PostgreSQL); argon2 runs at its lowest costs
in every test (tests/conftest.py), so a test may make many accounts."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from app.accounts import Account, Accounts
from app.auth import PasswordChecks
from app.db import make_engine
from app.matches import MatchService
from tests.conftest import make_settings

PASSWORD = "correct horse battery"


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    made = make_engine(database_url)
    yield made
    await made.dispose()


@pytest.fixture
def settings(database_url: str) -> Any:
    return make_settings(database_url)


@pytest.fixture
def accounts(engine: AsyncEngine, settings: Any) -> Accounts:
    return Accounts(engine, settings, PasswordChecks(2, 64))


@pytest.fixture
def service(engine: AsyncEngine, settings: Any) -> MatchService:
    return MatchService(engine, settings, bot_levels=("random", "greedy", "strong"))


async def player(accounts: Accounts, name: str, address: str = "10.0.0.1") -> Account:
    """A new account (each from its own address unless told: sign-ups are limited per address)."""
    return await accounts.sign_up(name, PASSWORD, f"{address}-{name}")
