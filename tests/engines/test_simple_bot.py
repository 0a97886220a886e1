"""examples/simple_bot.py (written on magery-client's `Bot`) against a live server (issue 21): a bot account's
program accepts a challenge from its events stream and plays the match through
the match's stream to its end, then stops by itself.

Ada (a person's account, played here by the test with random legal moves)
challenges the bot, plays White, and resigns once the bot has made some real
moves of the game: a whole random match would take far longer, and every kind
of turn the bot takes (setup, decision, action) comes before that.
One test, one server process, a few seconds.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from tests.browser.conftest import run_server
from tests.waiting import DEADLINE
from tests.web.accounts_helpers import PASSWORD, form_token

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "simple_bot.py"
BOT_MOVES = 6  # the bot's own moves after the setup before Ada resigns
# Sign-ups hash passwords: at the lowest costs, they take no time here.
FAST_HASHES = {"PASSWORD_TIME_COST": "1", "PASSWORD_MEMORY_KIB": "8", "PASSWORD_PARALLELISM": "1"}


def account_token(base: str, name: str) -> str:
    """Signs `name` up through the site's form and makes a token on /account, as a person does."""
    with httpx.Client(base_url=base, timeout=DEADLINE) as site:
        r = site.post("/signup", data={"username": name, "password": PASSWORD, "next": "/",
                                       "csrf_token": form_token(site.get("/signup").text)})
        assert r.status_code in (200, 303), r.text
        page = site.get("/account").text
        r = site.post("/account/tokens", data={"name": "engine", "scopes": ["play", "read"],
                                               "csrf_token": form_token(page)})
        found = re.search(r"mgo_[A-Za-z0-9_\-]+", r.text)
        assert r.status_code == 200 and found, r.text
        return found.group(0)


def lines(http: httpx.Client, path: str, **params: str) -> Iterator[dict[str, Any]]:
    with http.stream("GET", path, params=params, timeout=httpx.Timeout(DEADLINE)) as answer:
        assert answer.status_code == 200, answer.read()
        for line in answer.iter_lines():
            if line.strip():
                yield json.loads(line)


def test_the_example_bot_accepts_a_challenge_and_plays_the_match_to_its_end(tmp_path: Path) -> None:
    # The wheel's package is app/rules under the name magery_rules: a link to it
    # stands for the installed wheel (tests/engines/test_rules_wheel.py builds that).
    shim = tmp_path / "site"
    shim.mkdir()
    (shim / "magery_rules").symlink_to(ROOT / "app" / "rules", target_is_directory=True)
    # And the client's package, which tests/engines/test_client_package.py builds as a wheel.
    (shim / "magery_client").symlink_to(ROOT / "packages" / "client" / "magery_client", target_is_directory=True)
    rng = random.Random(3)
    with run_server(tmp_path, **FAST_HASHES) as server:
        grace, ada = account_token(server.base, "Grace"), account_token(server.base, "Ada")
        api = server.base + "/api/v1"
        with httpx.Client(base_url=api, headers={"Authorization": f"Bearer {grace}"}) as http:
            assert http.post("/account/bot").json()["title"] == "BOT"

        log = (tmp_path / "bot.log").open("w")
        bot = subprocess.Popen(
            [sys.executable, str(EXAMPLE), "--server", server.base, "--matches", "1", "--seed", "5"],
            cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT,
            env={**os.environ, "MAGERY_TOKEN": grace, "PYTHONPATH": str(shim)})
        try:
            with httpx.Client(base_url=api, headers={"Authorization": f"Bearer {ada}"}, timeout=DEADLINE) as http:
                # A challenge made before the bot listens is among its stream's opening lines.
                r = http.post("/challenges/Grace", json={"colour": "white"})
                assert r.status_code == 201, r.text
                started = next(e for e in lines(http, "/stream/events") if e["type"] == "matchStart")
                match_id = started["match"]["id"]
                assert started["match"]["opponent"] == "Grace" and started["match"]["opponent_title"] == "BOT"

                bot_moves, last, resigned = 0, None, False
                for line in lines(http, f"/matches/{match_id}/stream", legal="true"):
                    if line["type"] not in ("snapshot", "update"):
                        continue
                    last = line["match"]
                    if line["type"] == "update" and line["player"] == "black" and not line["automatic"] \
                            and line["action"]["type"] in ("place", "pass", "remove"):
                        bot_moves += 1
                    if last["status"] == "finished":
                        break
                    if resigned:
                        continue  # the update that finished it ends the stream
                    if bot_moves >= BOT_MOVES:
                        r = http.post(f"/matches/{match_id}/resign")
                        assert r.status_code == 200, r.text
                        resigned = True
                        continue
                    legal = line.get("legal")
                    if legal:
                        action = ({"type": "setup", "backrow": rng.sample(legal["setup"], 8)} if legal["setup"]
                                  else rng.choice(legal["actions"]))
                        r = http.post(f"/matches/{match_id}/actions",
                                      json={"action": action, "version": legal["version"], "id": uuid.uuid4().hex})
                        assert r.status_code in (200, 409), r.text
            assert last is not None and last["status"] == "finished", last
            assert last["result"]["reason"] == "resigned" and last["result"]["winner"] == "black"
            assert bot_moves >= BOT_MOVES
            # Told of the match's end on its events stream, the bot stops by itself.
            assert bot.wait(DEADLINE) == 0, (tmp_path / "bot.log").read_text()
        finally:
            if bot.poll() is None:
                bot.terminate()
                bot.wait(10)
            log.close()
    said = (tmp_path / "bot.log").read_text()
    assert "accepted Ada" in said and f"{match_id} over" in said, said
