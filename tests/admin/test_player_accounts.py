"""The players' accounts in the dashboard (issue 19): the list and its search,
an account's page and JSON, closing and reopening with a reason (audited, its
sessions and tokens stopped at once), and the history's filter by account."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from sqlalchemy import select

from app.accounts import Account, Accounts
from app.db.admin_models import admin_audit
from app.matches import MatchService
from tests.admin.conftest import CSRF, AdminClient
from tests.conftest import ROW

PASSWORD = "correct horse battery"


@pytest.fixture
def accounts(app: Any) -> Accounts:
    return app.state.parts.accounts  # type: ignore[no-any-return]


async def member(accounts: Accounts, name: str) -> Account:
    return await accounts.sign_up(name, PASSWORD, f"10.1.0.1-{name}")  # sign-ups are limited per address


async def made(service: MatchService, white: Account | None, black: Account | None, rated: bool = False,
               names: tuple[str, str] | None = None) -> str:
    """A match between these accounts (None: a guest), seat names as the accounts' unless told."""
    white_name, black_name = names or (white.name if white else "Guest", black.name if black else "Guest")
    seated = await service.lobby.create({}, seat="white", name=white_name, rated=rated,
                                        account_id=white.id if white else None)
    await service.lobby.join(seated.match["id"], name=black_name, account_id=black.id if black else None)
    return str(seated.match["id"])


async def won_by_white(service: MatchService, match_id: str) -> None:
    """Both setups and each side's first action (so a rated ending counts), then Black resigns."""
    for colour in ("white", "black", "white", "black"):
        legal = await service.reads.legal(match_id, colour)
        action = {"type": "setup", "backrow": ROW} if legal["setup"] else legal["actions"][0]
        await service.mover.act(match_id, colour, action, legal["version"])
    await service.finisher.resign(match_id, "black")


async def audit_of(app: Any, kind: str) -> list[Any]:
    async with app.state.parts.engine.connect() as conn:
        return list((await conn.execute(select(admin_audit).where(admin_audit.c.kind == kind)
                                        .order_by(admin_audit.c.id))).all())


def form_token(html: str) -> str:
    found = CSRF.search(html)
    assert found, html
    return found.group(1)


# ---- the list ----------------------------------------------------------------------------


async def test_the_list_finds_names_holding_the_text_without_regard_to_case(
    admin: AdminClient, accounts: Accounts,
) -> None:
    for name in ("Ada", "Adalind", "Bea", "cy_1", "Cyd", "x-ada"):
        await member(accounts, name)
    r = await admin.get("/admin/api/accounts", params={"q": "ADA"})
    assert r.status_code == 200, r.text
    assert [a["name"] for a in r.json()["accounts"]] == ["Ada", "Adalind", "x-ada"]
    # "_" is a letter of a name here, not the database's one-character wildcard.
    r = await admin.get("/admin/api/accounts", params={"q": "y_"})
    assert [a["name"] for a in r.json()["accounts"]] == ["cy_1"]
    listed = (await admin.get("/admin/api/accounts")).json()["accounts"]
    by_name = {a["name"]: a for a in listed}
    assert by_name["Strong"]["computer"] and not by_name["Ada"]["computer"] and not by_name["Ada"]["closed"]
    assert set(by_name["Ada"]) == {"name", "created_at", "last_seen", "computer", "closed", "closed_at"}
    page = await admin.get("/admin/accounts", params={"q": "ada"})
    assert page.status_code == 200
    assert '<a href="/admin/accounts/Adalind">Adalind</a>' in page.text and "Bea" not in page.text


async def test_the_list_comes_in_pages_that_miss_and_repeat_nobody(admin: AdminClient, accounts: Accounts) -> None:
    names = [f"P{i:02d}" for i in range(7)]
    for name in names:
        await member(accounts, name)
    seen: list[str] = []
    after = None
    pages = 0
    while True:
        r = await admin.get("/admin/api/accounts", params={"q": "p", "limit": 3, **({"after": after} if after else {})})
        assert r.status_code == 200, r.text
        seen += [a["name"] for a in r.json()["accounts"]]
        pages += 1
        after = r.json()["next_after"]
        if after is None:
            break
    assert seen == names and pages == 3
    html = (await admin.get("/admin/accounts", params={"q": "p", "limit": 3})).text
    assert 'href="/admin/accounts?q=p&amp;limit=3&amp;after=p02" rel="next"' in html


# ---- one account -------------------------------------------------------------------------


async def test_an_account_page_shows_its_facts_ratings_tokens_and_matches(
    admin: AdminClient, accounts: Accounts, service: MatchService,
) -> None:
    ada, bea = await member(accounts, "Ada"), await member(accounts, "Bea")
    rated = await made(service, ada, bea, rated=True)
    await won_by_white(service, rated)
    casual = await made(service, bea, None)
    await accounts.create_token(ada, "client", ["play"])
    _, revoked = await accounts.create_token(ada, "old", ["read"])
    await accounts.revoke_token(ada, revoked.id)
    await accounts.open_session(ada, "10.0.0.9")

    a = (await admin.get("/admin/api/accounts/ada")).json()  # any case finds it
    assert (a["name"], a["closed"], a["computer"], a["live_tokens"], a["sessions"]) == ("Ada", False, False, 1, 1)
    assert a["ratings"]["standard"]["games"] == 1 and a["ratings"]["standard"]["rating"] > 1500
    assert a["ratings"]["standard"]["provisional"] and a["ratings"]["rotating"] is None
    assert [m["id"] for m in a["matches"]] == [rated]
    assert a["matches"][0]["players"]["white"]["account"] == "Ada"
    assert "password" not in str(a).lower() and "hash" not in str(a).lower()
    b = (await admin.get("/admin/api/accounts/Bea")).json()
    assert [m["id"] for m in b["matches"]] == [casual, rated]

    page = (await admin.get("/admin/accounts/Ada")).text
    for shown in (f'<a href="/admin/matches/{rated}">', "python -m app.accounts reset-password Ada",
                  '<a href="/admin?account=Ada">', "<dt>Live API tokens</dt><dd>1</dd>", "Close account",
                  '<td data-label="Rating">' + a["ratings"]["standard"]["shown"] + "</td>"):
        assert shown in page, shown
    assert "Reopen account" not in page
    computer = (await admin.get("/admin/accounts/Strong")).text
    assert "a computer level" in computer and "Close account" not in computer and "reset-password" not in computer
    for url in ("/admin/accounts/Nobody", "/admin/api/accounts/Nobody", "/admin/api/accounts/a%00b"):
        r = await admin.get(url)
        assert r.status_code == 404 and "no account named" in r.text, (url, r.status_code)


# ---- closing and reopening ---------------------------------------------------------------


async def test_closing_from_the_page_stops_sessions_and_tokens_at_once_and_is_audited(
    admin: AdminClient, accounts: Accounts, app: Any,
) -> None:
    ada = await member(accounts, "Ada")
    cookie, _ = await accounts.open_session(ada, "10.0.0.9")
    plain, _ = await accounts.create_token(ada, "client", ["play", "read"])
    assert await accounts.verify_token(plain) is not None
    token = form_token((await admin.get("/admin/accounts/Ada")).text)

    r = await admin.post("/admin/accounts/ada/close", data={"csrf_token": token, "reason": "  cheating, report 12  "})
    assert r.status_code == 303 and r.headers["location"] == "/admin/accounts/Ada?done=closed", r.text
    assert await accounts.verify_token(plain) is None  # at once: no cache to run out
    assert await accounts.session(cookie) is None
    [entry] = await audit_of(app, "account_closed")
    assert (entry.admin, entry.detail) == ("root", {"account": "Ada", "reason": "cheating, report 12"})
    page = (await admin.get(r.headers["location"])).text
    assert "The account is closed" in page and "cheating, report 12" in page and "Reopen account" in page
    assert "<dt>Live API tokens</dt><dd>0</dd>" in page
    log = (await admin.get("/admin/audit", params={"kind": "account_closed"})).text
    assert '<a href="/admin/accounts/Ada">Ada</a>' in log

    r = await admin.post("/admin/accounts/Ada/reopen", data={"csrf_token": token, "reason": "appeal upheld"})
    assert r.status_code == 303 and r.headers["location"] == "/admin/accounts/Ada?done=reopened"
    [entry] = await audit_of(app, "account_reopened")
    assert (entry.admin, entry.detail) == ("root", {"account": "Ada", "reason": "appeal upheld"})
    assert not (await accounts.by_name("Ada")).closed  # type: ignore[union-attr]
    assert await accounts.verify_token(plain) is None  # the closing revoked it for good


@pytest.mark.parametrize("reason", ["", "   ", "x" * 501, "bad\x00nul"])
async def test_closing_needs_a_fit_reason_and_changes_nothing_without_one(
    admin: AdminClient, accounts: Accounts, app: Any, reason: str,
) -> None:
    ada = await member(accounts, "Ada")
    plain, _ = await accounts.create_token(ada, "client", ["play"])
    token = form_token((await admin.get("/admin/accounts/Ada")).text)
    r = await admin.post("/admin/accounts/Ada/close", data={"csrf_token": token, "reason": reason})
    assert r.status_code == 400 and 'role="alert"' in r.text and "reason" in r.text, r.text[-800:]
    r = await admin.http.post("/admin/api/accounts/Ada/close", json={"reason": reason},
                              headers={"X-CSRF-Token": admin.csrf})
    assert r.status_code == 400 and r.json()["error"] == "bad_request" and "reason" in r.json()["detail"], r.text
    assert await accounts.verify_token(plain) is not None
    assert not (await accounts.by_name("Ada")).closed  # type: ignore[union-attr]
    assert await audit_of(app, "account_closed") == []


async def test_closing_without_the_csrf_token_is_refused(admin: AdminClient, accounts: Accounts, app: Any) -> None:
    ada = await member(accounts, "Ada")
    plain, _ = await accounts.create_token(ada, "client", ["play"])
    for data in ({"reason": "no token"}, {"reason": "forged", "csrf_token": "forged"}):
        r = await admin.post("/admin/accounts/Ada/close", data=data)
        assert r.status_code == 403 and "CSRF" in r.text
    for headers in ({}, {"X-CSRF-Token": "forged"}):
        r = await admin.http.post("/admin/api/accounts/Ada/close", json={"reason": "x"}, headers=headers)
        assert r.status_code == 403 and "CSRF" in r.json()["detail"]
    assert await accounts.verify_token(plain) is not None
    assert await audit_of(app, "account_closed") == []


async def test_the_json_closes_and_reopens_and_names_what_it_refuses(
    admin: AdminClient, accounts: Accounts, app: Any,
) -> None:
    await member(accounts, "Ada")

    async def post(url: str, body: Any) -> Any:
        # json.dumps writes a lone surrogate as its \u escape, as a client may (httpx's json= cannot)
        return await admin.http.post(url, content=json.dumps(body).encode(),
                                     headers={"X-CSRF-Token": admin.csrf, "Content-Type": "application/json"})

    r = await post("/admin/api/accounts/ADA/close", {"reason": "spam"})
    assert r.status_code == 200 and r.json()["account"]["closed"] and r.json()["account"]["closed_reason"] == "spam"
    r = await post("/admin/api/accounts/Ada/reopen", {"reason": "\ud800"})
    assert r.status_code == 400 and "reason holds a lone surrogate" in r.json()["detail"]
    r = await post("/admin/api/accounts/Ada/reopen", {"reason": "a mistake"})
    assert r.status_code == 200 and not r.json()["account"]["closed"]
    r = await post("/admin/api/accounts/Ada/reopen", {"reason": "again"})
    assert r.status_code == 400 and "is open" in r.json()["detail"]
    r = await post("/admin/api/accounts/Strong/close", {"reason": "no"})
    assert r.status_code == 400 and "computer level" in r.json()["detail"]
    r = await post("/admin/api/accounts/Nobody/close", {"reason": "no"})
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    for body in ({}, {"reason": 5}, {"reason": "x", "extra": 1}):
        r = await post("/admin/api/accounts/Ada/close", body)
        assert r.status_code == 400 and r.json()["error"] == "bad_request", (body, r.text)
    assert [e.detail["reason"] for e in await audit_of(app, "account_closed")] == ["spam"]
    assert [e.detail["reason"] for e in await audit_of(app, "account_reopened")] == ["a mistake"]


# ---- the history's filter by account -----------------------------------------------------


async def test_the_history_filters_by_account_not_by_a_typed_name(
    admin: AdminClient, accounts: Accounts, service: MatchService,
) -> None:
    ada, bea = await member(accounts, "Ada"), await member(accounts, "Bea")
    both = await made(service, ada, bea)
    as_black = await made(service, None, ada, names=("Guest", "Ada the great"))
    impostor = await made(service, None, bea, names=("Ada", "Bea"))  # a guest who typed "Ada"
    unrelated = await made(service, None, None)

    async def ids(**params: str) -> set[str]:
        r = await admin.get("/admin/api/matches", params=params)
        assert r.status_code == 200, r.text
        return {m["id"] for m in r.json()["matches"]}

    assert await ids(account="Ada") == await ids(account="aDA") == {both, as_black}
    assert await ids(player="Ada") == {both, impostor}  # the free-text name, as before
    assert await ids(account="Bea") == {both, impostor}
    assert await ids(account="Bea", player="Ada") == {both, impostor}
    assert await ids(account="Nobody") == set()
    assert unrelated in await ids()
    listed = (await admin.get("/admin/api/matches", params={"account": "Ada"})).json()["matches"]
    by_id = {m["id"]: m for m in listed}
    assert by_id[as_black]["players"]["black"] == {"name": "Ada the great", "bot": None, "account": "Ada",
                                                   "rating": {"rating": 1500, "rd": 500, "provisional": True}}
    assert by_id[as_black]["players"]["white"]["account"] is None
    rows = list(csv.DictReader(io.StringIO((await admin.get("/admin/api/matches.csv",
                                                            params={"account": "Ada"})).text)))
    assert {r["id"] for r in rows} == {both, as_black}
    assert {(r["white_account"], r["black_account"]) for r in rows} == {("Ada", "Bea"), ("", "Ada")}
    page = (await admin.get("/admin", params={"account": "Ada"})).text
    assert 'name="account" maxlength="20" value="Ada"' in page
    assert f'<a href="/admin/matches/{impostor}">' not in page and f'<a href="/admin/matches/{both}">' in page
    assert '<a href="/admin/accounts/Ada">Ada</a> as “Ada the great”' in page
    match_page = (await admin.get(f"/admin/matches/{as_black}")).text
    assert '<a href="/admin/accounts/Ada">Ada</a> as “Ada the great”' in match_page


async def test_the_history_shows_each_accounts_rating_beside_its_name(
    admin: AdminClient, accounts: Accounts, service: MatchService,
) -> None:
    """Issue 19: as the public lists do (app.matches.record.seat_rating): the
    rating as a rated match began once its ending moved it, else the rating now
    in the match's variant; a guest shows none."""
    ada, bea = await member(accounts, "Ada"), await member(accounts, "Bea")
    rated = await made(service, ada, bea, rated=True)
    await won_by_white(service, rated)
    later = await made(service, ada, None)
    by_id = {m["id"]: m for m in (await admin.get("/admin/api/matches")).json()["matches"]}
    assert by_id[rated]["players"]["white"]["rating"] == {"rating": 1500, "rd": 500, "provisional": True}
    assert by_id[later]["players"]["white"]["rating"]["rating"] == 1742
    assert by_id[later]["players"]["black"]["rating"] is None  # a guest
    page = (await admin.get("/admin")).text
    assert '<a href="/admin/accounts/Ada">Ada</a> <span class="rating">(1742?)</span>' in page
    assert '<a href="/admin/accounts/Bea">Bea</a> <span class="rating">(1500?)</span>' in page
