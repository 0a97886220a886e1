"""Takes the challenges' screenshots of docs/screenshots/ in Debian's chromium.

    .venv/bin/python scripts/challenge_screenshots.py

Starts its own server on a free port with a fresh SQLite file: Morgana
challenges Merlin from his profile; Merlin, reading the Learn page, gets the
toast (challenge-toast.png); he accepts, Morgana plays her setup, and Merlin's
home page on a 360 px phone shows "Your matches" with his move first
(your-matches-phone.png).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import ROW, run_server  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
PASSWORD = "correct horse battery"


def signed_up(browser: Any, base: str, name: str, where: str) -> Any:
    page = browser.new_page(viewport={"width": 1280, "height": 720}, base_url=base)
    page.goto(f"/signup?next={where}")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(f"**{where}")
    return page


def main() -> None:
    from playwright.sync_api import expect, sync_playwright

    with tempfile.TemporaryDirectory() as folder, run_server(Path(folder)) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        morgana = signed_up(browser, server.base, "Morgana", "/")
        merlin = signed_up(browser, server.base, "Merlin", "/learn")
        morgana.goto("/@/Merlin")
        morgana.get_by_label("Time control").select_option(label="1 day per move")
        morgana.get_by_label("Your colour").select_option("white")
        morgana.get_by_role("button", name="Challenge Merlin").click()
        toast = merlin.get_by_role("group", name="Challenge from Morgana")
        expect(toast).to_be_visible()
        merlin.screenshot(path=OUT / "challenge-toast.png")
        toast.get_by_role("button", name="Accept").click()
        merlin.wait_for_url("**/matches/*")
        morgana.wait_for_url("**/matches/*")
        match_id = merlin.url.rsplit("/", 1)[1]
        morgana.evaluate("""async ([id, row]) => {
            const csrf = document.querySelector('meta[name="csrf-token"]').content;
            await fetch(`/api/v1/matches/${id}/actions`, {method: "POST",
                headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
                body: JSON.stringify({action: {type: "setup", backrow: row}, version: 1})});
        }""", [match_id, ROW])
        morgana.goto("/@/Random")  # a second match, against the computer: its move
        morgana.get_by_label("Time control").select_option(label="10+5")
        morgana.get_by_role("button", name="Challenge Random").click()
        morgana.wait_for_url("**/matches/*")
        context = browser.new_context(viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True,
                                      base_url=server.base, storage_state=merlin.context.storage_state())
        phone = context.new_page()
        phone.goto("/")
        expect(phone.get_by_role("region", name="Your matches").get_by_text("Your move")).to_be_visible()
        phone.get_by_role("region", name="Your matches").scroll_into_view_if_needed()
        phone.screenshot(path=OUT / "your-matches-phone.png")
        morgana.goto("/")
        expect(morgana.get_by_role("region", name="Your matches").get_by_role("listitem")).to_have_count(2)
        morgana.get_by_role("region", name="Your matches").scroll_into_view_if_needed()
        morgana.screenshot(path=OUT / "your-matches.png")
        browser.close()


if __name__ == "__main__":
    main()
