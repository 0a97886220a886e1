"""OAuth 2.0's authorization code with PKCE: an app sends a person to /oauth,
the person signs in and approves (or denies) on our page, the app trades the
code for an account token that acts, lists on /account and is revoked; and
every way the exchange can be wrong is refused in RFC 6749's words."""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from html import unescape
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest

from app.accounts.oauth import CODE_SECONDS
from app.accounts.sessions import COOKIE

from .members import PASSWORD, Member, member

TOKEN = "/api/v1/oauth/token"
APP = "magery-bot.example"
REDIRECT = "http://127.0.0.1:8765/callback?keep=1"


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


def ask(challenge: str, **more: str) -> str:
    query = {"response_type": "code", "client_id": APP, "redirect_uri": REDIRECT, "scope": "play read",
             "code_challenge": challenge, "code_challenge_method": "S256", "state": "s-42", **more}
    return "/oauth?" + urlencode({k: v for k, v in query.items() if v != ""})


def form_of(page: str) -> dict[str, str]:
    """The consent form's hidden fields, as the browser posts them."""
    return {m[0]: unescape(m[1]) for m in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page)}


async def approve(client: httpx.AsyncClient, who: Member, challenge: str, decision: str = "approve",
                  **more: str) -> dict[str, list[str]]:
    """The person's answer, as the query of the redirect back to the app."""
    page = await client.get(ask(challenge, **more), headers=who.session(csrf=False))
    assert page.status_code == 200, page.text
    r = await client.post("/oauth", data={**form_of(page.text), "decision": decision},
                          headers=who.session(csrf=False))
    assert r.status_code == 303, r.text
    target = urlsplit(r.headers["location"])
    assert f"{target.scheme}://{target.netloc}{target.path}" == REDIRECT.split("?")[0]
    return parse_qs(target.query)


async def exchange(client: httpx.AsyncClient, code: str, verifier: str, **more: str) -> httpx.Response:
    return await client.post(TOKEN, data={"grant_type": "authorization_code", "code": code, "code_verifier": verifier,
                                          "redirect_uri": REDIRECT, "client_id": APP, **more})


def refused(r: httpx.Response, error: str = "invalid_grant") -> str:
    body = r.json()
    assert (r.status_code, body["error"]) == (400, error), r.text
    assert body["detail"] == body["error_description"] and r.headers["cache-control"] == "no-store"
    return str(body["error_description"])


async def test_the_whole_flow_from_sign_in_to_revocation(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    verifier, challenge = pkce()
    # Not signed in: to the sign-in page, and back here after it.
    r = await client.get(ask(challenge))
    assert r.status_code == 303 and r.headers["location"].startswith("/login?next=%2Foauth%3F")
    login = await client.get(r.headers["location"])
    form = {m[0]: unescape(m[1]) for m in re.findall(r'name="(csrf_token|next)" value="([^"]*)"', login.text)}
    signed_in = await client.post("/login", data={**form, "username": "Ada", "password": PASSWORD})
    assert signed_in.status_code == 303
    assert parse_qs(urlsplit(signed_in.headers["location"]).query)["next"] == [ask(challenge)]
    cookie = client.cookies[COOKIE]
    client.cookies.clear()

    page = await client.get(ask(challenge), headers={"Cookie": f"{COOKIE}={cookie}"})
    assert page.status_code == 200
    text = unescape(page.text)
    assert APP in text and "127.0.0.1:8765" in text and "create, join and play matches" in text
    assert "read what your account may read" in text and text.count('role="status"') == 1
    assert "form-action 'self' http://127.0.0.1:8765" in page.headers["content-security-policy"]

    back = await approve(client, ada, challenge)
    assert back["state"] == ["s-42"] and back["keep"] == ["1"] and "error" not in back
    r = await exchange(client, back["code"][0], verifier)
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    body = r.json()
    assert set(body) == {"token_type", "access_token", "scope"}
    assert body["token_type"] == "Bearer" and body["scope"] == "play read"
    bearer = {"Authorization": f"Bearer {body['access_token']}"}

    # It acts as Ada, and lists on her page under the app's name.
    me = await client.get("/api/v1/account", headers=bearer)
    assert me.json()["name"] == "Ada" and me.json()["scopes"] == ["play", "read"]
    made = await client.post("/api/v1/matches", json={"seat": "white"}, headers=bearer)
    assert made.status_code == 201 and made.json()["match"]["players"]["white"]["account"] == "Ada"
    listed = [t for t in await app.state.parts.accounts.tokens(ada.account) if t.app == APP]
    assert len(listed) == 1 and listed[0].name == APP and listed[0].revoked_at is None
    account_page = await client.get("/account", headers=ada.session(csrf=False))
    assert APP in account_page.text and "an app you authorized" in account_page.text

    # The app revokes its own token; it is refused from then on.
    assert (await client.delete(TOKEN, headers=bearer)).status_code == 204
    r = await client.get("/api/v1/account", headers=bearer)
    assert r.status_code == 401 and r.json()["error"] == "unauthorized"
    assert (await client.get("/api/v1/account", headers=ada.token())).status_code == 200  # her others live on
    assert (await client.delete(TOKEN, headers=ada.session())).status_code == 403  # a session is no token


async def test_a_token_revoked_on_the_account_page_is_refused(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    verifier, challenge = pkce()
    back = await approve(client, ada, challenge, scope="read")
    body = (await exchange(client, back["code"][0], verifier)).json()
    assert body["scope"] == "read"
    bearer = {"Authorization": f"Bearer {body['access_token']}"}
    # A read token plays nothing: the scope approved is all it holds.
    r = await client.post("/api/v1/matches", json={}, headers=bearer)
    assert r.status_code == 403 and r.json()["error"] == "insufficient_scope"
    token_id = next(t.id for t in await app.state.parts.accounts.tokens(ada.account) if t.app == APP)
    r = await client.post(f"/account/tokens/{token_id}/revoke", data={"csrf_token": ada.csrf},
                          headers=ada.session(csrf=False))
    assert r.status_code == 303
    assert (await client.get("/api/v1/account", headers=bearer)).status_code == 401


async def test_deny_sends_access_denied_and_no_code(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    _, challenge = pkce()
    back = await approve(client, ada, challenge, "deny")
    assert back["error"] == ["access_denied"] and back["state"] == ["s-42"] and "code" not in back


async def test_a_wrong_verifier_spends_the_code(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    verifier, challenge = pkce()
    code = (await approve(client, ada, challenge))["code"][0]
    assert "code_challenge" in refused(await exchange(client, code, pkce()[0]))
    assert "used already" in refused(await exchange(client, code, verifier))  # one try per code


async def test_a_reused_code_is_refused_and_its_token_revoked(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    verifier, challenge = pkce()
    code = (await approve(client, ada, challenge))["code"][0]
    first = await exchange(client, code, verifier)
    assert first.status_code == 200
    assert "used already" in refused(await exchange(client, code, verifier))
    r = await client.get("/api/v1/account", headers={"Authorization": f"Bearer {first.json()['access_token']}"})
    assert r.status_code == 401  # a code used twice may be stolen: what it gave is taken back


async def test_an_expired_code_is_refused(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    accounts = app.state.parts.accounts
    verifier, challenge = pkce()
    code = (await approve(client, ada, challenge))["code"][0]
    start, kept = accounts.clock(), accounts.clock
    accounts.clock = lambda: start + CODE_SECONDS + 1  # the injected clock, moved past the code's life
    try:
        assert "expired" in refused(await exchange(client, code, verifier))
    finally:
        accounts.clock = kept


@pytest.mark.parametrize("field, value", [("redirect_uri", "http://127.0.0.1:8765/other"),
                                          ("client_id", "another-app")])
async def test_a_code_is_bound_to_its_app_and_redirect(app: Any, client: httpx.AsyncClient, field: str,
                                                      value: str) -> None:
    ada = await member(app, "Ada")
    verifier, challenge = pkce()
    code = (await approve(client, ada, challenge))["code"][0]
    assert "not the one" in refused(await exchange(client, code, verifier, **{field: value}))


async def test_no_scope_beyond_the_approved_ones(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    verifier, challenge = pkce()
    code = (await approve(client, ada, challenge, scope="read"))["code"][0]
    refused(await exchange(client, code, verifier, scope="read play"), "invalid_scope")


@pytest.mark.parametrize("change, words", [
    ({"code_challenge_method": "plain"}, "S256"), ({"code_challenge_method": ""}, "S256"),
    ({"redirect_uri": "javascript:alert(1)"}, "http or https"),
    ({"redirect_uri": "http://app.example/cb"}, "localhost"), ({"redirect_uri": "https://app.example/cb#x"}, "fragment"),
    ({"redirect_uri": "https://user:pw@app.example/cb"}, "user"), ({"redirect_uri": "/relative"}, "http or https"),
    ({"client_id": "no spaces please"}, "client_id"), ({"scope": "play admin"}, "scope"), ({"scope": ""}, "scope"),
    ({"response_type": "token"}, "response_type"), ({"code_challenge": "short"}, "code_challenge")])
async def test_a_bad_request_is_said_on_our_page_and_never_redirected(app: Any, client: httpx.AsyncClient,
                                                                     change: dict[str, str], words: str) -> None:
    ada = await member(app, "Ada")
    r = await client.get(ask(pkce()[1], **change), headers=ada.session(csrf=False))
    assert r.status_code == 400 and "location" not in r.headers
    assert words in unescape(r.text)


async def test_an_approval_needs_the_sessions_csrf_token(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    page = await client.get(ask(pkce()[1]), headers=ada.session(csrf=False))
    fields = {**form_of(page.text), "decision": "approve", "csrf_token": "forged"}
    r = await client.post("/oauth", data=fields, headers=ada.session(csrf=False))
    assert r.status_code == 403 and "location" not in r.headers and "expired" in r.text


@pytest.mark.parametrize("form, error", [
    ({"grant_type": "password"}, "unsupported_grant_type"), ({"grant_type": "authorization_code"}, "invalid_request"),
    ({"grant_type": "authorization_code", "code": "x", "code_verifier": "short", "redirect_uri": REDIRECT,
      "client_id": APP}, "invalid_request"),
    ({"grant_type": "authorization_code", "code": "guess", "code_verifier": "v" * 43, "redirect_uri": REDIRECT,
      "client_id": APP}, "invalid_grant")])
async def test_a_malformed_token_request_is_refused_in_rfc_words(client: httpx.AsyncClient, form: dict[str, str],
                                                                error: str) -> None:
    refused(await client.post(TOKEN, data=form), error)
    refused(await client.post(TOKEN, json=form), "unsupported_grant_type")  # not form-encoded: no grant read


async def test_code_guessing_is_rate_limited(app: Any, client: httpx.AsyncClient) -> None:
    most = app.state.parts.settings.oauth_exchanges_per_minute
    guess = {"grant_type": "authorization_code", "code_verifier": "v" * 43, "redirect_uri": REDIRECT,
             "client_id": APP}
    for n in range(most):
        refused(await client.post(TOKEN, data={**guess, "code": f"guess-{n}"}))
    r = await client.post(TOKEN, data={**guess, "code": "one-more"})
    assert r.status_code == 429 and r.json()["error"] == "rate_limited", r.text
    assert int(r.headers["retry-after"]) >= 1 and r.json()["detail"]


async def test_an_oauth_token_with_play_makes_a_bot_account(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    verifier, challenge = pkce()
    code = (await approve(client, ada, challenge))["code"][0]
    bearer = {"Authorization": f"Bearer {(await exchange(client, code, verifier)).json()['access_token']}"}
    r = await client.post("/api/v1/account/bot", headers=bearer)
    assert r.status_code == 200 and r.json()["title"] == "BOT"


async def test_the_openapi_declares_the_flow(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    flow = spec["components"]["securitySchemes"]["oauth2"]["flows"]["authorizationCode"]
    assert (flow["authorizationUrl"], flow["tokenUrl"]) == ("/oauth", TOKEN)
    assert set(flow["scopes"]) == {"play", "read"}
    assert {"oauth2": []} in spec["paths"]["/api/v1/account"]["get"]["security"]
    assert "security" not in spec["paths"][TOKEN]["post"]
