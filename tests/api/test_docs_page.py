"""/docs and /redoc work offline: the pages name no third-party origin, and every
asset they name is served by the app itself with the right content type."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from urllib.parse import urljoin, urlsplit

import httpx
import pytest

from app.config import Settings
from app.main import create_app

BASE = "http://testserver"
# What a page loads: <script src>, <link href>, and the spec URL given to the script.
LOADED = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']|url:\s*['"]([^'"]+)['"]""")
ANY_URL = re.compile(r"""(?:https?:)?//[A-Za-z0-9.-]+""")


@pytest.fixture
async def docs_client() -> AsyncIterator[httpx.AsyncClient]:
    # The pages read no database: the app is made, never started.
    app = create_app(Settings(database_url="sqlite+aiosqlite:///:memory:"))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE) as client:
        yield client


def loaded_urls(html: str) -> list[str]:
    return [a or b for a, b in LOADED.findall(html)]


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
async def test_the_page_names_no_other_origin(docs_client: httpx.AsyncClient, page: str) -> None:
    r = await docs_client.get(page)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "/openapi.json" in r.text
    foreign = [u for u in ANY_URL.findall(r.text) if urlsplit(urljoin(BASE, u)).netloc != "testserver"]
    assert foreign == [], f"{page} names third-party origins: {foreign}"
    assert "validatorUrl" not in r.text or '&quot;validatorUrl&quot;: null' in r.text


@pytest.mark.parametrize(("page", "expected"), [
    ("/docs", {"swagger-ui-bundle.js": "javascript", "swagger-ui.css": "text/css", "favicon.png": "image/png",
               "swagger-init.js": "javascript"}),
    ("/redoc", {"redoc.standalone.js": "javascript", "favicon.png": "image/png"}),
])
async def test_every_asset_the_page_names_is_served(docs_client: httpx.AsyncClient, page: str,
                                                    expected: dict[str, str]) -> None:
    html = (await docs_client.get(page)).text
    urls = {u.rsplit("/", 1)[-1]: u for u in loaded_urls(html) if "openapi.json" not in u}
    assert set(urls) == set(expected), urls
    for name, kind in expected.items():
        r = await docs_client.get(urls[name])
        assert r.status_code == 200, (name, r.status_code)
        assert kind in r.headers["content-type"], (name, r.headers["content-type"])
        assert len(r.content) > 300, name  # the real file, not an error page
    spec = await docs_client.get("/openapi.json")
    assert spec.status_code == 200 and spec.json()["info"]["title"] == "Magery Online"


async def test_the_assets_route_serves_nothing_else(docs_client: httpx.AsyncClient) -> None:
    r = await docs_client.get("/docs/assets/../../app/main.py")
    assert r.status_code == 404
    assert (await docs_client.get("/docs/assets/nothing.js")).status_code == 404
