"""A bot on the installed magery-client wheel, through a server restart
(issue 36: "accepts a challenge, plays a match with a server restart in the
middle (nothing lost or doubled) and exports its games as ndjson").

Grace, a bot account (signed up, a token, `POST /account/bot`), runs a `Bot`
subclass in a process of its own on the wheel (conftest.py's `client_wheel`),
and keeps its own record of every action the server acknowledged. Linus
challenges it and plays White through REST, here. Once the bot has made some
moves, right after one of Linus's (the bot then about to act), the server
process is stopped with SIGTERM and a new one started on the same SQLite file
and the same port (the test holds the listening socket and hands it to each
process, so the bot's address does not change). The bot carries on by itself;
Linus resigns once it has moved a few times more. Then:

- the log's versions run 1, 2, 3, ... with no gap, up to the match's version;
- the bot's game actions in the log are exactly those it was told were
  applied, in order, each once (a resend across the restart applied once);
- the bot's export of its own matches (ndjson) holds the match once, equal to
  `GET /matches/{id}`.

One server at a time, two starts; about as long as test_client_package.py.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import urllib.request
import uuid
from pathlib import Path
from socket import socket
from typing import Any

import httpx

from tests.browser.conftest import database_url
from tests.serving import listening_socket
from tests.waiting import DEADLINE, STARTING, until_sync

from .test_simple_bot import FAST_HASHES, account_token, lines
from .wheels import ROOT, InstalledClient

GAME_ACTIONS = ("setup", "place", "pass", "remove")
MOVES_BEFORE = 2  # the bot's moves (after its setup) before the restart
MOVES_AFTER = 3  # and after it, before Linus resigns

BOT = '''
import asyncio, json, sys, uuid
import magery_client
from magery_client import Bot, Magery

assert magery_client.__file__.startswith(sys.argv[2]), magery_client.__file__
server, _, token = sys.argv[1:4]


class Recording(Magery):
    """Keeps what the server acknowledged: each action applied, with its id and the version it was chosen on."""

    acks = []

    async def act(self, match_id, action, version, *, action_id=None):
        action_id = action_id or uuid.uuid4().hex
        state = await super().act(match_id, action, version, action_id=action_id)
        self.acks.append({"match": match_id, "id": action_id, "version": version, "action": action,
                          "answer": state["version"]})
        return state


class Steady(Bot):
    """Places when it can, else any legal action: a match that moves on."""

    async def choose(self, match, legal):
        places = [a for a in legal["actions"] if a["type"] == "place"]
        return self.random.choice(places) if places and not legal["setup"] else await super().choose(match, legal)


async def main():
    async with Recording(server, token) as client:
        bot = Steady(client, seed=7)
        await bot.run(matches=1)
        exported = [match async for match in client.export(bot.name)]
    print(json.dumps({"finished": sorted(bot.finished), "acks": client.acks, "exported": exported}))


asyncio.run(main())
'''


class OnePort:
    """The server's processes, one at a time, on one SQLite file and one port:
    the test holds the listening socket and hands it to each process it starts
    (a connection made between two processes waits in its backlog)."""

    def __init__(self, folder: Path, listener: socket) -> None:
        self.folder, self.listener = folder, listener
        self.base = f"http://127.0.0.1:{listener.getsockname()[1]}"
        self.env = {**os.environ, "DATABASE_URL": database_url(folder), "RATE_LIMIT_WRITES": "100000",
                    "RATE_LIMIT_READS": "100000", "BOT_DELAY_SECONDS": "0.05", "SWEEP_SECONDS": "1",
                    "ACCOUNT_SIGNUPS_PER_ADDRESS": "100000", **FAST_HASHES}
        self.log = (folder / "server.log").open("a")
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        fd = self.listener.fileno()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app", "--fd", str(fd)],
            cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT, pass_fds=(fd,))
        until_sync(self._ready, "the server to answer", seconds=STARTING, every=0.1)

    def _ready(self) -> bool:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise RuntimeError((self.folder / "server.log").read_text()[-3000:])
        try:
            urllib.request.urlopen(self.base + "/api/v1/matches?limit=1", timeout=5).read()
        except OSError:
            return False
        return True

    def stop(self) -> None:
        """SIGTERM, as a deploy stops a process: it tells its streams `closing` and ends."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(DEADLINE)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def close(self) -> None:
        self.stop()
        self.log.close()


class Linus:
    """The bot's opponent, White, played through REST with random legal actions."""

    def __init__(self, http: httpx.Client, match_id: str) -> None:
        self.http, self.match_id = http, match_id
        self.rng = random.Random(11)
        self.bot_moves = 0
        self.seen = 0  # the last version read

    def turns(self) -> Any:
        """(state, legal or None) for each state the match's stream brings, to the end."""
        for line in lines(self.http, f"/matches/{self.match_id}/stream", legal="true"):
            if line["type"] not in ("snapshot", "update"):
                continue
            state = line["match"]
            if line["type"] == "update" and state["version"] > self.seen and line["player"] == "black" \
                    and not line["automatic"] and line["action"]["type"] in GAME_ACTIONS[1:]:
                self.bot_moves += 1
            self.seen = max(self.seen, state["version"])
            yield state, line.get("legal")
            if state["status"] == "finished":
                return

    def act(self, legal: dict[str, Any]) -> None:
        action = ({"type": "setup", "backrow": self.rng.sample(legal["setup"], 8)} if legal["setup"]
                  else self.rng.choice(legal["actions"]))
        r = self.http.post(f"/matches/{self.match_id}/actions",
                           json={"action": action, "version": legal["version"], "id": uuid.uuid4().hex})
        assert r.status_code in (200, 409), r.text


def test_a_bot_on_the_client_wheel_plays_through_a_server_restart_and_exports_its_match(
        tmp_path: Path, client_wheel: InstalledClient) -> None:
    with listening_socket() as listener, (tmp_path / "bot.log").open("w") as bot_log:
        server = OnePort(tmp_path, listener)
        bot: subprocess.Popen[str] | None = None
        try:
            server.start()
            grace, linus = account_token(server.base, "Grace"), account_token(server.base, "Linus")
            api = server.base + "/api/v1"
            with httpx.Client(base_url=api, headers={"Authorization": f"Bearer {grace}"}, timeout=DEADLINE) as http:
                assert http.post("/account/bot").json()["title"] == "BOT"
            with httpx.Client(base_url=api, headers={"Authorization": f"Bearer {linus}"}, timeout=DEADLINE) as http:
                # Made before the bot listens: among its events stream's opening lines.
                assert http.post("/challenges/Grace", json={"colour": "white"}).status_code == 201
                bot = subprocess.Popen([sys.executable, "-c", BOT, server.base, str(client_wheel.site), grace],
                                       cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(client_wheel.site)},
                                       stdout=subprocess.PIPE, stderr=bot_log, text=True)
                started = next(e for e in lines(http, "/stream/events") if e["type"] == "matchStart")
                match_id = started["match"]["id"]
                white = Linus(http, match_id)

                for state, legal in white.turns():
                    assert state["status"] != "finished", state
                    if legal:
                        white.act(legal)
                        if white.bot_moves >= MOVES_BEFORE:
                            break  # the bot's turn now: stop the server under it
                server.stop()
                restarted_at = white.seen
                server.start()

                moved_before, resigned, last = white.bot_moves, False, None
                for state, legal in white.turns():
                    last = state
                    if state["status"] == "finished" or resigned:
                        continue
                    if white.bot_moves >= moved_before + MOVES_AFTER:
                        assert http.post(f"/matches/{match_id}/resign").status_code == 200
                        resigned = True
                    elif legal:
                        white.act(legal)
                assert last is not None and last["result"]["reason"] == "resigned", last

                out, _ = bot.communicate(timeout=DEADLINE * 2)  # told of the end, the bot stops by itself
                assert bot.returncode == 0, (tmp_path / "bot.log").read_text()[-5000:]
                log = http.get(f"/matches/{match_id}/actions").json()
                public = httpx.get(f"{api}/matches/{match_id}", timeout=DEADLINE).json()
        finally:
            if bot is not None and bot.poll() is None:
                bot.kill()
                bot.wait(10)
            server.close()

    said = json.loads(out.splitlines()[-1])
    assert said["finished"] == [match_id], said["finished"]

    # Nothing lost: every version of the match is in its log, once, in order.
    assert [entry["version"] for entry in log] == list(range(1, public["version"] + 1)), log
    # Nothing doubled: the bot's game actions are exactly those it was told were applied, in order.
    acks = [ack for ack in said["acks"] if ack["match"] == match_id]
    played = [e for e in log if e["player"] == "black" and not e["automatic"] and e["action"]["type"] in GAME_ACTIONS]
    assert [e["action"] for e in played] == [ack["action"] for ack in acks], (played, acks)
    for entry, ack in zip(played, acks, strict=True):
        assert ack["version"] < entry["version"] <= ack["answer"], (entry, ack)
    assert len({ack["id"] for ack in acks}) == len(acks), acks
    assert any(ack["version"] >= restarted_at for ack in acks), (restarted_at, acks)  # it played on after it

    # Its games as ndjson: the match once, as GET /matches/{id} shows it.
    exported = said["exported"]
    assert [m["id"] for m in exported].count(match_id) == 1, [m["id"] for m in exported]
    assert next(m for m in exported if m["id"] == match_id) == public
