"""The account pages' tests hash with argon2 at its lowest costs, so that a
test may make many accounts (the costs are the library's own concern)."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher


@pytest.fixture(autouse=True)
def quick_argon2(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.auth import hashing

    monkeypatch.setattr(hashing, "HASHER", PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1))
