"""Passwords hashed with argon2id (argon2-cffi, its current recommended costs),
and the dummy hash a sign-in checks against when the name is unknown, so that
a wrong name costs the same time as a wrong password and the answer's delay
says nothing. One hasher and one dummy for the whole process."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

HASHER = PasswordHasher()
DUMMY_HASH = HASHER.hash("not the password of anyone")


def hash_password(password: str) -> str:
    """The argon2id hash of `password`, with its salt and costs (slow on purpose:
    call it in a PasswordChecks pool)."""
    return HASHER.hash(password)


def matches(digest: str, password: str) -> bool:
    """Whether `password` is the one `digest` was made from; a damaged hash is a no."""
    try:
        return bool(HASHER.verify(digest, password))
    except (VerificationError, InvalidHashError):
        return False
