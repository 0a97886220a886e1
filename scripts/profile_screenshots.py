"""Takes the players' pages' screenshots (issue 19), docs/screenshots/profile*.png,
leaderboard*.png and end-ratings.png, in Debian's chromium:

    .venv/bin/python scripts/profile_screenshots.py

Starts its own server on a free port with a fresh SQLite file, gives it players
with a month of rated matches (tests/browser/rated_scenes.py: through the
account and match services, on a clock of their own), and photographs Ada's
profile with her rating chart at a desktop's width and a 360 px phone's, the
leaderboard, and the end panel of her last rated match with each side's change.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import database_url, run_server  # noqa: E402
from tests.browser.rated_scenes import players_with_history  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        scene = players_with_history(database_url(Path(folder)))  # before the server's sweeper starts
        with run_server(Path(folder)) as server, sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium")
            for width, suffix in ((1280, ""), (360, "-phone")):
                page = browser.new_page(viewport={"width": width, "height": 860}, base_url=server.base)
                page.goto("/@/Ada")
                page.screenshot(path=OUT / f"profile{suffix}.png", full_page=True)
                page.goto("/leaderboard")
                page.screenshot(path=OUT / f"leaderboard{suffix}.png", full_page=True)
                page.close()
            page = browser.new_page(viewport={"width": 1280, "height": 900}, base_url=server.base)
            page.goto(f"/matches/{scene.last_match}")
            page.wait_for_function("() => document.documentElement.dataset.ready === '1'")
            page.locator("#end").screenshot(path=OUT / "end-ratings.png")
            browser.close()


if __name__ == "__main__":
    main()
