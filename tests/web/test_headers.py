"""The security headers are written once (app/security.py): the pages, the API's
/docs and the admin's pages all carry that one builder's policy, and no other
module of app/ writes a policy of its own (issue 18)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from app.security import content_security_policy, security_headers

APP = Path(__file__).resolve().parents[2] / "app"


def _directives(policy: str) -> dict[str, list[str]]:
    return {d.split()[0]: d.split()[1:] for d in (p.strip() for p in policy.split(";")) if d}


async def test_every_wing_sends_the_one_builders_policy(client: httpx.AsyncClient) -> None:
    page = await client.get("/")
    assert page.headers["content-security-policy"] == content_security_policy()
    assert page.headers["x-frame-options"] == "DENY" and page.headers["x-content-type-options"] == "nosniff"
    admin = await client.get("/admin/login")
    assert admin.status_code == 200
    assert admin.headers["content-security-policy"] == content_security_policy()
    assert admin.headers["cache-control"] == "no-store"  # the admin's own addition
    docs = await client.get("/docs")
    policy = _directives(docs.headers["content-security-policy"])
    assert policy["script-src"] == ["'self'"]  # the docs add styles, fonts and a worker, never scripts
    assert policy["style-src"] == ["'self'", "'unsafe-inline'"] and policy["worker-src"] == ["'self'", "blob:"]


def test_only_app_security_writes_a_policy() -> None:
    writers = sorted(str(p.relative_to(APP.parent)) for p in APP.rglob("*.py")
                     if "frame-ancestors" in p.read_text() or "X-Frame-Options" in p.read_text())
    assert writers == ["app/security.py"], f"a second copy of the security headers: {writers}"


def test_added_sources_keep_the_base_and_a_typo_is_refused() -> None:
    base = _directives(content_security_policy())
    more = _directives(content_security_policy(img_src="blob:", media_src="blob:"))
    assert more["img-src"] == [*base["img-src"], "blob:"]
    assert more["media-src"] == ["'self'", "blob:"]  # starts from default-src's sources
    assert {k: v for k, v in more.items() if k not in ("img-src", "media-src")} == {
        k: v for k, v in base.items() if k != "img-src"}
    with pytest.raises(ValueError, match="scirpt_src"):
        content_security_policy(scirpt_src="'unsafe-eval'")
    assert "Cache-Control" not in security_headers() and security_headers(no_store=True)["Cache-Control"] == "no-store"
