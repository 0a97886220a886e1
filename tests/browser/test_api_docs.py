"""Issue 17, item 11: /docs and /redoc run under a strict policy (no inline
script: they share the origin whose localStorage holds seat tokens), and in
real Chromium they still render, with no violation of that policy."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Contexts


def _watch(page: Any) -> list[str]:
    """Every policy violation the page reports, from the console and the DOM event."""
    seen: list[str] = []
    page.on("console", lambda m: seen.append(m.text) if "Content Security Policy" in m.text else None)
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => "
        "console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI));")
    return seen


def _script_policy(response: Any) -> str:
    policy = response.headers["content-security-policy"]
    directives = {d.split()[0]: d for d in (p.strip() for p in policy.split(";")) if d}
    return directives["script-src"]


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_the_api_pages_allow_no_inline_script(contexts: Contexts, path: str) -> None:
    page = contexts.page()
    violations = _watch(page)
    response = page.goto(path)
    assert response is not None and response.status == 200
    script_src = _script_policy(response)
    assert script_src == "script-src 'self'", script_src
    assert "unsafe-inline" not in script_src and "unsafe-eval" not in script_src
    if path == "/docs":
        expect(page.get_by_role("heading", name="Magery Online")).to_be_visible()
        expect(page.get_by_text("/api/v1/matches/{match_id}/actions").first).to_be_visible()
    else:
        expect(page.get_by_role("heading", name="Magery Online", level=1)).to_be_visible()
        expect(page.get_by_text("/api/v1/matches/{match_id}/actions").first).to_be_attached()
    page.wait_for_load_state("networkidle")
    assert violations == [], violations
