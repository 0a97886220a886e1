"""What every route reads from a request alike. Who is calling (a seat's token,
an account's token or session) is app/api/caller.py's."""

from __future__ import annotations

from fastapi import Request


def address_of(request: Request) -> str | None:
    return request.client.host if request.client else None
