"""A real SMTP server for the mail tests: aiosmtpd on 127.0.0.1, on a port the
system found free, started once per test process, its mails read back parsed.

Recipients choose the server's answer by their local part: `gone…` is refused
for good (550), `later…` for now (451); any other is taken. A test's app mails
there (SMTP_URL) with links under PUBLIC_URL https://magery.test.
"""

from __future__ import annotations

import email
import logging
import re
import socket
import threading
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import default
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller

from tests.conftest import make_settings

SITE = "https://magery.test"
# aiosmtpd notes every connection at INFO, and the app's JSON log handler prints
# it: a line per mail among the test run's dots.
logging.getLogger("mail.log").setLevel(logging.WARNING)


class Sink:
    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self.lock = threading.Lock()
        self.answers: dict[str, str] = {}  # address -> the RCPT answer a test chose for it

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if address in self.answers:
            return self.answers[address]
        local = address.partition("@")[0]
        if local.startswith("gone"):
            return "550 5.1.1 no such mailbox here"
        if local.startswith("later"):
            return "451 4.3.0 try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=default)
        with self.lock:
            self.mails.append(parsed)  # type: ignore[arg-type]
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return "250 Message accepted"

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for m in self.mails if m["To"] == address]

    def clear(self) -> None:
        with self.lock:
            self.mails.clear()
            self.envelopes.clear()
            self.answers.clear()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def smtp_server() -> Iterator[tuple[Sink, int]]:
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield sink, controller.port
    finally:
        controller.stop()


@pytest.fixture
def sink(smtp_server: tuple[Sink, int]) -> Sink:
    smtp_server[0].clear()
    return smtp_server[0]


@pytest.fixture
def settings(database_url: str, smtp_server: tuple[Sink, int]) -> Any:
    return make_settings(database_url, smtp_url=f"smtp://127.0.0.1:{smtp_server[1]}", public_url=SITE,
                         mail_digest_tick_seconds=3600.0)


# ---- reading a mail --------------------------------------------------------------


def parts_of(mail: EmailMessage) -> tuple[str, str]:
    """(text, html) of a multipart/alternative mail."""
    assert mail.get_content_type() == "multipart/alternative"
    text = mail.get_body(("plain",))
    html = mail.get_body(("html",))
    assert text is not None and html is not None
    return text.get_content(), html.get_content()


def links(mail: EmailMessage) -> list[str]:
    """Every link of the text part, in order."""
    return re.findall(r"https?://\S+", parts_of(mail)[0])


def path_of(url: str) -> str:
    """A link of the mail, as a path on the test's app (it lives under SITE)."""
    assert url.startswith(SITE + "/"), url
    return url[len(SITE):]


async def account_token(client: httpx.AsyncClient, app: Any, name: str, scopes: tuple[str, ...] = ("play", "read"),
                        ) -> tuple[int, dict[str, str]]:
    """A new account and the Authorization header of a token of it."""
    accounts = app.state.parts.accounts
    account = await accounts.sign_up(name, "correct horse battery", f"10.1.0.1-{name}")
    plain, _ = await accounts.create_token(account, "mail tests", list(scopes))
    return account.id, {"Authorization": f"Bearer {plain}"}
