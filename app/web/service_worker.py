"""`/sw.js`: the service worker that shows web push notifications (static/sw.js).

Served from the root, so its scope is the whole site (a worker's default
scope is the folder it is served from, and a match page is under /matches/).
As JavaScript, and `no-cache`: the browser checks it again at each
registration and update, so a new release reaches every browser. The
site's security headers come as on every answer (app/web/headers.py). No
`from __future__ import annotations`: FastAPI reads the route's annotations.
"""

from fastapi import APIRouter
from fastapi.responses import Response

from .pages import ROOT

FILE = ROOT / "static" / "sw.js"
router = APIRouter(include_in_schema=False)
_read: tuple[int, bytes] | None = None  # the file's mtime, and its text


def _worker() -> bytes:
    """The file, read again only when it changed."""
    global _read
    mtime = FILE.stat().st_mtime_ns
    if _read is None or _read[0] != mtime:
        _read = (mtime, FILE.read_bytes())
    return _read[1]


@router.get("/sw.js")
async def service_worker() -> Response:
    return Response(_worker(), media_type="text/javascript; charset=utf-8",
                    headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})
