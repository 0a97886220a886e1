"""Passwords hashed with argon2id (argon2-cffi), and the dummy hash a sign-in
checks against when the name is unknown, so that a wrong name costs the same
time as a wrong password and the answer's delay says nothing. One hasher and
one dummy for the whole process.

The hasher's costs are the settings' PASSWORD_TIME_COST, PASSWORD_MEMORY_KIB
and PASSWORD_PARALLELISM (by default argon2-cffi's own, RFC 9106's low-memory
profile: 3 passes over 64 MiB in 4 lanes). The server sets them once, as it
starts (`use`, called by app.main.create_app, as it sets up the logs); the
command lines do the same. Until then the hasher has those default costs.
They are changed in place: the wings hold this one `HASHER`. A hash carries its
own costs, so a password hashed before a change is still checked right.

`DUMMY_HASH` is a marker, not a hash: `matches` checks a password against the
real dummy, made with the costs in use (so it costs what a real check does).
"""

from __future__ import annotations

import threading

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

DUMMY_HASH = "dummy: no account has this hash"


class Hasher(PasswordHasher):
    """argon2id whose costs can be set once the settings are read."""

    __slots__ = ()

    def set_costs(self, time_cost: int, memory_kib: int, parallelism: int) -> None:
        PasswordHasher.__init__(self, time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism)


HASHER = Hasher()
_dummy: dict[tuple[int, int, int], str] = {}  # the costs: the dummy hash made with them
_dummy_lock = threading.Lock()


def use(time_cost: int, memory_kib: int, parallelism: int) -> None:
    """Hash with these costs from now on, in the whole process; the dummy is made
    at once (an impossible combination of costs fails here, at the start)."""
    HASHER.set_costs(time_cost, memory_kib, parallelism)
    dummy()


def costs() -> tuple[int, int, int]:
    """The costs in use: (time cost, memory in KiB, parallelism)."""
    return HASHER.time_cost, HASHER.memory_cost, HASHER.parallelism


def dummy() -> str:
    """The dummy hash for the costs in use, made at the first need."""
    key = costs()
    with _dummy_lock:
        if key not in _dummy:
            _dummy[key] = HASHER.hash("not the password of anyone")
        return _dummy[key]


def hash_password(password: str) -> str:
    """The argon2id hash of `password`, with its salt and costs (slow on purpose:
    call it in a PasswordChecks pool)."""
    return HASHER.hash(password)


def matches(digest: str, password: str) -> bool:
    """Whether `password` is the one `digest` was made from; a damaged hash is a
    no, and so is every password checked against `DUMMY_HASH` (at full cost)."""
    if digest == DUMMY_HASH:
        _check(dummy(), password)  # the same work as a real check; the answer is no
        return False
    return _check(digest, password)


def _check(digest: str, password: str) -> bool:
    try:
        return bool(HASHER.verify(digest, password))
    except (VerificationError, InvalidHashError):
        return False
