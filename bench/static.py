"""/static/ served two ways, CPU per request: our server from memory
(app/web/static.py: each file read and gzipped once per change) against the
framework's way, Starlette's StaticFiles behind its GZip middleware with the
same `Cache-Control: no-cache`. Requests go straight to each ASGI app (no
sockets), so the figure is the server's own cost per file. Issue 18 keeps a
home-made shortcut only where it is worth 10% or more.

    .venv/bin/python bench/static.py
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from starlette.middleware.gzip import GZipMiddleware  # noqa: E402
from starlette.responses import Response  # noqa: E402
from starlette.staticfiles import StaticFiles as FrameworkFiles  # noqa: E402

from app.web.static import StaticFiles as MemoryFiles  # noqa: E402

FILES = sorted(p.relative_to(ROOT / "static").as_posix() for p in (ROOT / "static").rglob("*")
               if p.is_file() and p.suffix in (".js", ".css", ".svg"))


async def _get(app: Any, path: str, headers: list[tuple[bytes, bytes]]) -> tuple[int, dict[bytes, bytes]]:
    scope = {"type": "http", "method": "GET", "path": f"/static/{path}", "root_path": "/static",
             "headers": headers, "query_string": b"", "http_version": "1.1", "scheme": "http",
             "server": ("t", 80), "client": ("c", 1)}
    got: dict[str, Any] = {}

    asked = False

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:  # the (empty) body once, then the client stays until the answer ends
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            got["status"], got["headers"] = message["status"], dict(message["headers"])

    # Starlette's mount hands the app a scope whose path is under its root_path.
    scope["path"] = f"/static/{path}"
    await app(scope, receive, send)
    return got["status"], got["headers"]


async def _rate(app: Any, fresh: bool, seconds: float) -> float:
    etags: dict[str, bytes] = {}
    for path in FILES:
        _, headers = await _get(app, path, [(b"accept-encoding", b"gzip")])
        etags[path] = headers.get(b"etag", b"")
    count, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for path in FILES:
            extra = [] if fresh else [(b"if-none-match", etags[path])]
            status, _ = await _get(app, path, [(b"accept-encoding", b"gzip"), *extra])
            assert status == (200 if fresh else 304), (path, status)
            count += 1
    return count / (time.process_time() - start)


class _Revalidated(FrameworkFiles):
    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["cache-control"] = "no-cache"
        return response


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    servers = {"ours, from memory": MemoryFiles(ROOT / "static"),
               "starlette + gzip": GZipMiddleware(_Revalidated(directory=ROOT / "static"), minimum_size=512)}
    for fresh, label in ((True, "a first load (200, gzip)"), (False, "a revalidation (304)")):
        rates = {name: asyncio.run(_rate(app, fresh, args.seconds)) for name, app in servers.items()}
        line = ", ".join(f"{name} {rate:,.0f}/CPU s" for name, rate in rates.items())
        ours, framework = rates.values()
        print(f"{label}: {line}; ours {ours / framework:.1f}× the framework's ({len(FILES)} files)")


if __name__ == "__main__":
    main()
