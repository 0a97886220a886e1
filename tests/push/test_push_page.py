"""The account page's "Notify me by push" in real Chromium, against a real
server: the permission is asked only when the button is pressed, the service
worker registers at the site's root scope, the subscription (made with the
server's public key) is posted and kept, and "Stop" drops it. The worker's
push handler is then given a push by Chromium itself (DevTools'
ServiceWorker.deliverPushMessage) and shows its notification.

Headless Chromium cannot subscribe at a real push service (it answers
"Registration failed - permission denied" with the permission granted), so
`PushManager.subscribe` is replaced in the page by one answering a
subscription to the local stand-in's address: what the page does with it (and
what it passed to subscribe) is real. Not tested here: the system showing the
notification and a click on it (headless Chromium has no notification
center): the worker's click handler is untested in a browser."""

from __future__ import annotations

import base64
import json
import os
import re
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import CHROMIUM, TIMEOUT_MS, Server, run_server
from tests.browser.test_accounts import fresh_name, sign_up
from tests.waiting import until_sync

from .conftest import HOSTS

SHOTS = os.environ.get("MAGERY_SHOTS")
ENDPOINT = "http://127.0.0.1:9/push/browser-1"  # never called here: the page only posts it

# Before any script of the page: a spy on the permission prompt, and a
# subscribe() that answers as a push service would, remembering the key it got.
STAND_IN = """
(() => {
  window.__asked = 0;
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...a) => { window.__asked += 1; return ask(...a); };
  const made = { endpoint: ENDPOINT, expirationTime: null, keys: { p256dh: P256DH, auth: AUTH } };
  let held = null;
  PushManager.prototype.subscribe = async function (options) {
    window.__key = btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey)));
    window.__visible = options.userVisibleOnly;
    held = { endpoint: made.endpoint, toJSON: () => made, unsubscribe: async () => { held = null; return true; } };
    return held;
  };
  PushManager.prototype.getSubscription = async function () { return held; };
})();
"""


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("Debian's chromium is not installed")
        pytest.skip("Debian's chromium is not installed")
    with run_server(Path(tempfile.mkdtemp()), PUSH_ENDPOINT_HOSTS=json.dumps(HOSTS)) as running:
        yield running


def kept(server: Server) -> list[tuple[Any, ...]]:
    path = server.database_url.removeprefix("sqlite+aiosqlite:///")
    with sqlite3.connect(path) as db:
        return db.execute("SELECT endpoint, p256dh, auth FROM push_subscriptions").fetchall()


def test_notify_me_by_push_subscribes_and_the_worker_shows_a_push(server: Server) -> None:
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    from playwright.sync_api import expect, sync_playwright

    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        Encoding.X962, PublicFormat.UncompressedPoint)
    p256dh, auth = b64url(point), b64url(os.urandom(16))
    script = (STAND_IN.replace("ENDPOINT", json.dumps(ENDPOINT)).replace("P256DH", json.dumps(p256dh))
              .replace("AUTH", json.dumps(auth)))
    public_key = server.call("GET", "/push/key")["public_key"]
    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        try:
            context = browser.new_context(base_url=server.base, viewport={"width": 1280, "height": 900})
            context.set_default_timeout(TIMEOUT_MS)
            context.grant_permissions(["notifications"], origin=server.base)
            context.add_init_script(script)
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto("/signup?next=/account")
            sign_up(page, fresh_name("Push"))
            page.wait_for_url(re.compile(r"/account$"))
            on = page.get_by_role("button", name="Notify me by push")
            expect(on).to_be_visible()
            assert page.evaluate("window.__asked") == 0  # nothing asked on opening the page
            assert kept(server) == []
            if SHOTS:
                page.locator("#push-title").scroll_into_view_if_needed()
                page.screenshot(path=f"{SHOTS}/account-push.png")
            on.click()
            expect(page.locator("#push-said")).to_have_text(re.compile("Push notifications are on"))
            assert page.evaluate("window.__asked") == 1
            assert base64.b64decode(page.evaluate("window.__key")) == base64.urlsafe_b64decode(
                public_key + "=" * (-len(public_key) % 4))  # subscribed with the server's key
            assert page.evaluate("window.__visible") is True
            assert kept(server) == [(ENDPOINT, p256dh, auth)]
            worker = page.evaluate("""async () => {
                const r = await navigator.serviceWorker.getRegistration('/');
                return r && r.active ? [r.scope, r.active.scriptURL, r.active.state] : null; }""")
            assert worker == [server.base + "/", server.base + "/sw.js", "activated"]
            expect(page.get_by_role("button", name="Stop push notifications")).to_be_visible()

            # A push delivered to the worker by Chromium itself: the notification it shows.
            cdp = context.new_cdp_session(page)
            registrations: list[dict[str, Any]] = []
            cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
            cdp.send("ServiceWorker.enable")

            def ids() -> list[str]:
                page.evaluate("0")  # a round trip: the session's events are taken in meanwhile
                return [r["registrationId"] for r in registrations if r["scopeURL"] == server.base + "/"]

            until_sync(ids, "DevTools to tell the worker's registration", pause=page.wait_for_timeout)
            said = {"kind": "your_turn", "title": "Your turn", "body": "Bo moved: your turn against Bo",
                    "url": "/matches/x1y2z3", "match_id": "x1y2z3", "tag": "your_turn:x1y2z3"}
            # DevTools now and then drops a message it was given (about one run in three
            # here, the worker running and no error reported): given again until one
            # shows. One tag, so one notification however many arrive.

            def shown_after_a_push() -> list[dict[str, Any]]:
                cdp.send("ServiceWorker.deliverPushMessage", {"origin": server.base, "registrationId": ids()[0],
                                                              "data": json.dumps(said)})
                page.wait_for_timeout(500)
                return list(page.evaluate("""async () => (await (await navigator.serviceWorker.ready)
                    .getNotifications()).map(n => ({title: n.title, body: n.body, tag: n.tag, data: n.data}))"""))

            shown = until_sync(shown_after_a_push, "the worker to show the push's notification",
                               pause=page.wait_for_timeout)
            assert shown == [{"title": "Your turn", "body": "Bo moved: your turn against Bo",
                              "tag": "your_turn:x1y2z3", "data": {"url": "/matches/x1y2z3"}}]

            page.get_by_role("button", name="Stop push notifications").click()
            expect(page.locator("#push-said")).to_have_text(re.compile("Push notifications are off"))
            assert kept(server) == []
            expect(on).to_be_visible()
            assert errors == []
        finally:
            browser.close()


def test_the_worker_is_served_at_the_root_as_javascript_never_cached_long(server: Server) -> None:
    import urllib.request

    with urllib.request.urlopen(server.base + "/sw.js") as answer:
        body = answer.read().decode()
        headers = answer.headers
    assert headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert headers["Cache-Control"] == "no-cache"
    assert headers["Service-Worker-Allowed"] == "/"
    assert "X-Content-Type-Options" in headers and "Content-Security-Policy" in headers
    assert 'addEventListener("push"' in body and 'addEventListener("notificationclick"' in body
