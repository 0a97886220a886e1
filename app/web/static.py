"""`/static/…`: the pages' scripts, styles and pictures, served from memory.

A page opens with a dozen small files; serving each through a file read on a
worker thread and a fresh gzip costs the server more than the page's own
answer. Here each file is read and compressed once (again only when its mtime
changes), and answered with an ETag (304 when the browser has it). A URL that names the
current version of the files (`/static/v/<version>/…`, assets.py) is cached for
good (`immutable`); any other, an old unversioned URL or a past version's, is
`no-cache` (revalidated on each use, so a new release never runs beside cached
modules of the last one).

Starlette's own StaticFiles behind its GZip middleware would do the same job;
bench/static.py measures this one at 24× its requests per CPU second on a first
load and 5.7× on a revalidation (a thread hop per file and a fresh gzip per
answer there), so the shortcut stays, as a plain ASGI app of its own.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .assets import Assets

FOR_GOOD = b"public, max-age=31536000, immutable"
COMPRESSIBLE = ("text/", "application/javascript", "image/svg+xml", "application/json")
mimetypes.add_type("text/javascript", ".js")  # some systems' tables still say application/x-javascript


@dataclass(slots=True)
class _File:
    mtime_ns: int
    body: bytes
    gzipped: bytes | None
    etag: bytes
    content_type: bytes


class StaticFiles:
    def __init__(self, root: Path, assets: Assets | None = None) -> None:
        self.root = root.resolve()
        self.assets = assets or Assets(self.root)
        self.files: dict[str, _File] = {}

    def _load(self, path: str) -> _File | None:
        try:
            target = (self.root / path).resolve()
            if not target.is_relative_to(self.root) or not target.is_file():
                return None
            mtime = os.stat(target).st_mtime_ns
        except (OSError, ValueError):  # a NUL in the name, a file gone meanwhile
            return None
        known = self.files.get(path)
        if known is not None and known.mtime_ns == mtime:
            return known
        body = target.read_bytes()
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind == "application/javascript":
            kind += "; charset=utf-8"
        packed = gzip.compress(body, 9, mtime=0) if kind.startswith(COMPRESSIBLE) and len(body) > 512 else None
        etag = f'"{hashlib.sha256(body).hexdigest()[:20]}"'.encode()
        found = _File(mtime, body, packed, etag, kind.encode())
        self.files[path] = found
        return found

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        # Mounted at /static: the path arrives whole or relative, by Starlette version.
        version, path = self.assets.split(scope["path"].removeprefix("/static/").lstrip("/"))
        found = self._load(path) if scope["method"] in ("GET", "HEAD") and path else None
        if found is None:
            await _answer(send, 404, [(b"content-type", b"text/plain; charset=utf-8")], b"not found")
            return
        headers = dict(scope["headers"])
        # A past version's URL gets today's file, but only revalidated: it is not that version's.
        cache = FOR_GOOD if version is not None and version == self.assets.version else b"no-cache"
        base = [(b"etag", found.etag), (b"cache-control", cache), (b"vary", b"Accept-Encoding")]
        if found.etag in headers.get(b"if-none-match", b""):
            await _answer(send, 304, base, b"")
            return
        body = found.body
        extra = [(b"content-type", found.content_type)]
        if found.gzipped is not None and b"gzip" in headers.get(b"accept-encoding", b""):
            body = found.gzipped
            extra.append((b"content-encoding", b"gzip"))
        await _answer(send, 200, base + extra, b"" if scope["method"] == "HEAD" else body, len(body))


async def _answer(send: Any, status: int, headers: list[tuple[bytes, bytes]], body: bytes,
                  length: int | None = None) -> None:
    size = len(body) if length is None else length
    await send({"type": "http.response.start", "status": status,
                "headers": [*headers, (b"content-length", str(size).encode())]})
    await send({"type": "http.response.body", "body": body})
