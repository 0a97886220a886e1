"""gzip for the answers worth it: pages (HTML) and the API's JSON reads.

Only a GET answer of known length, at least `SMALLEST` bytes, of HTML
or JSON, not already encoded, to a client that accepts gzip. So an action's
POST answer (a few hundred bytes, on the hottest path) costs nothing here, nor
does a streamed answer (the person channel's newline-delimited JSON, a held
pool wait): compressing a stream would hold its lines back in the compressor.
A home page's lists of whole match states shrink about sevenfold.
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

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "GET" or not _accepts_gzip(scope):
            await self.app(scope, receive, send)
            return
        start: dict[str, Any] | None = None
        parts: list[bytes] = []

        async def maybe_compressed(message: dict[str, Any]) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = {name.lower(): value for name, value in message.get("headers", [])}
                length = headers.get(b"content-length")
                worth = (headers.get(b"content-type", b"").startswith(KINDS) and b"content-encoding" not in headers
                         and length is not None and int(length) >= self.smallest)
                if not worth:
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
            kept = start.get("headers", [])
            sent = [(n, v) for n, v in kept if n.lower() not in (b"content-length", b"vary")]
            vary = [v for n, v in kept if n.lower() == b"vary"]
            sent += [(b"content-encoding", b"gzip"), (b"vary", b", ".join([*vary, b"Accept-Encoding"])),
                        (b"content-length", str(len(body)).encode())]
            await send({**start, "headers": sent})
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, maybe_compressed)
