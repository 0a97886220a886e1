"""Static files at a URL that names their content, cached for good; old URLs
still answer; pages and JSON reads gzip-compressed; a meta description on each
public page (app/web/assets.py, static.py, compression.py)."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import httpx

from app.web.assets import Assets
from app.web.static import StaticFiles

GZIP = {"Accept-Encoding": "gzip"}


async def test_a_page_names_its_files_by_version_and_those_are_cached_for_good(client: httpx.AsyncClient) -> None:
    page = (await client.get("/")).text
    urls = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
    assert urls and all(u.startswith("/static/v/") for u in urls), urls
    assert any(u.endswith("/js/home.js") for u in urls) and any(u.endswith("/css/site.css") for u in urls)
    assert len({u.split("/")[3] for u in urls}) == 1  # one version: relative imports land on preloaded URLs
    answer = await client.get(next(u for u in urls if u.endswith("/js/home.js")))
    assert answer.status_code == 200 and "immutable" in answer.headers["cache-control"]
    assert "max-age=31536000" in answer.headers["cache-control"]
    old = await client.get("/static/js/home.js")
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache" and old.content == answer.content
    past = await client.get("/static/v/0000000000000000/js/home.js")  # a past release's URL: today's file, revalidated
    assert past.status_code == 200 and past.headers["cache-control"] == "no-cache"


async def test_the_version_follows_the_files(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("export const a = 1;")
    now = [0.0]
    assets = Assets(tmp_path, clock=lambda: now[0])
    first = assets.url("a.js")
    (tmp_path / "a.js").write_text("export const a = 22;")
    assert assets.url("a.js") == first  # checked again only a moment later
    now[0] = 5.0
    second = assets.url("a.js")
    assert second != first and second.endswith("/a.js")
    app = StaticFiles(tmp_path, assets)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        fresh = await c.get(second)
        stale = await c.get(first)
    assert fresh.text == stale.text == "export const a = 22;"
    assert "immutable" in fresh.headers["cache-control"] and stale.headers["cache-control"] == "no-cache"


async def test_pages_and_json_reads_are_compressed_and_actions_are_not(client: httpx.AsyncClient) -> None:
    for _ in range(6):  # enough waiting matches that the list passes the threshold
        made = await client.post("/api/v1/matches", json={"name": "Ada"})
    home = await client.get("/", headers=GZIP)
    assert home.headers.get("content-encoding") == "gzip" and "Accept-Encoding" in home.headers["vary"]
    assert "<html" in home.text  # httpx undid it
    listed = await client.get("/api/v1/matches?status=waiting", headers=GZIP)
    assert listed.headers.get("content-encoding") == "gzip" and len(listed.json()["matches"]) == 6
    assert int(listed.headers["content-length"]) < len(listed.content) / 2
    plain = await client.get("/api/v1/matches?status=waiting", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert [m["id"] for m in plain.json()["matches"]] == [m["id"] for m in listed.json()["matches"]]
    match_id = made.json()["match"]["id"]
    joined = await client.post(f"/api/v1/matches/{match_id}/join", json={"name": "Bo"}, headers=GZIP)
    assert joined.status_code == 200 and "content-encoding" not in joined.headers  # the action path is left alone


async def test_the_raw_bytes_really_are_gzip(app: object) -> None:
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    async with (httpx.AsyncClient(transport=transport, base_url="http://testserver") as c,
                c.stream("GET", "/learn", headers=GZIP) as answer):
        raw = b"".join([part async for part in answer.aiter_raw()])
    assert gzip.decompress(raw).startswith(b"<!doctype html>")


async def test_each_public_page_has_a_description(client: httpx.AsyncClient) -> None:
    made = (await client.post("/api/v1/matches", json={"name": "Ada"})).json()
    for url in ("/", "/learn", "/leaderboard", f"/matches/{made['match']['id']}"):
        page = (await client.get(url)).text
        found = re.findall(r'<meta name="description" content="([^"]{50,})">', page)
        assert len(found) == 1, url

