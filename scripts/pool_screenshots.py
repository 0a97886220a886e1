"""Takes quick pairing's screenshots of docs/screenshots/ in Debian's chromium.

    .venv/bin/python scripts/pool_screenshots.py

Starts its own server on a free port with a fresh SQLite file (the computer
offered after 2 s) and photographs the home page's Quick pairing panel, and a
player waiting in a pool with the computer offered, at a desk's width and at a
390 px phone's.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import run_server  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


def main() -> None:
    from playwright.sync_api import sync_playwright

    with (tempfile.TemporaryDirectory() as folder, run_server(Path(folder), POOL_OFFER_SECONDS="2") as server,
          sync_playwright() as p):
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        for suffix, size, phone in (("", {"width": 1280, "height": 800}, False),
                                    ("-phone", {"width": 390, "height": 844}, True)):
            page = browser.new_page(viewport=size, is_mobile=phone, has_touch=phone, base_url=server.base)
            page.goto("/")
            panel = page.get_by_role("region", name="Quick pairing")
            panel.scroll_into_view_if_needed()
            panel.screenshot(path=OUT / f"pools{suffix}.png")
            page.get_by_role("button", name=re.compile(r"^10\+5")).click()
            page.get_by_role("button", name="Play the computer instead").wait_for()
            panel.screenshot(path=OUT / f"pools-waiting{suffix}.png")
            page.get_by_role("button", name="Cancel").click()
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
