"""Schemathesis hooks for tests/api/test_schemathesis.py: real seats.

The test creates matches on the live server and hands their ids and seat tokens
in MAGERY_ST_SEATS (JSON: [[match id, token], ...]). Most generated calls are
aimed at one of those matches and carry that seat's real token, so schemathesis
reaches the routes' logic instead of 404 and 401; the rest keep the match id
it generated (a 404 is the answer there).
"""

from __future__ import annotations

import json
import os
import zlib
from typing import Any

import schemathesis

SEATS: list[list[str]] = json.loads(os.environ.get("MAGERY_ST_SEATS", "[]"))
TOKENS: dict[str, str] = {}
for _match_id, _token in SEATS:  # the first seat named (White, who moves first)
    TOKENS.setdefault(_match_id, _token)


def aimed(match_id: Any) -> Any:
    """The match a generated id is aimed at: a real one four times in five (the
    same for the same id, so the path and the token always agree)."""
    if not SEATS or not isinstance(match_id, str) or match_id in TOKENS:
        return match_id
    spot = zlib.crc32(match_id.encode("utf-8", "surrogatepass"))
    return SEATS[spot % len(SEATS)][0] if spot % 5 else match_id


@schemathesis.hook
def map_path_parameters(context: Any, path_parameters: dict[str, Any]) -> dict[str, Any]:
    if path_parameters and "match_id" in path_parameters:
        return {**path_parameters, "match_id": aimed(path_parameters["match_id"])}
    return path_parameters


@schemathesis.auth(refresh_interval=None)
class SeatToken:
    """The token of a seat in the match the call is aimed at (or of any seat)."""

    def get(self, case: Any, context: Any) -> str | None:
        match_id = aimed((case.path_parameters or {}).get("match_id"))
        token = TOKENS.get(match_id) if isinstance(match_id, str) else None
        return token or (SEATS[0][1] if SEATS else None)

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}
