"""A simple Magery engine that plays as a bot account (see docs/engines.md).

Written on the official client, magery-client (packages/client): its `Bot`
listens to the account's events, accepts the challenges made to it, and plays
each match that starts through that match's stream with `?legal=true`,
resuming it when a connection breaks or a server restarts. What is left here
is the choosing, with the rules engine (the magery-rules wheel): a move that
wins at once, else one that captures, else any legal move.

    pip install packages/client packages/rules
    MAGERY_TOKEN=mgo_... python examples/simple_bot.py --server http://127.0.0.1:8000

The token is an account token with the `play` scope, of an account made a bot
account once (`POST /api/v1/account/bot`). Stops on Ctrl-C or SIGTERM, or by
itself after `--matches N` matches have finished.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from typing import Any

import magery_rules as rules
from magery_client import Action, Bot, Legal, Magery, Match


def say(*words: object) -> None:
    print("simple_bot:", *words, file=sys.stderr, flush=True)


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


class SimpleBot(Bot):
    async def accepts(self, challenge: dict[str, Any]) -> bool:
        say("accepted", challenge["challenger"])
        return True

    async def choose(self, match: Match, legal: Legal) -> Action:
        """A winning action, else a capturing one, else any: each tried on the engine."""
        if legal["setup"]:
            return await super().choose(match, legal)  # a shuffled backrow: any order is legal
        actions = legal["actions"]
        try:
            state = playable_guess(match["position"])
        except rules.MageryError:
            return self.random.choice(actions)
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
        return self.random.choice(captures or actions)

    async def over(self, match_id: str, match: Match) -> None:
        say(match_id, "over:", match.get("result"))


async def run(server: str, token: str, matches: int | None, seed: int | None) -> None:
    async with Magery(server, token) as client:
        me = await client.account()
        say("playing as", me["name"], me["title"] or "(not a bot account)")
        await SimpleBot(client, seed=seed).run(matches)


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
        asyncio.run(run(args.server, token, args.matches, args.seed))
    except KeyboardInterrupt:
        say("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
