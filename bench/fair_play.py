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
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

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


CHECKS: dict[str, Callable[[Server], bool]] = {"farm": farm}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("checks", nargs="*", choices=[[], *CHECKS], default=[])
    args = parser.parse_args(argv)
    chosen = args.checks or list(CHECKS)
    results: dict[str, Any] = {}
    for name in chosen:
        with tempfile.TemporaryDirectory() as folder, run_server(Path(folder)) as server:
            results[name] = CHECKS[name](server)
    print("all PASS" if all(results.values()) else "MISS: " + ", ".join(k for k, v in results.items() if not v))
    return 0 if all(results.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
