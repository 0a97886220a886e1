"""Validators for the reads of a finished match.

A finished match's state, log, states and judged positions are read far more
often than they change (after the end only a rematch offer, or a seat's
presence, moves them). Their answers carry an `ETag` (a hash of the JSON) and
`Cache-Control: public, no-cache`: any cache may keep them, and asks again with
`If-None-Match`, answered `304 Not Modified` with no body while nothing changed.
A running match's answers carry neither: they change with every action.
"""

from __future__ import annotations

import hashlib

from fastapi import Request
from fastapi.responses import Response

CACHE_CONTROL = "public, no-cache"  # kept anywhere, revalidated before each use
# The OpenAPI description of the answer to a matching If-None-Match.
NOT_MODIFIED = {"description": "Not modified: the finished match's answer is still the one your ETag names"}


def tag_of(raw: bytes) -> str:
    """A weak tag: the same JSON, whatever its encoding on the wire (gzip or not)."""
    return 'W/"' + hashlib.sha256(raw).hexdigest()[:32] + '"'


def _matches(asked: str, tag: str) -> bool:
    if asked.strip() == "*":
        return True
    bare = tag.removeprefix("W/")
    return any(t.strip().removeprefix("W/") == bare for t in asked.split(","))  # a weak comparison


def validated(request: Request, raw: bytes, finished: bool, answer: Response) -> Response:
    """`answer` (whose JSON is `raw`) with the validators of a finished match's
    read, or 304 when the client's `If-None-Match` holds its tag."""
    if not finished:
        return answer
    tag = tag_of(raw)
    headers = {"ETag": tag, "Cache-Control": CACHE_CONTROL}
    asked = request.headers.get("if-none-match")
    if asked is not None and _matches(asked, tag):
        vary = answer.headers.get("vary")
        return Response(status_code=304, headers={**headers, **({"Vary": vary} if vary else {})})
    answer.headers.update(headers)
    return answer
