"""packages/client, the magery-client wheel, against a live server process:
built offline (tests/engines/wheels.py), ready to publish, installed apart from
the repository, then

- two clients play a whole match, one over the websocket with compact updates
  and one through the match's ndjson stream, each told its legal actions, and
  both end on the same finished state, that of the log;
- a `Bot` (a bot account) accepts a challenge from its events stream and plays
  through its match's stream until the challenger resigns, then stops.

The wheel is installed with --target into a folder of its own, run by this
venv's Python (its httpx and websockets are the dependencies'): the script
checks that magery_client is imported from there, not from the repository.
One server process; about 10 s on an idle machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.browser.conftest import run_server
from tests.waiting import DEADLINE

from .test_simple_bot import FAST_HASHES, account_token
from .wheels import CLIENT_PACKAGE as PACKAGE
from .wheels import InstalledClient, metadata, ready_to_publish

PLAY = '''
import asyncio, random, sys
import magery_client
from magery_client import Bot, Magery

assert magery_client.__file__.startswith(sys.argv[2]), magery_client.__file__
server, _, grace, linus = sys.argv[1:5]
LIVE = ("spectators", "players", "server_time")


def pick(rng, legal):
    if legal["setup"]:
        return {"type": "setup", "backrow": rng.sample(legal["setup"], 8)}
    return rng.choice(legal["actions"])


async def by_socket(client, match_id, rng):
    kinds, state = set(), None
    async with client.socket(match_id, legal=True, compact=True) as sock:
        async for message in sock:
            kinds.add(message["type"])
            if message["type"] in ("snapshot", "update", "delta"):
                state = message["match"]
                if "legal" in message and state["status"] == "active":
                    await sock.act(pick(rng, message["legal"]), message["legal"]["version"])
    return state, kinds


async def by_stream(client, match_id, rng):
    state = None
    async for line in client.match_stream(match_id, legal=True):
        if line["type"] in ("snapshot", "update"):
            state = line["match"]
            legal = line.get("legal")
            if legal and state["status"] == "active":
                try:
                    await client.act(match_id, pick(rng, legal), legal["version"])
                except magery_client.Refused as refused:
                    assert refused.error == "stale_version", refused
    return state


async def two_clients():
    async with Magery(server) as ada, Magery(server) as bo:
        seat = await ada.create_match(name="Ada", seat="white", options={"no_progress_rounds": 2})
        match_id = seat["match"]["id"]
        joined = await bo.join_match(match_id, name="Bo")
        assert ada.token == seat["token"] and bo.token == joined["token"] and joined["seat"] == "black"
        (white, kinds), black = await asyncio.gather(by_socket(ada, match_id, random.Random(1)),
                                                     by_stream(bo, match_id, random.Random(2)))
        # The same state on both ways in, but for what lives (who is connected, who watches, the time sent).
        def settled(state):
            return {key: value for key, value in state.items() if key not in LIVE}
        assert white["status"] == "finished" and settled(white) == settled(black), (white, black)
        assert "delta" in kinds, kinds  # the compact updates were applied, and came out right
        assert len(await ada.log(match_id)) == white["version"]
        read = await bo.match(match_id)
        assert read["version"] == white["version"] and read["result"] == white["result"]
        print("match", match_id, white["version"], white["result"]["reason"])


async def a_bot():
    async with Magery(server, grace) as bot_client, Magery(server, linus) as person:
        assert (await bot_client.become_bot())["title"] == "BOT"
        bot = Bot(bot_client, seed=5)
        running = asyncio.create_task(bot.run(matches=1))
        await person.challenge("Grace", colour="white")
        started = None
        async for event in person.events():
            if event["type"] == "matchStart":
                started = event["match"]
                break
        assert started["opponent"] == "Grace" and started["opponent_title"] == "BOT", started
        rng, bot_moves, last = random.Random(3), 0, None
        async for line in person.match_stream(started["id"], legal=True):
            if line["type"] != "update" and line["type"] != "snapshot":
                continue
            last = line["match"]
            if line["type"] == "update" and line["player"] == "black" and line["action"]["type"] != "setup":
                bot_moves += 1
            if last["status"] != "active":
                continue
            if bot_moves >= 4:
                await person.resign(started["id"])
            elif line.get("legal"):
                try:
                    await person.act(started["id"], pick(rng, line["legal"]), line["legal"]["version"])
                except magery_client.Refused as refused:
                    assert refused.error == "stale_version", refused
        assert last["result"]["reason"] == "resigned" and last["result"]["winner"] == "black", last
        await asyncio.wait_for(running, 60)  # told of the end, the bot stops by itself
        assert bot.finished == {started["id"]}
        print("bot", started["id"], bot_moves)


asyncio.run(two_clients())
asyncio.run(a_bot())
'''


def test_the_client_wheel_plays_a_match_between_two_clients_and_as_a_bot(
        tmp_path: Path, client_wheel: InstalledClient) -> None:
    wheel, site = client_wheel.wheel, client_wheel.site
    sys.path.insert(0, str(PACKAGE))  # the version as the source says it, to compare
    try:
        from magery_client.version import VERSION
    finally:
        sys.path.remove(str(PACKAGE))
        sys.modules.pop("magery_client.version", None)
        sys.modules.pop("magery_client", None)
    assert wheel.name == f"magery_client-{VERSION}-py3-none-any.whl", wheel.name
    meta, names = metadata(wheel)
    assert meta["Name"] == "magery-client" and meta["Version"] == VERSION, meta
    needs = sorted(meta.get_all("Requires-Dist") or [])
    assert [n.split(">")[0] for n in needs] == ["httpx", "websockets"], needs
    ready_to_publish(meta, names, "magery_client")

    with run_server(tmp_path, **FAST_HASHES) as server:
        grace, linus = account_token(server.base, "Grace"), account_token(server.base, "Linus")
        done = subprocess.run([sys.executable, "-c", PLAY, server.base, str(site), grace, linus],
                              cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(site)},
                              capture_output=True, text=True, timeout=DEADLINE * 5)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    said = done.stdout.splitlines()
    assert said[0].startswith("match ") and said[1].startswith("bot "), said
