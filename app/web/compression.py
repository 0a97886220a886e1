"""gzip for the answers worth it: pages (HTML) and the API's JSON reads.

Only a GET answer of known length, at least `SMALLEST` bytes, of HTML
or JSON, not already encoded, to a client that accepts gzip. So an action's
POST answer (a few hundred bytes, on the hottest path) costs nothing here, nor
does a streamed answer (the person channel's newline-delimited JSON, a held
pool wait): compressing a stream would hold its lines back in the compressor.
A home page's lists of whole match states shrink about sevenfold.

A HEAD must carry the headers its GET would (the gzip length, not the plain
one). Only an answer of known length is compressed, and a stream never has
one, so when a HEAD's answer turns out to be worth compressing it is asked
again as a GET, whose body is compressed to learn the length and then dropped.
A stream's HEAD is answered at once as before, never run as a GET.
"""

from __future__ import annotations

import gzip
from typing import Any

SMALLEST = 1024  # below this, gzip's header and the CPU outweigh the bytes saved
KINDS = (b"text/html", b"application/json")
LEVEL = 6


def _accepts_gzip(scope: dict[str, Any]) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"accept-encoding":
            return b"gzip" in value
    return False


class Compressed:
    def __init__(self, app: Any, smallest: int = SMALLEST) -> None:
        self.app = app
        self.smallest = smallest

    def _worth(self, message: dict[str, Any]) -> bool:
        headers = {name.lower(): value for name, value in message.get("headers", [])}
        length = headers.get(b"content-length")
        return (headers.get(b"content-type", b"").startswith(KINDS) and b"content-encoding" not in headers
                and length is not None and int(length) >= self.smallest)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD") or not _accepts_gzip(scope):
            await self.app(scope, receive, send)
            return
        if scope["method"] == "HEAD":
            await self._head(scope, receive, send)
            return
        start: dict[str, Any] | None = None
        parts: list[bytes] = []

        async def maybe_compressed(message: dict[str, Any]) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                if not self._worth(message):
                    await send(message)
                    return
                start = message
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            parts.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            body = gzip.compress(b"".join(parts), LEVEL, mtime=0)
            await send(_gzip_start(start, len(body)))
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, maybe_compressed)

    async def _head(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        held: list[dict[str, Any]] = []

        async def hold(message: dict[str, Any]) -> None:
            held.append(message)

        await self.app(scope, receive, hold)
        start = held[0] if held and held[0]["type"] == "http.response.start" else None
        if start is None or not self._worth(start):
            for message in held:
                await send(message)
            return
        got: list[dict[str, Any]] = []

        async def collect(message: dict[str, Any]) -> None:
            got.append(message)

        async def no_body() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        await self.app({**scope, "method": "GET"}, no_body, collect)
        again = got[0] if got and got[0]["type"] == "http.response.start" else None
        if again is None or again["status"] != start["status"] or not self._worth(again):
            for message in held:  # the answer changed between the two asks: the HEAD's own stands
                await send(message)
            return
        body = b"".join(m.get("body", b"") for m in got if m["type"] == "http.response.body")
        await send(_gzip_start(again, len(gzip.compress(body, LEVEL, mtime=0))))
        await send({"type": "http.response.body", "body": b""})


def _gzip_start(start: dict[str, Any], length: int) -> dict[str, Any]:
    kept = start.get("headers", [])
    sent = [(n, v) for n, v in kept if n.lower() not in (b"content-length", b"vary")]
    vary = [v for n, v in kept if n.lower() == b"vary"]
    sent += [(b"content-encoding", b"gzip"), (b"vary", b", ".join([*vary, b"Accept-Encoding"])),
             (b"content-length", str(length).encode())]
    return {**start, "headers": sent}
