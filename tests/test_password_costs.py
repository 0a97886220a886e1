"""argon2id's costs in production: what the server hashes with when nothing is set.

Every other test runs argon2 at its cheapest (tests/conftest.py); this one
starts the server from the settings' own defaults, with none of the PASSWORD_*
variables set, and reads the costs out of the hashes it makes: an admin's (as
stored), a player's, and the dummy a sign-in under an unknown name is checked
against.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from argon2 import extract_parameters
from argon2.profiles import RFC_9106_LOW_MEMORY
from sqlalchemy import select

from app.accounts import admins
from app.auth import hashing
from app.config import Settings
from app.db.account_models import accounts as account_rows
from app.main import create_app
from tests.conftest import CHEAP_PASSWORDS

PRODUCTION = (RFC_9106_LOW_MEMORY.time_cost, RFC_9106_LOW_MEMORY.memory_cost, RFC_9106_LOW_MEMORY.parallelism)


def costs_of(digest: str) -> tuple[int, int, int]:
    found = extract_parameters(digest)
    return found.time_cost, found.memory_cost, found.parallelism


@pytest.fixture
def unset(monkeypatch: pytest.MonkeyPatch) -> None:
    """None of the PASSWORD_* variables the tests set (tests/conftest.py)."""
    for name in CHEAP_PASSWORDS:
        monkeypatch.delenv(name.upper(), raising=False)


@pytest.fixture
def production_settings(database_url: str, unset: None) -> Iterator[Settings]:
    """The settings as production reads them, but for the database; the cheap costs
    come back afterwards, for the tests that follow in this process."""
    try:
        yield Settings(_env_file=None, database_url=database_url)  # type: ignore[call-arg]
    finally:
        hashing.use(*CHEAP_PASSWORDS.values())


def test_the_default_costs_are_argon2s_own(unset: None) -> None:
    defaults = Settings(_env_file=None)  # type: ignore[call-arg]
    assert defaults.password_costs == PRODUCTION == (3, 65536, 4)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # the costs are no database's concern
async def test_production_hashes_with_the_production_costs(production_settings: Settings) -> None:
    assert hashing.costs() == tuple(CHEAP_PASSWORDS.values())  # what the tests run with, until:
    app: Any = create_app(production_settings)
    async with app.router.lifespan_context(app):
        engine = app.state.parts.engine
        await admins.add(app.state.parts.accounts, "root", "correct horse battery", "a test")
        async with engine.connect() as conn:
            admin_hash = (await conn.execute(select(account_rows.c.password_hash)
                                             .where(account_rows.c.name == "root"))).scalar_one()
    # The players' service hashes with app.auth.hash_password, in its pool of threads
    # at the lowest priority, where on a busy machine one hash of 64 MiB waited 49 s
    # (load 25): the function is called here, in this thread.
    player_hash = hashing.hash_password("correct horse battery")
    assert costs_of(admin_hash) == costs_of(player_hash) == costs_of(hashing.dummy()) == PRODUCTION
    assert hashing.matches(player_hash, "correct horse battery")
    assert not hashing.matches(hashing.DUMMY_HASH, "not the password of anyone")


def test_a_hash_made_with_other_costs_is_still_checked_with_its_own() -> None:
    """Changing the costs locks nobody out: a stored hash carries the costs it was made with."""
    old = hashing.HASHER.hash("correct horse battery")
    hashing.use(2, 16, 1)
    try:
        assert costs_of(hashing.hash_password("x" * 10)) == (2, 16, 1)
        assert hashing.matches(old, "correct horse battery") and not hashing.matches(old, "wrong")
    finally:
        hashing.use(*CHEAP_PASSWORDS.values())
