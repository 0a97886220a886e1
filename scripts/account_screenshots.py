"""Takes the account pages' screenshots of docs/screenshots/ in Debian's chromium.

    .venv/bin/python scripts/account_screenshots.py

Starts its own server on a free port with a fresh SQLite file and photographs
the sign-up form (with a refusal said on it), the account page with a token
just made, and both at a 360 px phone's width.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import run_server  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
PASSWORD = "correct horse battery"


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, run_server(Path(folder)) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        for suffix, size, phone in (("", {"width": 1280, "height": 760}, False),
                                    ("-phone", {"width": 360, "height": 780}, True)):
            page = browser.new_page(viewport=size, is_mobile=phone, has_touch=phone, base_url=server.base)
            page.goto("/signup")
            page.get_by_label("Username").fill("Morgana")
            page.get_by_label("Password").fill("password1")
            page.get_by_role("button", name="Create account").click()
            page.get_by_role("alert").wait_for()
            page.screenshot(path=OUT / f"signup{suffix}.png", full_page=True)
            page.get_by_label("Password").fill(PASSWORD)
            page.get_by_label("Username").fill(f"Morgana{suffix.replace('-', '_')}")
            page.get_by_role("button", name="Create account").click()
            page.wait_for_url("**/")
            page.goto("/account")
            for name, scopes in (("my engine", ["play", "read"]), ("stats reader", ["read"])):
                page.get_by_label("Token name").fill(name)
                for scope in ("play", "read"):
                    box = page.locator(f'input[name="scopes"][value="{scope}"]')
                    box.set_checked(scope in scopes)
                page.get_by_role("button", name="Create token").click()
                page.get_by_label("New token").wait_for()
            page.screenshot(path=OUT / f"account{suffix}.png", full_page=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
