"""The notifications grid's Email column in real Chromium, on a server that
mails (a real SMTP server, aiosmtpd, takes the mail): the column is disabled
until the address is confirmed by the mailed link, then a box turns that kind's
mail on, read back through both the notifications' and the email API, and the
digest form beside it changes none of it."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from playwright.sync_api import expect

from tests.mail.conftest import SITE, Sink, free_port, links
from tests.waiting import until_sync

from .conftest import Contexts, Server, run_server
from .test_accounts import fits, fresh_name, sign_up

PREFS = "/api/v1/account/notification-preferences"
SHOTS = os.environ.get("MAGERY_SHOTS")


@pytest.fixture(scope="module")
def mailing() -> Iterator[tuple[Server, Sink]]:
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        with run_server(Path(tempfile.mkdtemp()), SMTP_URL=f"smtp://127.0.0.1:{controller.port}",
                        PUBLIC_URL=SITE) as server:
            yield server, sink
    finally:
        controller.stop()


def test_the_email_column_opens_once_the_address_is_confirmed(browser: Any, mailing: tuple[Server, Sink]) -> None:
    server, sink = mailing
    contexts = Contexts(browser, server)
    try:
        page = contexts.page(width=390, height=844, is_mobile=True, has_touch=True)
        page.goto("/signup?next=/account")
        sign_up(page, fresh_name("Em"))
        page.wait_for_url(re.compile(r"/account$"))
        expect(page.locator("#notify-save")).to_be_hidden()  # the grid's script has started
        turn = page.get_by_role("checkbox", name="Your turn in a correspondence match: by email", exact=True)
        expect(turn).to_be_disabled()
        expect(turn).to_have_accessible_description(re.compile("Give an email address in the Email section"))

        address = f"{fresh_name('ada')}@example.org"
        page.get_by_label("Email address").fill(address)
        page.get_by_role("button", name="Send a confirmation link").click()
        expect(page.get_by_role("status")).to_have_text(re.compile("A link is mailed to your address"))
        expect(turn).to_be_disabled()
        expect(turn).to_have_accessible_description(re.compile("Confirm your address first"))
        mail = until_sync(lambda: sink.to(address), "the verification mail")[-1]
        link = links(mail)[0]
        assert link.startswith(SITE + "/mail/verify/")
        page.goto(link[len(SITE):])  # the link, on this test's server
        page.get_by_role("button", name="Confirm").click()
        expect(page.get_by_role("heading", name="Address confirmed")).to_be_visible()

        page.goto("/account")
        expect(page.locator("#notify-save")).to_be_hidden()
        expect(turn).to_be_enabled()
        expect(turn).not_to_be_checked()
        expect(page.locator("#notify-email-why")).to_have_count(0)
        turn.click()
        expect(page.get_by_role("status")).to_have_text("Saved: Your turn in a correspondence match: by email, on.")
        got = page.request.get(PREFS).json()["preferences"]
        assert got["your_turn"]["email"] is True and got["clock_alarm"]["email"] is False
        assert page.request.get("/api/v1/account/email").json()["preferences"]["turn"] is True
        # The digest form keeps to the digest: the grid's choice stays.
        page.get_by_role("checkbox", name=re.compile("^mail me once a day")).check()
        page.get_by_role("button", name="Save the digest").click()
        expect(page.get_by_role("status")).to_have_text("Your digest choice is saved.")
        expect(turn).to_be_checked()
        email = page.request.get("/api/v1/account/email").json()["preferences"]
        assert email["digest"] is True and email["turn"] is True
        fits(page)
        if SHOTS:
            page.locator("section[aria-labelledby='email-title']").screenshot(
                path=os.path.join(SHOTS, "account-email-390.png"))
            page.locator("section[aria-labelledby='notify-title']").screenshot(
                path=os.path.join(SHOTS, "account-notify-email-390.png"))
        assert contexts.errors == []
    finally:
        contexts.close()
