"""The API of web push: the server's public key, and a browser's subscription
kept for the signed-in account and dropped again. Refusals name the field;
an endpoint off the known push services is never kept (SQLite and PostgreSQL)."""

from __future__ import annotations

import base64
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import func, select

from app.db.push_models import push_subscriptions
from app.push.subscriptions import MOST_PER_ACCOUNT, of_account
from tests.api.members import member

from .stand_in import b64url

FCM = "https://fcm.googleapis.com/fcm/send/"


def subscription(endpoint: str = FCM + "abc", **keys: str) -> dict[str, Any]:
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_numbers()
    raw = b"\x04" + point.x.to_bytes(32, "big") + point.y.to_bytes(32, "big")
    return {"endpoint": endpoint, "expirationTime": None,
            "keys": {"p256dh": b64url(raw), "auth": b64url(b"0123456789abcdef"), **keys}}


async def count(app: Any) -> int:
    async with app.state.parts.engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(push_subscriptions))).scalar_one())


async def test_the_public_key_is_a_p256_point_and_the_same_each_time(client: httpx.AsyncClient) -> None:
    first = await client.get("/api/v1/push/key")
    assert first.status_code == 200
    key = first.json()["public_key"]
    raw = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    assert len(raw) == 65 and raw[0] == 4 and "=" not in key
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)  # on the curve
    assert (await client.get("/api/v1/push/key")).json() == {"public_key": key}


async def test_a_signed_in_browser_subscribes_renews_and_unsubscribes(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    sub = subscription()
    r = await client.post("/api/v1/account/push", json=sub, headers=ada.session())
    assert r.status_code == 201, r.text
    assert r.json() == {"endpoint": sub["endpoint"], "new": True}
    again = subscription()  # the same endpoint, new keys: renewed
    r = await client.post("/api/v1/account/push", json=again, headers=ada.session())
    assert r.status_code == 200 and r.json()["new"] is False
    kept = await of_account(app.state.parts.engine, ada.account.id)
    assert [(s.endpoint, s.p256dh) for s in kept] == [(sub["endpoint"], again["keys"]["p256dh"])]
    r = await client.request("DELETE", "/api/v1/account/push", json=again, headers=ada.session())
    assert r.status_code == 204
    assert await count(app) == 0
    r = await client.request("DELETE", "/api/v1/account/push", json={"endpoint": sub["endpoint"]},
                             headers=ada.session())
    assert r.status_code == 404 and r.json()["detail"].startswith("body.endpoint")


async def test_an_account_token_subscribes_too_and_nobody_else_does(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    assert (await client.post("/api/v1/account/push", json=subscription(), headers=ada.token())).status_code == 201
    r = await client.post("/api/v1/account/push", json=subscription(FCM + "x"))
    assert r.status_code == 401
    r = await client.post("/api/v1/account/push", json=subscription(FCM + "y"), headers=ada.session(csrf=False))
    assert r.status_code == 403 and r.json()["error"] == "csrf_failed"
    assert await count(app) == 1


async def test_one_browser_moves_to_whoever_subscribes_it_last(app: Any, client: httpx.AsyncClient) -> None:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    sub = subscription()
    await client.post("/api/v1/account/push", json=sub, headers=ada.session())
    await client.post("/api/v1/account/push", json=sub, headers=bo.session())
    engine = app.state.parts.engine
    assert await of_account(engine, ada.account.id) == []
    assert [s.endpoint for s in await of_account(engine, bo.account.id)] == [sub["endpoint"]]
    # Ada can no longer drop what is Bo's now.
    r = await client.request("DELETE", "/api/v1/account/push", json=sub, headers=ada.session())
    assert r.status_code == 404
    assert await count(app) == 1


async def test_an_account_holds_a_bounded_number_the_oldest_pushed_out(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    accounts = app.state.parts.accounts
    start = accounts.clock()
    made = []
    for n in range(MOST_PER_ACCOUNT + 2):
        accounts.clock = lambda n=n: start + n  # each one posted a second after the one before
        sub = subscription(f"{FCM}{n}")
        assert (await client.post("/api/v1/account/push", json=sub, headers=ada.session())).status_code == 201
        made.append(sub["endpoint"])
    kept = [s.endpoint for s in await of_account(app.state.parts.engine, ada.account.id)]
    assert kept == made[::-1][:MOST_PER_ACCOUNT]


REFUSED = {
    "endpoint": [
        {"endpoint": "https://evil.example/push"},
        {"endpoint": "https://169.254.169.254/latest/meta-data/"},
        {"endpoint": "https://evil.example@fcm.googleapis.com/x"},
        {"endpoint": "https://fcm.googleapis.com:8443/x"},
        {"endpoint": "https://fcm.googleapis.cöm/x"},
        {"endpoint": "http://localhost:9/push"},  # the stand-in is 127.0.0.1, by address only
        {"endpoint": "http://127.0.0.1.evil.example/push"},
        {"endpoint": FCM + "a" * 3000},
        {"endpoint": 7},
    ],
    "keys.p256dh": [
        {"keys": {"p256dh": "nope!"}},
        {"keys": {"p256dh": b64url(b"\x04" + b"\x01" * 20)}},
        {"keys": {"p256dh": "A" * 200}},
    ],
    "keys.auth": [
        {"keys": {"auth": b64url(b"short")}},
        {"keys": {"auth": "***"}},
    ],
}


@pytest.mark.parametrize(("field", "change"), [(f, c) for f, cs in REFUSED.items() for c in cs])
async def test_a_refusal_names_the_field(app: Any, client: httpx.AsyncClient, field: str,
                                         change: dict[str, Any]) -> None:
    ada = await member(app, "Ada")
    body = subscription()
    body = {**body, **{k: v for k, v in change.items() if k != "keys"}}
    if "keys" in change:
        body["keys"] = {**body["keys"], **change["keys"]}
    r = await client.post("/api/v1/account/push", json=body, headers=ada.session())
    # An endpoint that is a string but no known push service's URL is well-formed, and unusable: 422.
    unusable = field == "endpoint" and isinstance(change.get("endpoint"), str) and len(change["endpoint"]) <= 2048
    assert r.status_code == (422 if unusable else 400), r.text
    assert r.json()["error"] == ("bad_endpoint" if unusable else "bad_request"), r.json()
    assert f"body.{field}" in r.json()["detail"], r.json()
    assert await count(app) == 0


async def test_a_key_off_the_curve_is_422_naming_it(app: Any, client: httpx.AsyncClient) -> None:
    """Of the right form, but no point of P-256: well-formed (no schema can say
    which bytes lie on the curve), so 422, not 400; nothing kept."""
    ada = await member(app, "Ada")
    body = subscription()
    body["keys"] = {**body["keys"], "p256dh": b64url(b"\x04" + b"\x01" * 64)}
    r = await client.post("/api/v1/account/push", json=body, headers=ada.session())
    assert r.status_code == 422 and r.json()["error"] == "not_a_key", r.text
    assert r.json()["field"] == "body.keys.p256dh"
    assert await count(app) == 0


async def test_a_body_missing_keys_or_with_unknown_fields_is_refused(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    r = await client.post("/api/v1/account/push", json={"endpoint": FCM + "a"}, headers=ada.session())
    assert r.status_code == 400 and "body.keys" in r.json()["detail"]
    r = await client.post("/api/v1/account/push", json={**subscription(), "extra": 1}, headers=ada.session())
    assert r.status_code == 400 and "body.extra: unknown field" in r.json()["detail"]
    assert await count(app) == 0
