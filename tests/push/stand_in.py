"""A push service on 127.0.0.1 for the tests, run by them: it takes a push as
a browser's push service does (RFC 8030), and reads it as the browser would.

Each `Browser` is a subscription the test makes: its own P-256 key pair and
authentication secret, as a browser makes them, and an endpoint on this
server. A push to it is checked the way a push service checks it: the VAPID
header (RFC 8292) names the server's public key, its JWT is signed by that key
(verified here with `cryptography`, not with the library that signed it), for
this server's origin (`aud`), not expired nor lasting over a day, with a
`sub`; TTL, Urgency and `Content-Encoding: aes128gcm` are set. The body is then
decrypted with the browser's private key (`http_ece`): what the test reads is
what a browser's service worker would. The answer is the browser's `status`
(201 unless told: 404, 410, 429, 500...). A refused push is kept, with why.

For the chaos tests a browser's pushes may be held: `hold_before` holds each
one unread, and when let go it answers 503 without taking it (a push service
whose caller died before it took the push); `hold_after` holds the answer of
each one taken (decrypted and kept), as a push service whose 201 never reached
a caller that died. `release()` lets every held one go; `held` counts them.
"""

from __future__ import annotations

import asyncio
import base64
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import http_ece
from aiohttp import web
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Pushed:
    """One push taken: what it said (decrypted) and the headers it came with."""

    said: dict[str, Any]
    headers: dict[str, str]
    claims: dict[str, Any]
    at: float = 0.0  # time.perf_counter() when it was taken (for the benches' delays)


@dataclass
class Browser:
    """A subscription, as a browser makes one."""

    id: str
    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: secrets.token_bytes(16))
    status: int = 201
    retry_after: str | None = None
    pushed: list[Pushed] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    def subscription(self) -> dict[str, Any]:
        """Its `PushSubscription.toJSON()`."""
        point = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)}}

    async def next_push(self, timeout: float) -> Pushed:
        async with asyncio.timeout(timeout):
            while len(self.pushed) == 0:
                self.arrived.clear()
                await self.arrived.wait()
        return self.pushed.pop(0)


class PushServiceStandIn:
    def __init__(self, server_public_key: str | None = None) -> None:
        self.server_public_key = server_public_key  # the VAPID key pushes must be signed with
        self.browsers: dict[str, Browser] = {}
        self.refused: list[str] = []  # why each refused push was refused
        self.answered = 0  # pushes answered, taken or not
        self.redirects: dict[str, str] = {}  # a browser's id: where its pushes are redirected (307)
        self.hold_before: set[str] = set()  # browsers' ids: pushes held unread, then not taken
        self.hold_after: set[str] = set()  # browsers' ids: pushes taken, their answer held
        self.held = 0  # pushes held so far
        self._release = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.origin = ""

    async def start(self) -> PushServiceStandIn:
        app = web.Application()
        app.router.add_post("/push/{id}", self._take)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.origin = f"http://127.0.0.1:{port}"
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def release(self) -> None:
        """Let every held push go, and hold no more."""
        self.hold_before.clear()
        self.hold_after.clear()
        self._release.set()

    def browser(self, status: int = 201) -> Browser:
        made = Browser(secrets.token_hex(8), "")
        made.endpoint = f"{self.origin}/push/{made.id}"
        made.status = status
        self.browsers[made.id] = made
        return made

    async def _take(self, request: web.Request) -> web.Response:
        self.answered += 1
        browser = self.browsers.get(request.match_info["id"])
        if browser is None:
            return web.Response(status=404)
        if browser.id in self.hold_before:
            self.held += 1
            await self._release.wait()
            return web.Response(status=503)  # its caller is gone: never taken
        body = await request.read()
        try:
            claims = self._checked(request)
            said = json.loads(http_ece.decrypt(body, private_key=browser.key, auth_secret=browser.auth,
                                               version="aes128gcm"))
        except (ValueError, KeyError, InvalidSignature, http_ece.ECEException) as why:
            self.refused.append(f"{type(why).__name__}: {why}")
            return web.Response(status=403 if "VAPID" in str(why) else 400, text=str(why))
        if browser.status < 300:
            browser.pushed.append(Pushed(said, dict(request.headers), claims, time.perf_counter()))
            browser.arrived.set()
            if browser.id in self.hold_after:
                self.held += 1
                await self._release.wait()
        headers = {"Retry-After": browser.retry_after} if browser.retry_after else {}
        if browser.id in self.redirects:
            headers["Location"] = self.redirects[browser.id]
        return web.Response(status=browser.status, headers=headers)

    def _checked(self, request: web.Request) -> dict[str, Any]:
        """The JWT's claims, once every check a push service makes has passed."""
        scheme, _, params = request.headers.get("Authorization", "").partition(" ")
        parts = dict(p.strip().split("=", 1) for p in params.split(",") if "=" in p)
        if scheme != "vapid" or "t" not in parts or "k" not in parts:
            raise ValueError("VAPID: no 'vapid t=..., k=...' Authorization")
        if self.server_public_key is not None and parts["k"] != self.server_public_key:
            raise ValueError("VAPID: signed with another key than the server's public one")
        head, payload, signature = parts["t"].split(".")
        if json.loads(unb64url(head)) != {"typ": "JWT", "alg": "ES256"}:
            raise ValueError("VAPID: not an ES256 JWT")
        raw = unb64url(signature)
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(parts["k"]))
        try:
            public.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                          f"{head}.{payload}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise ValueError("VAPID: the JWT's signature does not verify") from None
        claims: dict[str, Any] = json.loads(unb64url(payload))
        now = time.time()
        if claims.get("aud") != self.origin:
            raise ValueError(f"VAPID: aud {claims.get('aud')!r} is not {self.origin!r}")
        if not now < claims.get("exp", 0) <= now + 24 * 3600:
            raise ValueError("VAPID: expired, or lasting over a day")
        if not claims.get("sub"):
            raise ValueError("VAPID: no sub")
        if request.headers.get("Content-Encoding") != "aes128gcm":
            raise ValueError("not aes128gcm")
        if not request.headers.get("TTL", "").isdigit() or request.headers.get("Urgency") not in (
                "very-low", "low", "normal", "high"):
            raise ValueError("no TTL or Urgency")
        return claims
