"""Players' accounts on a running test server's database, made by the account
service itself in a child process (this branch's server has no sign-up page of
its own to drive, and Playwright's loop holds the test's thread): for the admin
dashboard's browser test and its screenshots (scripts/admin_screenshots.py).

`make(server, plan)` signs the players up (each from its own address: sign-ups
are limited per address), gives each an API token, seats them in matches made
through the API, plays rated matches between them to a resignation, and
answers {"tokens": {name: token}, "rated": [match ids]}. With "admin": [name,
password] in the plan it first adds that admin by the command line's own
`add-admin` (app.accounts's main), in the same child: one interpreter started,
with the app imported once, rather than two. `alive(server, tokens)` tells
which tokens still speak for their account.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from .conftest import ROOT, Server

CHILD = """
import asyncio, json, os, sys
import app.accounts.__main__ as accounts_cli
from app.accounts import Accounts
from app.auth import PasswordChecks
from app.config import get_settings
from app.db import make_engine
from app.db.models import seats
from app.matches import MatchService

ROW = ["construct", "fey", "elemental", "dragon", "undead", "beast", "spirit", "myrmidon"]

async def main():
    settings = get_settings()
    engine = make_engine(settings.database_url)
    accounts = Accounts(engine, settings, PasswordChecks(1, 0))
    plan = json.loads(sys.argv[2])
    try:
        if sys.argv[1] == "alive":
            print(json.dumps({n: await accounts.verify_token(t) is not None for n, t in plan.items()}))
            return
        made, tokens, rated = {}, {}, []
        for name in plan["players"]:
            made[name] = await accounts.sign_up(name, "a player's password", "scene-" + name)
            tokens[name], _ = await accounts.create_token(made[name], "client", ["play", "read"])
        for match_id, names in plan.get("seats", {}).items():
            async with engine.begin() as conn:
                for colour, name in zip(("white", "black"), names):
                    await conn.execute(seats.update().where(seats.c.match_id == match_id, seats.c.colour == colour)
                                       .values(account_id=made[name].id))
        service = MatchService(engine, settings, bot_levels=("random", "greedy", "strong"))
        for white, black in plan.get("rated", []):
            seated = await service.lobby.create({}, seat="white", name=white, rated=True, account_id=made[white].id)
            match_id = seated.match["id"]
            await service.lobby.join(match_id, name=black, account_id=made[black].id)
            for colour in ("white", "black", "white", "black"):  # setups, then each side's first action
                legal = await service.reads.legal(match_id, colour)
                action = {"type": "setup", "backrow": ROW} if legal["setup"] else legal["actions"][0]
                await service.mover.act(match_id, colour, action, legal["version"])
            await service.finisher.resign(match_id, "black")
            rated.append(match_id)
        print(json.dumps({"tokens": tokens, "rated": rated}))
    finally:
        await engine.dispose()

if "admin" in (plan := json.loads(sys.argv[2])):
    os.environ[accounts_cli.ADMIN_ENV_PASSWORD] = plan["admin"][1]
    if accounts_cli.main(["add-admin", plan["admin"][0]]) != 0:
        sys.exit("add-admin failed")
asyncio.run(main())
"""


def _child(server: Server, *args: str) -> Any:
    env = {**os.environ, "DATABASE_URL": server.database_url}
    done = subprocess.run([sys.executable, "-c", CHILD, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def make(server: Server, plan: dict[str, Any]) -> dict[str, Any]:
    """plan: {"players": [names], "seats": {match id: [white, black]}, "rated": [[white, black], ...],
    "admin": [name, password]} (each but "players" may be left out)."""
    return dict(_child(server, "make", json.dumps(plan)))


def alive(server: Server, tokens: dict[str, str]) -> dict[str, bool]:
    return dict(_child(server, "alive", json.dumps(tokens)))
