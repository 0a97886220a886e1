"""Takes the match chat's screenshots of docs/screenshots/ in Debian's chromium.

    .venv/bin/python scripts/chat_screenshots.py

Starts its own server on a free port with a fresh SQLite file: Morgana (an
account) makes a match, a guest joins it, they talk (a line with markup shows
as text, the guest picks stock phrases), Morgana floods and is refused; the
chat panel is photographed on a 390 px phone (Morgana's) and a desk (the
guest's, with the phrase buttons), and a spectator's room.
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
PASSWORD = "correct horse battery"


def send(page: object, text: str) -> None:
    page.get_by_label("Chat message").fill(text)  # type: ignore[attr-defined]
    page.get_by_role("button", name="Send", exact=True).click()  # type: ignore[attr-defined]
    page.get_by_role("log", name="Chat").get_by_text(text, exact=True).wait_for()  # type: ignore[attr-defined]


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, run_server(Path(folder), CHAT_FLOOD_SECONDS="3600") as server, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        ada = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                               base_url=server.base)
        ada.goto("/signup")
        ada.get_by_label("Username").fill("Morgana")
        ada.get_by_label("Password").fill(PASSWORD)
        ada.get_by_role("button", name="Create account").click()
        ada.wait_for_url("**/")
        ada.get_by_label("Colour").select_option("white")
        ada.get_by_role("button", name="Create match").click()
        ada.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+$"))
        match_url = ada.url
        bo = browser.new_page(viewport={"width": 1280, "height": 900}, base_url=server.base)
        bo.goto(match_url)
        bo.get_by_label("Your name").fill("Bo")
        bo.get_by_role("button", name="Join").click()
        bo.get_by_role("heading", name="Chat with your opponent").wait_for()
        send(ada, "Hello Bo! <b>Good luck</b> with the dragon")
        bo.get_by_role("group", name="Stock phrases").get_by_role("button", name="Have fun").click()
        ada.get_by_role("log", name="Chat").get_by_text("Have fun").wait_for()
        send(ada, "You too")
        send(ada, "I like this opening")
        send(ada, "Your move")
        ada.get_by_label("Chat message").fill("and another thing")
        ada.get_by_role("button", name="Send", exact=True).click()
        ada.get_by_role("alert").filter(has_text="at most 4 lines").wait_for()
        ada.locator("#chat").scroll_into_view_if_needed()
        ada.locator("#chat").screenshot(path=OUT / "chat-phone.png")
        bo.locator("#chat").scroll_into_view_if_needed()
        bo.locator("#chat").screenshot(path=OUT / "chat-guest.png")
        cy = browser.new_page(viewport={"width": 1280, "height": 900}, base_url=server.base)
        cy.goto(match_url)
        cy.get_by_role("group", name="Stock phrases").get_by_role("button", name="Well played").click()
        cy.get_by_role("log", name="Chat").get_by_text("Well played").wait_for()
        cy.locator("#chat").screenshot(path=OUT / "chat-spectators.png")
        browser.close()


if __name__ == "__main__":
    main()
