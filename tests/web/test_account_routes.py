"""The account pages' routes (issue 19): the session cookie's flags, CSRF on
every form and on the claim, refusals said in words, `next` kept local, and
signing out that really ends the session."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import Api
from tests.web.accounts_helpers import PASSWORD, csrf_of, form_token, page_csrf, sign_in, sign_up


def _browser(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


def _cookie(response: httpx.Response, name: str) -> str:
    found = [c for c in response.headers.get_list("set-cookie") if c.startswith(f"{name}=")]
    assert found, f"no {name} cookie set"
    return found[0].lower()


async def test_sign_up_sets_the_session_cookie_with_its_flags(client: httpx.AsyncClient) -> None:
    form = await client.get("/signup")
    for text in ('<label for="username">Username</label>', '<label for="password">Password</label>',
                 'Create account</button>'):
        assert text in form.text
    assert "magery_form=" in form.headers["set-cookie"] and "samesite=strict" in form.headers["set-cookie"].lower()
    r = await sign_up(client, "Ada", next_path="/learn")
    assert r.status_code == 303 and r.headers["location"] == "/account/claim?next=%2Flearn"
    cookie = _cookie(r, "magery_session")
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie and "max-age=" in cookie
    assert "secure" not in cookie
    home = await client.get("/")
    assert '<meta name="magery-account" content="Ada">' in home.text
    assert page_csrf(home.text) and home.headers["cache-control"] == "no-store"
    assert 'href="/@/Ada"' in home.text and "Sign out</button>" in home.text


async def test_the_cookie_is_secure_over_https(app: Any) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="https://testserver") as c:
        r = await sign_up(c, "Ada")
        assert r.status_code == 303
        assert "secure" in _cookie(r, "magery_session")


async def test_a_guest_page_has_no_account_meta_tags(client: httpx.AsyncClient) -> None:
    for path in ("/", "/learn", "/login", "/signup"):
        r = await client.get(path)
        assert 'name="magery-account"' not in r.text and 'name="csrf-token"' not in r.text
        assert "cache-control" not in r.headers or "no-store" not in r.headers["cache-control"]
    home = await client.get("/")
    assert 'href="/login"' in home.text and 'href="/signup"' in home.text
    learn = await client.get("/learn")
    assert 'href="/login?next=/learn"' in learn.text


async def test_the_sign_up_form_needs_its_own_token(app: Any, client: httpx.AsyncClient) -> None:
    await client.get("/signup")
    r = await client.post("/signup", data={"username": "Ada", "password": PASSWORD, "csrf_token": "forged"})
    assert r.status_code == 403 and "expired" in r.text
    token = form_token((await client.get("/signup")).text)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as other:
        # Another site's page posting the form: the browser holds no form cookie for it.
        r = await other.post("/signup", data={"username": "Ada", "password": PASSWORD, "csrf_token": token})
    assert r.status_code == 403
    assert await app.state.parts.accounts.by_name("Ada") is None


@pytest.mark.parametrize(("name", "password", "status", "words"), [
    ("a", PASSWORD, 400, "A name is 2 to 20 letters"),
    ("admin", PASSWORD, 400, "The name &#39;admin&#39; is kept for the site"),
    ("Random", PASSWORD, 400, "is kept for the site"),
    ("Ada", "short", 400, "A password has at least 8 characters."),
    ("Ada", "password123", 400, "one of the most common"),
])
async def test_sign_up_refusals_are_said_in_words(client: httpx.AsyncClient, name: str, password: str,
                                                  status: int, words: str) -> None:
    r = await sign_up(client, name, password)
    assert r.status_code == status and words in r.text
    assert 'role="alert"' in r.text and "magery_session=" not in r.headers.get("set-cookie", "")


async def test_a_taken_name_is_said_whatever_its_case(app: Any, client: httpx.AsyncClient) -> None:
    await app.state.parts.accounts.sign_up("Ada", PASSWORD, "10.9.9.9")
    r = await sign_up(client, "ADA")
    assert r.status_code == 409 and "The name &#39;ADA&#39; is taken." in r.text


async def test_too_many_sign_ups_from_one_address(app: Any, client: httpx.AsyncClient) -> None:
    most = app.state.parts.settings.account_signups_per_address
    for i in range(most):
        async with _browser(app) as another:  # another browser at the same address
            assert (await sign_up(another, f"p{i}")).status_code == 303
    r = await sign_up(client, "OneMore")
    assert r.status_code == 429 and "Too many accounts were made from this address" in r.text
    assert int(r.headers["retry-after"]) > 0
    # A program that reads JSON is refused in the API's words, never with a page.
    token = form_token((await client.get("/signup")).text)
    r = await client.post("/signup", data={"username": "OneMore", "password": PASSWORD, "csrf_token": token},
                          headers={"Accept": "application/json"})
    assert r.status_code == 429 and r.headers["content-type"] == "application/json"
    assert r.json()["error"] == "rate_limited" and "Too many accounts" in r.json()["detail"]
    assert int(r.headers["retry-after"]) > 0


async def test_sign_in_answers_alike_for_an_unknown_name_and_a_wrong_password(app: Any,
                                                                               client: httpx.AsyncClient) -> None:
    await app.state.parts.accounts.sign_up("Ada", PASSWORD, "10.9.9.9")
    wrong = await sign_in(client, "Ada", "not the password")
    nobody = await sign_in(client, "Nobody1", PASSWORD)
    for r in (wrong, nobody):
        assert r.status_code == 401 and "Wrong username or password." in r.text
        assert "magery_session=" not in r.headers.get("set-cookie", "")
    good = await sign_in(client, "ada", next_path="/matches/abc")
    assert good.status_code == 303 and good.headers["location"] == "/account/claim?next=%2Fmatches%2Fabc"


async def test_sign_in_locks_out_after_failures(app: Any, client: httpx.AsyncClient) -> None:
    await app.state.parts.accounts.sign_up("Ada", PASSWORD, "10.9.9.9")
    for _ in range(app.state.parts.settings.account_lock_after):
        await sign_in(client, "Ada", "not the password")
    r = await sign_in(client, "Ada")  # the right password waits too, while the lock runs
    assert r.status_code == 429 and "Too many failed sign-ins: try again in" in r.text
    assert int(r.headers["retry-after"]) > 0
    token = form_token((await client.get("/login")).text)
    r = await client.post("/login", data={"username": "Ada", "password": PASSWORD, "csrf_token": token},
                          headers={"Accept": "application/json"})  # refused in front of the stack: JSON too
    assert (r.status_code, r.json()["error"]) == (429, "rate_limited") and int(r.headers["retry-after"]) > 0


async def test_the_sign_in_form_needs_its_own_token(app: Any, client: httpx.AsyncClient) -> None:
    await app.state.parts.accounts.sign_up("Ada", PASSWORD, "10.9.9.9")
    await client.get("/login")
    r = await client.post("/login", data={"username": "Ada", "password": PASSWORD, "csrf_token": "forged"})
    assert r.status_code == 403 and "magery_session=" not in r.headers.get("set-cookie", "")


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "/\\evil.example", "/login",
                                    "javascript:alert(1)", "/account/claim?next=//evil.example"])
async def test_next_never_leads_off_the_site(client: httpx.AsyncClient, target: str) -> None:
    r = await sign_up(client, "Ada", next_path=target)
    assert r.status_code == 303 and r.headers["location"] == "/account/claim?next=%2F"
    claim = await client.get(f"/account/claim?next={httpx.QueryParams({'x': target})['x']}")
    assert 'href="/"' in claim.text


async def test_signing_out_needs_the_csrf_token_and_ends_the_session(client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ada")
    session = client.cookies["magery_session"]
    refused = await client.post("/logout", data={"csrf_token": "forged"})
    assert refused.status_code == 403
    assert "magery-account" in (await client.get("/")).text  # still signed in
    r = await client.post("/logout", data={"csrf_token": await csrf_of(client)})
    assert r.status_code == 303 and r.headers["location"] == "/"
    assert 'magery_session=""' in r.headers["set-cookie"] or "max-age=0" in r.headers["set-cookie"].lower()
    client.cookies.set("magery_session", session)  # a copy of the old cookie signs nobody in
    assert "magery-account" not in (await client.get("/")).text


# ---- the claim --------------------------------------------------------------------


async def _claim(client: httpx.AsyncClient, seats: Any, csrf: str | None) -> httpx.Response:
    headers = {} if csrf is None else {"X-CSRF-Token": csrf}
    return await client.post("/account/claim", json={"seats": seats}, headers=headers)


async def _seat_accounts(app: Any, match_id: str) -> dict[str, int | None]:
    rec = await app.state.parts.service.keeper.get(match_id, fresh=True)
    return dict(rec.seat_accounts())


async def test_the_claim_makes_a_guest_seat_the_accounts(app: Any, client: httpx.AsyncClient) -> None:
    api = Api(client)
    game = await api.create(name="Ada")
    await sign_up(client, "Ada")
    r = await _claim(client, [{"match": game.id, "token": game.tokens["white"]}], await csrf_of(client))
    # Nobody has joined: nothing says the match is against oneself, so its result will count.
    assert r.status_code == 200 and r.json() == {"claimed": [game.id], "refused": [], "uncounted": []}
    ada = await app.state.parts.accounts.by_name("Ada")
    assert (await _seat_accounts(app, game.id))["white"] == ada.id
    again = await _claim(client, [{"match": game.id, "token": game.tokens["white"]}], await csrf_of(client))
    assert again.json()["claimed"] == [] and again.json()["refused"][0]["match"] == game.id


async def test_the_claim_refuses_without_a_session_or_its_csrf_token(app: Any, client: httpx.AsyncClient) -> None:
    game = await Api(client).create(name="Ada")
    seats = [{"match": game.id, "token": game.tokens["white"]}]
    assert (await _claim(client, seats, "anything")).status_code == 401
    await sign_up(client, "Ada")
    for csrf in (None, "forged", ""):
        r = await _claim(client, seats, csrf)
        assert r.status_code == 403 and r.json()["error"] == "csrf_failed"
    assert (await _seat_accounts(app, game.id))["white"] is None


async def test_the_claim_refuses_a_wrong_token_and_both_seats(app: Any, client: httpx.AsyncClient) -> None:
    api = Api(client)
    game = await api.join(await api.create(name="Ada"), name="Ada again")
    other = await api.create(name="Bo")
    await sign_up(client, "Ada")
    csrf = await csrf_of(client)
    r = await _claim(client, [{"match": game.id, "token": game.tokens["white"]},
                              {"match": other.id, "token": game.tokens["black"]},
                              {"match": "nosuchmatch1", "token": game.tokens["white"]}], csrf)
    assert r.json()["claimed"] == [game.id]
    assert r.json()["uncounted"] == [game.id]  # both seats were taken from this client's one address
    reasons = {x["match"]: x["reason"] for x in r.json()["refused"]}
    assert reasons == {other.id: "this token holds no seat of this match", "nosuchmatch1": "there is no such match"}
    both = await _claim(client, [{"match": game.id, "token": game.tokens["black"]}], csrf)
    assert both.json()["claimed"] == [] and "never holds both" in both.json()["refused"][0]["reason"]
    assert (await _seat_accounts(app, game.id))["black"] is None
    # The profile and the API both say the match is left out of the results.
    listed = (await client.get("/api/v1/users/Ada/matches")).json()["matches"]
    assert [(m["id"], m["counted"]) for m in listed] == [(game.id, False)]
    assert "not counted: both seats were played from one place" in (await client.get("/@/Ada")).text


@pytest.mark.parametrize("body", [{"seats": "x"}, {"seats": [{"match": 1, "token": "t"}]}, [],
                                  {"seats": [{"match": "m", "token": "t"}] * 201}])
async def test_a_malformed_claim_is_refused(client: httpx.AsyncClient, body: Any) -> None:
    await sign_up(client, "Ada")
    r = await client.post("/account/claim", json=body, headers={"X-CSRF-Token": await csrf_of(client)})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"


# ---- /account ---------------------------------------------------------------------


async def test_the_account_page_needs_a_session(client: httpx.AsyncClient) -> None:
    r = await client.get("/account")
    assert r.status_code == 303 and r.headers["location"] == "/login?next=%2Faccount"
    r = await client.post("/account/tokens", data={"name": "x", "scopes": "play"})
    assert r.status_code == 303


async def test_tokens_are_made_with_csrf_shown_once_and_revoked(app: Any, client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ada")
    accounts = app.state.parts.accounts
    ada = await accounts.by_name("Ada")
    forged = await client.post("/account/tokens", data={"name": "bot", "scopes": "play", "csrf_token": "forged"})
    assert forged.status_code == 403 and await accounts.tokens(ada) == []
    csrf = await csrf_of(client)
    made = await client.post("/account/tokens", data={"name": "my bot", "scopes": ["play", "read"],
                                                      "csrf_token": csrf})
    assert made.status_code == 200 and made.headers["cache-control"] == "no-store"
    assert '<label for="new-token">New token</label>' in made.text
    plain = made.text.split('id="new-token" readonly value="', 1)[1].split('"', 1)[0]
    holder = await accounts.verify_token(plain)
    assert holder is not None and holder.scopes == ("play", "read")
    listed = (await client.get("/account")).text
    assert "my bot" in listed and plain not in listed
    none = await client.post("/account/tokens", data={"name": "x", "csrf_token": csrf})
    assert none.status_code == 400 and "No token made: Scopes are one or both of play, read" in none.text
    token_id = (await accounts.tokens(ada))[0].id
    assert (await client.post(f"/account/tokens/{token_id}/revoke", data={"csrf_token": "forged"})).status_code == 403
    assert await accounts.verify_token(plain) is not None
    r = await client.post(f"/account/tokens/{token_id}/revoke", data={"csrf_token": csrf})
    assert r.status_code == 303 and await accounts.verify_token(plain) is None


async def test_nobody_revokes_another_accounts_token(app: Any, client: httpx.AsyncClient) -> None:
    accounts = app.state.parts.accounts
    bo = await accounts.sign_up("Bo", PASSWORD, "10.9.9.9")
    plain, token = await accounts.create_token(bo, "bo's", ["read"])
    await sign_up(client, "Ada")
    r = await client.post(f"/account/tokens/{token.id}/revoke", data={"csrf_token": await csrf_of(client)})
    assert r.status_code == 404 and await accounts.verify_token(plain) is not None


async def test_closing_needs_csrf_and_signs_out_everywhere(app: Any, client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ada")
    async with _browser(app) as other:
        await sign_in(other, "Ada")
        assert "magery-account" in (await other.get("/")).text
        assert (await client.post("/account/close", data={"csrf_token": "forged"})).status_code == 403
        assert not (await app.state.parts.accounts.by_name("Ada")).closed
        confirm = await client.get("/account/close")
        assert "Yes, close my account" in confirm.text
        r = await client.post("/account/close", data={"csrf_token": await csrf_of(client)})
        assert r.status_code == 200 and "is closed" in r.text
        assert (await app.state.parts.accounts.by_name("Ada")).closed
        assert "magery-account" not in (await other.get("/")).text  # the other browser is signed out too
        again = await sign_in(other, "Ada")
        assert again.status_code == 403 and "This account is closed." in again.text


async def test_a_closed_accounts_session_changes_nothing(app: Any, client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ada")
    csrf = await csrf_of(client)
    await app.state.parts.accounts.close("Ada")
    r = await client.post("/account/tokens", data={"name": "x", "scopes": "play", "csrf_token": csrf})
    assert r.status_code == 303 and r.headers["location"].startswith("/login")
