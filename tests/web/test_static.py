"""/static/: served from memory, compressed once, revalidated by ETag, and never
a file outside static/ (app/web/static.py)."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import httpx

from app.web.static import StaticFiles

STATIC = Path(__file__).resolve().parents[2] / "static"


def _client() -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=StaticFiles(STATIC)), base_url="http://testserver")


async def test_a_module_compressed_with_its_etag_then_304() -> None:
    async with _client() as client:
        r = await client.get("/static/js/chooser.js", headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200
        assert r.headers["content-type"] == "text/javascript; charset=utf-8"
        assert r.headers["content-encoding"] == "gzip" and r.headers["cache-control"] == "no-cache"
        assert r.content == (STATIC / "js" / "chooser.js").read_bytes()  # httpx undid the gzip
        again = await client.get("/static/js/chooser.js", headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        plain = await client.get("/static/js/chooser.js", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.content == r.content


async def test_nothing_outside_static_and_nothing_but_reads() -> None:
    async with _client() as client:
        for path in ["/static/../app/main.py", "/static/js/../../pyproject.toml", "/static/", "/static/nope.js",
                     "/static/js/%00.js"]:
            r = await client.get(path)
            assert r.status_code == 404, path
        assert (await client.post("/static/js/chooser.js")).status_code == 404


async def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    (tmp_path / "a.css").write_text("body { color: red; }" * 50)
    app = StaticFiles(tmp_path)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client:
        first = await client.get("/static/a.css", headers={"Accept-Encoding": "gzip"})
        (tmp_path / "a.css").write_text("body { color: blue; }" * 50)
        os.utime(tmp_path / "a.css", ns=(1, 10**18))
        second = await client.get("/static/a.css")
    assert first.text.startswith("body { color: red")
    assert second.text.startswith("body { color: blue") and first.headers["etag"] != second.headers["etag"]
    assert gzip.decompress(app.files["a.css"].gzipped or b"").startswith(b"body { color: blue")
