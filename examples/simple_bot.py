"""A simple Magery engine that plays as a bot account (see docs/engines.md).

It listens to its account's events (`GET /api/v1/stream/events`), accepts every
challenge made to it, and plays each match that starts through that match's
stream with `?legal=true`: every state on which it has something to play
carries its legal actions, and it answers with `POST /matches/{id}/actions`.
It chooses with the rules engine (the magery-rules wheel): a move that wins at
once, else one that captures, else any legal move.

    pip install httpx packages/rules
    MAGERY_TOKEN=mgo_... python examples/simple_bot.py --server http://127.0.0.1:8000

The token is an account token with the `play` scope, of an account made a bot
account once (`POST /api/v1/account/bot`). Needs only the standard library,
httpx and magery_rules. Stops on Ctrl-C or SIGTERM, or by itself after
`--matches N` matches have finished.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import magery_rules as rules

# A line at least every 7 s (the servers' keep-alive): much longer with none
# means the connection is dead, and the stream is opened again.
READ_TIMEOUT = 20.0


def say(*words: object) -> None:
    print("simple_bot:", *words, file=sys.stderr, flush=True)


def lines(http: httpx.Client, path: str, params: dict[str, str] | None = None) -> Iterator[dict[str, Any]]:
    """The JSON lines of one ndjson stream, until it ends; raises on a refusal."""
    timeout = httpx.Timeout(10.0, read=READ_TIMEOUT)
    with http.stream("GET", path, params=params, timeout=timeout) as answer:
        if answer.status_code != 200:
            answer.read()
            raise RuntimeError(f"{path}: {answer.status_code} {answer.text}")
        for line in answer.iter_lines():
            if line.strip():
                yield json.loads(line)


# ---- choosing a move, with the rules engine ---------------------------------------------

def playable_guess(position: str) -> Any:
    """An engine State for a running match's public `position`.

    The server hides the chaos deck and (mostly) the seed, so the text cannot
    be read as it is; with an empty deck and any seed in their places it can.
    The guess differs from the real state only in what the deck decides (the
    card drawn at a round's end), which looking one action ahead rarely meets.
    """
    fields = position.split(" ")
    fields[13] = "-/-"  # the deck and the discard (field 14 of docs/notation.md)
    if fields[14] == "?":  # the seed (field 15)
        fields[14] = "unknown"
    return rules.from_text(" ".join(fields))


def choose(match: dict[str, Any], actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A winning action, else a capturing one, else any: each tried on the engine."""
    try:
        state = playable_guess(match["position"])
    except rules.MageryError:
        return rng.choice(actions)
    me, them = state.to_move, rules.other(state.to_move)
    theirs = slice(them * 8, them * 8 + 8)  # `dead` counts per colour and type
    captures = []
    for action in actions:
        try:
            after, _ = rules.apply(state, action)
        except rules.MageryError:
            continue  # the guess was wrong about this one: leave it to chance
        if after.phase == rules.OVER and after.winner == me:
            return action
        if sum(after.dead[theirs]) > sum(state.dead[theirs]):
            captures.append(action)
    return rng.choice(captures or actions)


# ---- one match ----------------------------------------------------------------------------

def act(http: httpx.Client, match_id: str, match: dict[str, Any], legal: dict[str, Any],
        rng: random.Random) -> None:
    if legal["setup"]:
        row = list(legal["setup"])
        rng.shuffle(row)  # any order of the eight types is a legal backrow
        action: dict[str, Any] = {"type": "setup", "backrow": row}
    elif legal["actions"]:
        action = choose(match, legal["actions"], rng)
    else:
        return
    # The version names the state chosen on; the id makes a resend safe.
    body = {"action": action, "version": legal["version"], "id": uuid.uuid4().hex}
    for _ in range(5):
        try:
            answer = http.post(f"/matches/{match_id}/actions", json=body)
        except httpx.TransportError:
            continue  # the same id and version: never applied twice
        if answer.status_code == 429:
            time.sleep(float(answer.headers.get("Retry-After", "1")))
            continue
        if answer.status_code != 200:
            # stale_version, a match ended meanwhile...: the stream brings the
            # state as it is now, and with it the next turn's legal actions.
            say(match_id, "action refused:", answer.status_code, answer.text)
        return


def play(http: httpx.Client, match_id: str, rng: random.Random) -> None:
    """Plays `match_id` until it is over, resuming the stream if it breaks."""
    since: int | None = None
    while True:
        params = {"legal": "true"}
        if since is not None:
            params["since"] = str(since)  # nothing lost, nothing twice
        try:
            for line in lines(http, f"/matches/{match_id}/stream", params):
                if line["type"] not in ("snapshot", "update"):
                    continue  # presence, ping
                match = line["match"]
                since = match["version"]
                if match["status"] == "finished":
                    say(match_id, "over:", match["result"])
                    return
                if "legal" in line:
                    act(http, match_id, match, line["legal"], rng)
        except httpx.TransportError as error:
            say(match_id, "stream broken, resuming:", error)
            time.sleep(1)
        except RuntimeError as refused:  # 404, 401...: nothing this bot can do
            say(refused)
            return


# ---- the account's events -----------------------------------------------------------------

def run(server: str, token: str, matches: int | None, seed: int | None) -> None:
    rng = random.Random(seed)
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=server.rstrip("/") + "/api/v1", headers=headers, timeout=10.0) as http:
        me = http.get("/account")
        me.raise_for_status()
        name = me.json()["name"]
        say("playing as", name, me.json()["title"] or "(not a bot account)")
        playing: dict[str, threading.Thread] = {}
        finished: set[str] = set()
        while matches is None or len(finished) < matches:
            try:
                for event in lines(http, "/stream/events"):
                    kind = event["type"]
                    if kind == "challenge":
                        challenge = event["challenge"]
                        if challenge["challenged"].lower() == name.lower() and challenge["status"] == "pending":
                            answer = http.post(f"/challenges/{challenge['id']}/accept")
                            say("accepted", challenge["challenger"], "->", answer.status_code)
                    elif kind == "matchStart":
                        match_id = event["match"]["id"]
                        if match_id not in playing or not playing[match_id].is_alive():
                            # A thread each: one match's turn never waits on another's.
                            thread = threading.Thread(target=play, args=(http, match_id, random.Random(rng.random())),
                                                      name=match_id, daemon=True)
                            playing[match_id] = thread
                            thread.start()
                    elif kind == "matchFinish":
                        finished.add(event["match"]["id"])
                        if matches is not None and len(finished) >= matches:
                            break
            except httpx.TransportError as error:
                say("events stream broken, opening it again:", error)
                time.sleep(1)
            # The stream also ends when the server process stops: open it again.
        for thread in playing.values():
            thread.join(timeout=10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--matches", type=int, default=None, help="stop after this many matches finished")
    parser.add_argument("--seed", type=int, default=None, help="for repeatable choices")
    args = parser.parse_args()
    token = os.environ.get("MAGERY_TOKEN")
    if not token:
        parser.error("set MAGERY_TOKEN to an account token with the play scope")
    # SIGTERM ends it as Ctrl-C does: the open streams are closed on the way out.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        run(args.server, token, args.matches, args.seed)
    except KeyboardInterrupt:
        say("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
