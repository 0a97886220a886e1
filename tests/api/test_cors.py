"""REST follows `ALLOWED_ORIGINS` for CORS (issue 21, item 5), as the websocket
does: a listed origin's preflight is answered and its answers readable; another
origin gets no permission; with the setting empty nothing changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from app.main import create_app

from ..conftest import make_settings

SITE = "https://client.example"
PREFLIGHT = {"Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "authorization, content-type, idempotency-key"}


async def _answers(tmp_path: Path, template: Path, allowed: list[str]) -> dict[str, httpx.Response]:
    path = tmp_path / f"cors{len(allowed)}.sqlite3"
    path.write_bytes(template.read_bytes())
    app: Any = create_app(make_settings(f"sqlite+aiosqlite:///{path}", allowed_origins=allowed))
    out = {}
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            for origin in (SITE, "https://foreign.example"):
                out[f"preflight {origin}"] = await c.options("/api/v1/matches", headers={"Origin": origin, **PREFLIGHT})
                out[f"post {origin}"] = await c.post("/api/v1/matches", json={}, headers={"Origin": origin})
            out["page"] = await c.get("/", headers={"Origin": SITE})
    return out


async def test_rest_follows_allowed_origins(tmp_path: Path, sqlite_template: Path) -> None:
    listed = await _answers(tmp_path, sqlite_template, [SITE + "/"])
    pre = listed[f"preflight {SITE}"]
    assert pre.status_code == 200, pre.text
    assert pre.headers["access-control-allow-origin"] == SITE
    assert "POST" in pre.headers["access-control-allow-methods"]
    assert "idempotency-key" in pre.headers["access-control-allow-headers"].lower()
    assert "access-control-allow-credentials" not in pre.headers  # tokens, never the browser's cookie
    made = listed[f"post {SITE}"]
    assert made.status_code == 201 and made.headers["access-control-allow-origin"] == SITE
    assert "Location" in made.headers["access-control-expose-headers"]
    # A foreign origin: its preflight refused, its answers carry no permission.
    assert listed["preflight https://foreign.example"].status_code == 400
    assert "access-control-allow-origin" not in listed["preflight https://foreign.example"].headers
    assert "access-control-allow-origin" not in listed["post https://foreign.example"].headers
    assert "access-control-allow-origin" not in listed["page"].headers  # the site's pages stay same-site

    anyone = await _answers(tmp_path, sqlite_template, ["*"])
    assert anyone["preflight https://foreign.example"].headers["access-control-allow-origin"] == "*"
    assert anyone["post https://foreign.example"].headers["access-control-allow-origin"] == "*"

    unset = await _answers(tmp_path, sqlite_template, [])
    assert unset[f"preflight {SITE}"].status_code == 405  # as before: no CORS at all
    assert not any(h.startswith("access-control-") for h in unset[f"post {SITE}"].headers)
