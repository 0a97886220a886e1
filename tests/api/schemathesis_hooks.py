"""Schemathesis hooks for tests/api/test_schemathesis.py: real seats, a real account.

The test creates matches on the live server and hands their ids and seat tokens
in MAGERY_ST_SEATS (JSON: [[match id, token], ...]). Most generated calls are
aimed at one of those matches and carry that seat's real token, so schemathesis
reaches the routes' logic instead of 404 and 401; the rest keep the match id
it generated (a 404 is the answer there).

The account's routes (issue 21: /account, /account/bot, /challenges...) carry
an account token instead (MAGERY_ST_ACCOUNT), and most of their `name` and
`challenge_id` parameters name a real player (MAGERY_ST_NAMES) and a real
challenge (MAGERY_ST_CHALLENGES), for the same reason.

A body's `name` that fits the schema's pattern but breaks one of the two name
rules no JSON Schema pattern can state (a zero-width joiner only between two
symbols, at most three combining marks on one character: app/kernel/ids.py,
both said in the field's description) is sent as a plain name instead: the
server refuses those with a 400 naming the character, which the schema cannot
foresee. Everything else generated goes as it was.
"""

from __future__ import annotations

import json
import os
import re
import zlib
from typing import Any

import schemathesis

from app.kernel.ids import NAME, name_flaw
from app.push.endpoints import KNOWN_PUSH_HOSTS, BadEndpoint, checked_endpoint

SEATS: list[list[str]] = json.loads(os.environ.get("MAGERY_ST_SEATS", "[]"))
ACCOUNT: str | None = os.environ.get("MAGERY_ST_ACCOUNT")
REAL: dict[str, list[str]] = {  # path parameter: real values to aim at
    "name": json.loads(os.environ.get("MAGERY_ST_NAMES", "[]")),
    "challenge_id": json.loads(os.environ.get("MAGERY_ST_CHALLENGES", "[]"))}
ACCOUNT_PATHS = ("/api/v1/account", "/api/v1/challenges")  # answered to an account only
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


# What the schema lets each aimed parameter be: a value outside it is schemathesis's
# deliberately wrong one, sent as it is (made real, it would be accepted, and the
# negative-data check would rightly call that a schema-violating request let through).
FITS = {"name": re.compile(r"[A-Za-z0-9_-]{2,20}"), "challenge_id": re.compile(r"[A-Za-z0-9_-]{1,16}")}


def real(parameter: str, value: Any) -> Any:
    """A real name or challenge id four times in five (the same for the same value),
    for a value the schema allows."""
    known = REAL.get(parameter) or []
    fits = FITS.get(parameter)
    if not known or not isinstance(value, str) or value in known or fits is None or not fits.fullmatch(value):
        return value
    spot = zlib.crc32(value.encode("utf-8", "surrogatepass"))
    return known[spot % len(known)] if spot % 5 else value


_NAME_PATTERN = re.compile(NAME)
# A push subscription's parts no schema can state (docs/api.md "Web push"): its
# endpoint must be on a push service's host the server is configured with, and
# its p256dh a point on P-256. One that fits the schema but not those is sent
# with a real push service's endpoint and a real point instead: the server
# refuses the others with a 400 naming the field (tests/push/test_subscribing.py).
_A_POINT = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
_P256DH = re.compile(r"^[A-Za-z0-9_-]{87}=?$")
ENDPOINT_MOST = 2048  # the schema's maxLength of an endpoint


def _subscription(body: dict[str, Any]) -> dict[str, Any]:
    endpoint, keys = body.get("endpoint"), body.get("keys")
    if isinstance(endpoint, str) and len(endpoint) <= ENDPOINT_MOST:  # a longer one is the schema's wrong case
        try:
            checked_endpoint(endpoint, list(KNOWN_PUSH_HOSTS))
        except BadEndpoint:
            spot = zlib.crc32(endpoint.encode("utf-8", "surrogatepass"))
            body = {**body, "endpoint": f"https://fcm.googleapis.com/fcm/send/st-{spot}"}
    if isinstance(keys, dict) and isinstance(keys.get("p256dh"), str) and _P256DH.match(keys["p256dh"]):
        body = {**body, "keys": {**keys, "p256dh": _A_POINT}}
    return body


@schemathesis.hook
def map_body(context: Any, body: Any) -> Any:
    if isinstance(body, dict) and "endpoint" in body and "keys" in body:
        return _subscription(body)
    if isinstance(body, dict) and isinstance(body.get("name"), str):
        name = body["name"]
        if _NAME_PATTERN.match(name) and name_flaw(name) is not None:  # fits the pattern, breaks the unstatable rules
            return {**body, "name": "Guest"}
    return body


@schemathesis.hook
def map_path_parameters(context: Any, path_parameters: dict[str, Any]) -> dict[str, Any]:
    if not path_parameters:
        return path_parameters
    mapped = {name: real(name, value) for name, value in path_parameters.items()}
    if "match_id" in mapped:
        mapped["match_id"] = aimed(mapped["match_id"])
    return mapped


@schemathesis.auth(refresh_interval=None)
class SeatToken:
    """The token of a seat in the match the call is aimed at (or of any seat)."""

    def get(self, case: Any, context: Any) -> str | None:
        if ACCOUNT and case.operation.path.startswith(ACCOUNT_PATHS):
            return ACCOUNT
        match_id = aimed((case.path_parameters or {}).get("match_id"))
        token = TOKENS.get(match_id) if isinstance(match_id, str) else None
        return token or (SEATS[0][1] if SEATS else None)

    def set(self, case: Any, data: str, context: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}
