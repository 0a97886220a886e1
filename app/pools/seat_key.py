"""A paired guest's seat token, never stored: derived from the guest's ticket.

At each join a guest's place is given a fresh nonce (kept in plain) and the
hash of the token that the ticket and the nonce make together. The pairing,
run by whichever request finds the pair, seats the guest with that hash
alone; the guest's own request, which brings the ticket, makes the token again
to hand it over (as often as it asks: the same token each time). A database
reader holds the nonce and two hashes, neither of them the seat, and cannot
make the token without the ticket, which only the guest holds.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from app.matches.seats import ACCOUNT_TOKEN_PREFIX, hash_token


def seat_token(ticket: str, nonce: str) -> str:
    """The seat token of the place with `nonce`, for the holder of `ticket` (256 bits)."""
    mac = hmac.new(ticket.encode(), b"magery pool seat:" + nonce.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


def new_place(ticket: str) -> tuple[str, str]:
    """A new place's nonce, and the hash of its seat token (never one that begins
    as an account's API token does, as app.matches.seats.new_seat_token)."""
    while True:
        nonce = secrets.token_urlsafe(12)
        token = seat_token(ticket, nonce)
        if not token.startswith(ACCOUNT_TOKEN_PREFIX):
            return nonce, hash_token(token)
