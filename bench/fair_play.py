"""Fair play, checked through the public API on a real server process (issue
"Ratings people can trust"): each check prints PASS or MISS with its figures.

    .venv/bin/python bench/fair_play.py            # every check
    .venv/bin/python bench/fair_play.py farm       # some of them

Starts its own server (scripts/serve's app on a fresh SQLite file, as the
browser tests do); accounts and their API tokens are made by the account
service in a child process (tests/browser/players.py), everything else goes
through the REST API as a client would.

farm    five quick resignations between one pair, by their account tokens:
        PASS when the winner's rating after the fifth is where the third left it.
closed  an account signs up on the site, makes a rated match with its session,
        then closes itself on /account/close: PASS when the match's seat token
        is refused (401) on /legal and /actions and the match has ended.
names   guests asking for an account's name as it is, in other case, with a
        Cyrillic look-alike, a zero-width space inside, and `a` with 39 accents:
        PASS when every one is refused (409 name_taken, or 400 for a hidden
        character) and a plain new name is taken.
chat    chat lines with a direction override or only invisible characters:
        PASS when each is refused (400 bad_chat_line).
pools   20 guests' joins from one address (a server trusting 127.0.0.1 as its
        proxy, each client named by X-Forwarded-For): PASS when at most the
        documented 8 wait, the rest are refused 429 too_many_places, none is
        paired with another of that address, and a guest from elsewhere is
        paired with one of them.

The sign-in flood from 12 addresses has its own bench (two processes on
PostgreSQL, default argon2): bench/sign_in_flood.py.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from tests.browser import players  # noqa: E402
from tests.browser.conftest import Server, run_server  # noqa: E402

ROW = ["construct", "fey", "elemental", "dragon", "undead", "beast", "spirit", "myrmidon"]


def _first_legal(server: Server, match_id: str, token: str) -> None:
    legal = server.legal(match_id, token)
    action = {"type": "setup", "backrow": ROW} if legal["setup"] else legal["actions"][0]
    server.act(match_id, token, action)


def farm(server: Server) -> bool:
    made = players.make(server, {"players": ["Main", "Second"]})
    main, second = made["tokens"]["Main"], made["tokens"]["Second"]
    ratings = []
    for _ in range(5):
        match_id = server.call("POST", "/matches", {"seat": "white", "rated": True}, token=main)["match"]["id"]
        server.call("POST", f"/matches/{match_id}/join", {}, token=second)
        for token in (main, second, main, second):  # the setups, then one action each
            _first_legal(server, match_id, token)
        server.call("POST", f"/matches/{match_id}/resign", {}, token=second)
        ratings.append(server.call("GET", "/users/Main")["ratings"]["standard"]["rating"])
    ok = ratings[2] == ratings[3] == ratings[4] and ratings[0] < ratings[1] < ratings[2]
    print(f"farm: Main's rating after each of five quick wins over Second: {ratings} -> {'PASS' if ok else 'MISS'}")
    return ok


def _signed_up(server: Server, name: str) -> tuple[httpx.Client, str]:
    """A browser that signed up as `name` on the site: its client (the session
    cookie kept) and the session's CSRF token."""
    browser = httpx.Client(base_url=server.base, follow_redirects=True)
    form = browser.get("/signup").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', form)
    assert token, "the sign-up form has its token"
    browser.post("/signup", data={"username": name, "password": "a long enough password", "csrf_token": token.group(1),
                                  "next": "/"})
    page = browser.get("/account").text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert csrf, "signed in: the account page has a form"
    return browser, csrf.group(1)


def closed(server: Server) -> bool:
    browser, csrf = _signed_up(server, "Leaver")
    made = browser.post("/api/v1/matches", json={"seat": "white"}, headers={"X-CSRF-Token": csrf}).json()
    match_id, token = made["match"]["id"], made["token"]
    server.call("POST", f"/matches/{match_id}/join", {"name": "Stayer"})
    before = httpx.get(f"{server.base}/api/v1/matches/{match_id}/legal", headers={"Authorization": f"Bearer {token}"})
    browser.post("/account/close", data={"csrf_token": csrf})
    legal = httpx.get(f"{server.base}/api/v1/matches/{match_id}/legal", headers={"Authorization": f"Bearer {token}"})
    act = httpx.post(f"{server.base}/api/v1/matches/{match_id}/actions", headers={"Authorization": f"Bearer {token}"},
                     json={"action": {"type": "setup", "backrow": ROW}, "version": 2})
    status = server.match(match_id)["status"]
    ok = before.status_code == 200 and legal.status_code == 401 and act.status_code == 401 and status == "finished"
    print(f"closed: the seat token before closing {before.status_code}, after: /legal {legal.status_code}, "
          f"/actions {act.status_code}; the match {status} -> {'PASS' if ok else 'MISS'}")
    return ok


def names(server: Server) -> bool:
    players.make(server, {"players": ["Main"]})
    tries = ["Main", "MAIN", "M\u0430in", "Ma\u200bin", "a" + "\u0301" * 39]
    answers = [httpx.post(f"{server.base}/api/v1/matches", json={"seat": "white", "name": n}).status_code for n in tries]
    plain = httpx.post(f"{server.base}/api/v1/matches", json={"seat": "white", "name": "Mainly new"}).status_code
    ok = all(a in (400, 409) for a in answers) and plain == 201  # 409 name_taken: alike; 400: a hidden character
    print(f"names: an account's name as a guest's, five ways: {answers}; a new name: {plain} -> {'PASS' if ok else 'MISS'}")
    return ok


def chat(server: Server) -> bool:
    made = server.call("POST", "/matches", {"seat": "white", "name": "Talker"})
    match_id, token = made["match"]["id"], made["token"]
    players.make(server, {"players": ["Talker2"]})
    lines = ["hello \u202eevil", "\u2066isolated\u2069", "\u200b\u200b\u2060"]
    auth = {"Authorization": f"Bearer {token}"}
    codes = [httpx.post(f"{server.base}/api/v1/matches/{match_id}/chat", json={"text": t}, headers=auth)
             for t in lines]
    refused = [(r.status_code, r.json().get("error")) for r in codes]
    ok = all(r == (400, "bad_chat_line") for r in refused)
    print(f"chat: direction overrides and invisible lines: {refused} -> {'PASS' if ok else 'MISS'}")
    return ok


def pools(server: Server) -> bool:
    join = f"{server.base}/api/v1/pools/standard:10+5/join"
    answers = [httpx.post(join, json={"name": f"Flood{i}"}, headers={"X-Forwarded-For": "203.0.113.66"})
               for i in range(20)]
    codes = [r.status_code for r in answers]
    waiting = [r.json() for r in answers if r.status_code == 200]
    paired_among = [a for a in waiting if a.get("match") is not None]
    refused = {r.json().get("error") for r in answers if r.status_code != 200}
    stranger = httpx.post(join, json={"name": "Stranger"}, headers={"X-Forwarded-For": "198.51.100.23"}).json()
    ok = (len(waiting) <= 8 and refused <= {"too_many_places"} and codes.count(429) == 20 - len(waiting)
          and not paired_among and stranger.get("match") is not None)
    print(f"pools: one address's 20 joins: {len(waiting)} wait, {codes.count(429)} refused {sorted(refused)}, "
          f"{len(paired_among)} paired among themselves; a stranger paired: {stranger.get('match') is not None} "
          f"-> {'PASS' if ok else 'MISS'}")
    return ok


CHECKS: dict[str, Callable[[Server], bool]] = {"farm": farm, "closed": closed, "names": names, "chat": chat,
                                               "pools": pools}
SERVER_ENV: dict[str, dict[str, str]] = {"pools": {"TRUSTED_PROXIES": '["127.0.0.1"]'}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("checks", nargs="*", choices=[[], *CHECKS], default=[])
    args = parser.parse_args(argv)
    chosen = args.checks or list(CHECKS)
    results: dict[str, Any] = {}
    for name in chosen:
        with tempfile.TemporaryDirectory() as folder, run_server(Path(folder), **SERVER_ENV.get(name, {})) as server:
            results[name] = CHECKS[name](server)
    print("all PASS" if all(results.values()) else "MISS: " + ", ".join(k for k, v in results.items() if not v))
    return 0 if all(results.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
