"""The OAuth consent page in real Chromium, on a 390×844 phone and a 1366×768
laptop: a signed-out person is sent to sign in and brought back, sees the app's
name, where the answer goes and each scope in words, and answers with the
keyboard or a tap; the browser lands on the app's redirect with a code (or
access_denied), which the page's content security policy lets it reach."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import secrets
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from playwright.sync_api import expect

from .conftest import Contexts, assert_accessible
from .test_accounts import fits, fresh_name, sign_up

SHOTS = os.environ.get("MAGERY_SHOTS")
APP = "board-buddy"
SCREENS = [pytest.param((390, 844), id="phone"), pytest.param((1366, 768), id="laptop")]


class AppServer:
    """The app's own little server on this machine, where the browser lands with
    the answer (a route cannot catch a redirect's target: a real server does)."""

    def __init__(self) -> None:
        self.landed: list[str] = []
        landed = self.landed

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the standard library's name
                landed.append(self.path)
                body = b"the app got its answer"
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.callback = f"http://127.0.0.1:{self.http.server_address[1]}/cb"
        self.host = f"127.0.0.1:{self.http.server_address[1]}"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()


@pytest.fixture
def app_server() -> Iterator[AppServer]:
    served = AppServer()
    yield served
    served.http.shutdown()
    served.http.server_close()


def request_url(callback: str) -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, "/oauth?" + urlencode({
        "response_type": "code", "client_id": APP, "redirect_uri": callback, "scope": "play read",
        "code_challenge": challenge, "code_challenge_method": "S256", "state": "st-1"})


def in_view(page: Any, locator: Any) -> None:
    box = locator.bounding_box()
    view = page.viewport_size
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= view["width"], box
    assert box["y"] >= 0 and box["y"] + box["height"] <= view["height"], (box, view)


@pytest.mark.parametrize("screen", SCREENS)
def test_the_consent_page_signs_in_shows_the_app_and_answers(contexts: Contexts, app_server: AppServer,
                                                             screen: tuple[int, int]) -> None:
    width, height = screen
    phone = width < 500
    page = contexts.page(width=width, height=height, axe=True, **({"is_mobile": True, "has_touch": True}
                                                                   if phone else {}))
    _, asked = request_url(app_server.callback)
    page.goto(asked)
    page.wait_for_url(re.compile(r"/login\?next="))  # signed out: to the sign-in page first
    page.get_by_role("link", name="Create an account").click()
    sign_up(page, fresh_name("Oa"))
    page.wait_for_url(re.compile(r"/oauth\?"))  # and back to the app's request

    expect(page.get_by_role("heading", name=f"Let “{APP}” use your account?")).to_be_visible()
    expect(page.get_by_text(app_server.host, exact=True)).to_be_visible()
    expect(page.get_by_role("listitem").filter(has_text="create, join and play matches as you")).to_be_visible()
    expect(page.get_by_role("listitem").filter(has_text="read what your account may read")).to_be_visible()
    assert page.get_by_role("status").count() == 1
    approve, deny = page.get_by_role("button", name="Approve"), page.get_by_role("button", name="Deny")
    in_view(page, approve)
    in_view(page, deny)
    assert min(approve.bounding_box()["height"], deny.bounding_box()["height"]) >= 40  # a thumb's target
    fits(page)
    assert_accessible(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/oauth-consent-{width}x{height}.png")

    if phone:
        deny.tap()
    else:  # the keyboard alone: Approve is reached by Tab and pressed with Enter
        approve.focus()
        page.keyboard.press("Enter")
    page.wait_for_url(re.compile("^" + re.escape(app_server.callback) + r"\?"))
    expect(page.get_by_text("the app got its answer")).to_be_visible()
    answer = parse_qs(urlsplit(app_server.landed[-1]).query)
    assert answer["state"] == ["st-1"]
    if phone:
        assert answer["error"] == ["access_denied"] and "code" not in answer
    else:
        assert len(answer["code"][0]) >= 40 and "error" not in answer
    assert not contexts.errors, contexts.errors
