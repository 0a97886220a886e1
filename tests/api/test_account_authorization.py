"""Issue 19: who may call each route that takes a credential, as a matrix.

The routes are found in the OpenAPI description (every route that declares the
Bearer scheme), so a new one cannot be left out. Each is called with no
credential, a session cookie that names no session, a session without (or
with another's) X-CSRF-Token, a revoked token, a closed account's token and
session, a read-only token, and another account's token and session; and, for
the control, the seat's own account by token and by session."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.accounts.sessions import COOKIE

from .members import Member, member

BASE = "/api/v1/matches"
SEAT_VERBS = {("POST", "/api/v1/matches/{match_id}/actions"), ("GET", "/api/v1/matches/{match_id}/legal"),
              ("POST", "/api/v1/matches/{match_id}/resign"), ("POST", "/api/v1/matches/{match_id}/draw"),
              ("POST", "/api/v1/matches/{match_id}/claim"), ("POST", "/api/v1/matches/{match_id}/abort"),
              ("POST", "/api/v1/matches/{match_id}/rematch"),
              ("POST", "/api/v1/matches/{match_id}/rematch/decline"),
              ("POST", "/api/v1/matches/{match_id}/takeback"), ("POST", "/api/v1/matches/{match_id}/give-time")}
ACCOUNT = ("GET", "/api/v1/account")
# A seat's view when a credential proves a seat, a watcher's without one (issue 21):
# the seat verbs' refusals are not its own. tests/api/test_match_stream.py refuses a bad token.
SEAT_OR_WATCHER = {("GET", "/api/v1/matches/{match_id}/stream"),
                   # an arena's watcher; with an account, its player's own line too
                   # (tests/tournaments/test_arena_live.py refuses a bad token)
                   ("GET", "/api/v1/tournaments/{tournament_id}/stream")}
# Any account credential, no seat (issue 21): tests/api/test_bot_accounts.py and
# tests/api/test_event_stream.py refuse what they must.
ACCOUNT_ONLY = {("POST", "/api/v1/account/bot"), ("GET", "/api/v1/stream/events"),
                # The inbox: tests/notify/test_inbox_api.py refuses what it must.
                ("GET", "/api/v1/account/notifications"), ("POST", "/api/v1/account/notifications/read"),
                ("GET", "/api/v1/account/notification-preferences"),
                ("PUT", "/api/v1/account/notification-preferences"),
                # A browser's push subscription: tests/push refuses what it must.
                ("POST", "/api/v1/account/push"), ("DELETE", "/api/v1/account/push"),
                # The account's email: tests/mail/test_email_flow.py refuses what it must.
                ("GET", "/api/v1/account/email"), ("PUT", "/api/v1/account/email"),
                ("DELETE", "/api/v1/account/email"), ("PUT", "/api/v1/account/email/preferences"),
                # An app revokes its own token: tests/api/test_oauth.py refuses a session and a revoked token.
                ("DELETE", "/api/v1/oauth/token")}
# Any account credential (a spectator's too, either scope), or a seat's token of
# the match: the request of a computer analysis (test_an_analysis_is_asked_by_an_account_or_a_seat).
ACCOUNT_OR_SEAT = {("POST", "/api/v1/matches/{match_id}/analysis")}
# A guest or an account, declaring no credential as create and join
# (tests/api/test_puzzles.py holds their own matrix: a guest unrated, a bad
# account credential refused, a read-only token unrated).
GUEST_OR_ACCOUNT = {("GET", "/api/v1/puzzles/next"), ("GET", "/api/v1/puzzles/{puzzle_id}"),
                    ("POST", "/api/v1/puzzles/{puzzle_id}/attempt")}
# No credential at all: an app trades an OAuth code for a token (tests/api/test_oauth.py).
NO_CREDENTIAL = {("POST", "/api/v1/oauth/token")}
# Anyone's reads, with no credential declared: a player's export and status, the
# bots online, one challenge by its link (tests/api/test_user_export.py,
# test_user_status.py, test_open_challenges.py); and the challenges' calls,
# which take an account as the older challenge routes do (AnyCaller: a guest is
# refused 401 by the route, test_open_challenges.py).
UNDECLARED = {("GET", "/api/v1/users/{name}/matches/export"), ("GET", "/api/v1/users/status"),
              ("GET", "/api/v1/bots/online"), ("GET", "/api/v1/challenges/{challenge_id}/show"),
              ("POST", "/api/v1/challenges/open")}
BODIES = {"actions": {"action": {"type": "pass"}, "version": 0}, "draw": {"offer": True},
          "claim": {"result": "win"}, "takeback": {"do": "ask"}, "give-time": {}}


def declared(spec: dict[str, Any]) -> set[tuple[str, str]]:
    return {(method.upper(), path) for path, item in spec["paths"].items() for method, op in item.items()
            if op.get("security")}


class World:
    """Ada holds White in a match Bea joined; Cid holds no seat in it; Dee's
    account is closed; one of Ada's tokens is revoked."""

    def __init__(self, client: httpx.AsyncClient, ada: Member, bea: Member, cid: Member, dee: Member,
                 revoked: str) -> None:
        self.client, self.ada, self.bea, self.cid, self.dee, self.revoked = client, ada, bea, cid, dee, revoked

    async def match(self) -> str:
        made = await self.client.post(BASE, json={"seat": "white"}, headers=self.ada.token())
        assert made.status_code == 201, made.text
        match_id = str(made.json()["match"]["id"])
        joined = await self.client.post(f"{BASE}/{match_id}/join", json={}, headers=self.bea.token())
        assert joined.status_code == 200, joined.text
        return match_id


@pytest.fixture
async def world(app: Any, client: httpx.AsyncClient) -> World:
    ada, bea, cid, dee = [await member(app, n) for n in ("Ada", "Bea", "Cid", "Dee")]
    accounts = app.state.parts.accounts
    revoked, made = await accounts.create_token(ada.account, "old", ["play", "read"])
    assert await accounts.revoke_token(ada.account, made.id)
    await accounts.close("Dee")
    return World(client, ada, bea, cid, dee, revoked)


def refusals(w: World) -> list[tuple[str, dict[str, str], int, str]]:
    """(case, headers, status, error) every seat verb answers."""
    bogus = {"Cookie": f"{COOKIE}=no-such-session", "X-CSRF-Token": "no-such-session"}
    return [
        ("no credential", {}, 401, "unauthorized"),
        ("a session that is none", bogus, 401, "unauthorized"),
        ("a revoked token", w.ada.token(w.revoked), 401, "unauthorized"),
        ("a closed account's token", w.dee.token(), 401, "unauthorized"),
        ("a closed account's session", w.dee.session(), 401, "unauthorized"),
        ("a read-only token", w.ada.token(w.ada.read), 403, "insufficient_scope"),
        ("another account's token", w.cid.token(), 403, "forbidden"),
        ("another account's session", w.cid.session(), 403, "forbidden"),
    ]


async def call(client: httpx.AsyncClient, method: str, path: str, match_id: str,
               headers: dict[str, str]) -> httpx.Response:
    url = path.replace("{match_id}", match_id)
    body = BODIES.get(url.rsplit("/", 1)[-1])
    if method == "POST":
        return await client.post(url, json=body, headers=headers)
    return await client.request(method, url, headers=headers)


async def test_the_routes_that_take_a_credential_are_the_ones_this_matrix_covers(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    assert declared(spec) == SEAT_VERBS | {ACCOUNT} | SEAT_OR_WATCHER | ACCOUNT_ONLY | ACCOUNT_OR_SEAT
    assert not declared(spec) & GUEST_OR_ACCOUNT
    assert not declared(spec) & NO_CREDENTIAL
    assert {(m.upper(), p) for p, item in spec["paths"].items() for m in item} >= NO_CREDENTIAL
    assert not declared(spec) & UNDECLARED
    assert {(m.upper(), p) for p, item in spec["paths"].items() for m in item} >= UNDECLARED
    for path in (BASE, f"{BASE}/{{match_id}}/join"):  # a guest needs nothing there: nothing declared
        assert not spec["paths"][path]["post"].get("security")


@pytest.mark.parametrize(("method", "path"), sorted(SEAT_VERBS))
async def test_every_seat_verb_refuses_whoever_does_not_hold_the_seat(world: World, method: str,
                                                                      path: str) -> None:
    match_id = await world.match()
    before = (await world.client.get(f"{BASE}/{match_id}")).json()
    for case, headers, status, error in refusals(world):
        if case == "a read-only token" and path.endswith("/legal"):
            continue  # a read, which `read` covers (docs/api.md): test_a_read_only_token_reads_its_legal_actions
        r = await call(world.client, method, path, match_id, headers)
        assert (r.status_code, r.json()["error"]) == (status, error), (case, r.text)
        if status == 401 and "Authorization" in headers:
            assert r.headers["www-authenticate"].startswith("Bearer"), case
        if case == "a read-only token":
            assert "'play'" in r.json()["detail"] and 'scope="play"' in r.headers["www-authenticate"]
        if error == "forbidden":
            assert r.json()["detail"] == "your account holds no seat of this match", case
    if method == "POST":  # a session on its own must prove the page: its CSRF token
        for headers in (world.ada.session(csrf=False),
                        {**world.ada.session(), "X-CSRF-Token": world.bea.csrf}):
            r = await call(world.client, method, path, match_id, headers)
            assert (r.status_code, r.json()["error"]) == (403, "csrf_failed"), r.text
            assert "X-CSRF-Token" in r.json()["detail"]
    after = (await world.client.get(f"{BASE}/{match_id}")).json()
    assert after["version"] == before["version"] and after["status"] == before["status"]  # nothing changed
    # The control: the seat's own account, by token and by session, is let in.
    for headers in (world.ada.token(), world.ada.session()):
        r = await call(world.client, method, path, match_id, headers)
        answer = r.json()
        assert r.status_code != 401 and answer.get("error") not in ("csrf_failed", "insufficient_scope"), r.text
        assert answer.get("detail") != "your account holds no seat of this match", r.text


async def test_the_account_route_answers_only_a_live_account(world: World) -> None:
    client, ada = world.client, world.ada
    for case, headers, _, _ in refusals(world):
        r = await client.get("/api/v1/account", headers=headers)
        if case.startswith(("another", "a read-only")):  # any live credential says who it is
            assert r.status_code == 200, (case, r.text)
            continue
        assert (r.status_code, r.json()["error"]) == (401, "unauthorized"), (case, r.text)
        assert r.headers["www-authenticate"].startswith("Bearer"), case
    me = (await client.get("/api/v1/account", headers=ada.token())).json()
    assert set(me) == {"name", "created_at", "computer", "title", "scopes"}
    assert (me["name"], me["computer"], me["scopes"]) == ("Ada", False, ["play", "read"])
    assert me["created_at"].endswith("Z")
    assert (await client.get("/api/v1/account", headers=ada.token(ada.read))).json()["scopes"] == ["read"]
    by_session = await client.get("/api/v1/account", headers=ada.session(csrf=False))  # a read: no CSRF
    assert by_session.json()["name"] == "Ada" and by_session.json()["scopes"] == ["play", "read"]
    guest = await client.post(BASE, json={})  # a seat's token is no account's credential
    r = await client.get("/api/v1/account", headers={"Authorization": f"Bearer {guest.json()['token']}"})
    assert r.status_code == 401


@pytest.mark.parametrize("route", ["create", "join"])
async def test_create_and_join_refuse_a_bad_account_credential_and_admit_a_guest(world: World,
                                                                                 route: str) -> None:
    client = world.client

    async def knock(headers: dict[str, str]) -> httpx.Response:
        if route == "create":
            return await client.post(BASE, json={}, headers=headers)
        guest = await client.post(BASE, json={})
        return await client.post(f"{BASE}/{guest.json()['match']['id']}/join", json={}, headers=headers)

    for case, headers, status, error in refusals(world):
        r = await knock(headers)
        if case in ("no credential", "a session that is none", "a closed account's session",
                    "another account's token", "another account's session"):
            # A guest (a cookie that names no live session is no credential), or Cid's own seat.
            assert r.status_code in (200, 201), (case, r.text)
            seat = r.json()["match"]["players"][r.json()["seat"]]
            assert seat["account"] == ("Cid" if case.startswith("another") else None), case
            continue
        assert (r.status_code, r.json()["error"]) == (status, error), (case, r.text)
    for headers in (world.ada.session(csrf=False), {**world.ada.session(), "X-CSRF-Token": "x"}):
        r = await knock(headers)
        assert (r.status_code, r.json()["error"]) == (403, "csrf_failed"), r.text


async def test_a_read_only_token_reads_its_legal_actions(world: World) -> None:
    """docs/api.md: `read` reads what the account may read, its seat's view
    included; `GET /legal` changes nothing, so it takes either scope, while
    every call that acts still needs `play`."""
    match_id = await world.match()
    for headers in (world.ada.token(world.ada.read), world.ada.token()):
        r = await world.client.get(f"{BASE}/{match_id}/legal", headers=headers)
        assert r.status_code == 200 and r.json()["setup"], r.text
    r = await world.client.get(f"{BASE}/{match_id}/legal", headers=world.cid.token(world.cid.read))
    assert (r.status_code, r.json()["error"]) == (403, "forbidden")  # another account's seat, whatever the scope
    r = await world.client.post(f"{BASE}/{match_id}/resign", headers=world.ada.token(world.ada.read))
    assert (r.status_code, r.json()["error"]) == (403, "insufficient_scope")


async def test_an_analysis_is_asked_by_an_account_or_a_seat(world: World) -> None:
    """Any live account may ask for a finished match's analysis, a spectator's
    too and with either scope, or a seat's token of the match; nobody else."""
    match_id = await world.match()
    resigned = await world.client.post(f"{BASE}/{match_id}/resign", headers=world.ada.token())
    assert resigned.status_code == 200, resigned.text
    url = f"{BASE}/{match_id}/analysis"
    for case, headers, _, _ in refusals(world):
        r = await world.client.post(url, headers=headers)
        if case in ("a read-only token", "another account's token", "another account's session"):
            assert r.status_code in (200, 202), (case, r.text)
            continue
        assert (r.status_code, r.json()["error"]) == (401, "unauthorized"), (case, r.text)
    for headers in (world.cid.session(csrf=False), {**world.cid.session(), "X-CSRF-Token": world.bea.csrf}):
        r = await world.client.post(url, headers=headers)
        assert (r.status_code, r.json()["error"]) == (403, "csrf_failed"), r.text
    guest = await world.client.post(BASE, json={})
    r = await world.client.post(url, headers={"Authorization": f"Bearer {guest.json()['token']}"})
    assert (r.status_code, r.json()["error"]) == (401, "unauthorized"), r.text  # a seat of another match
