"""Issue 12, defect 5: schemathesis, with every check, against a live server,
authenticated with real seat tokens, finds nothing (the schema and the server
say the same thing). A real uvicorn process on SQLite (one per xdist worker),
`st run -c all` with the hooks and expectations of tests/api/schemathesis.toml,
in four runs that xdist spreads over its workers (RUNS below).

Issue 21's routes too (all but the endless streams): the account's, with a real
account token, player and challenges. The run's HAR record shows each of them
was reached past its refusals (a success where one is to be had), so a route
answered only 401 or 404 cannot pass for tested.

By hand, against any server (docs/reliability.md):
    MAGERY_ST_SEATS='[["<match id>", "<token>"]]' PYTHONPATH=. .venv/bin/st \\
        --config-file tests/api/schemathesis.toml run http://127.0.0.1:8000/openapi.json -c all
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests.waiting import DEADLINE

from ..realtime.test_processes import Server, account_tokens

ROOT = Path(__file__).resolve().parents[2]
ST = Path(sys.executable).with_name("st")


def _seats(base: str) -> list[list[str]]:
    """Four matches: three with both seats taken, one waiting; every seat's token."""
    seats = []
    with httpx.Client(base_url=base, timeout=DEADLINE) as http:
        for i in range(4):
            made = http.post("/api/v1/matches", json={"seat": "white", "name": "W"}).json()
            seats.append([made["match"]["id"], made["token"]])
            if i < 3:
                joined = http.post(f"/api/v1/matches/{made['match']['id']}/join", json={"name": "B"}).json()
                seats.append([made["match"]["id"], joined["token"]])
    return seats


def _account(base: str, database_url: str, a: str, b: str) -> dict[str, str]:
    """Two accounts, A (whose token schemathesis uses) and B; challenges
    pending each way, for accept, decline (A's to do) and cancel (A's own)."""
    tokens = asyncio.run(account_tokens(database_url, a, b))
    made = []
    with httpx.Client(base_url=base, timeout=DEADLINE) as http:
        for by, to in ((b, a),) * 4 + ((a, b),) * 3:
            r = http.post(f"/api/v1/challenges/{to}", json={}, headers=tokens[by])
            assert r.status_code == 201, r.text
            made.append(r.json()["id"])
    return {"MAGERY_ST_ACCOUNT": tokens[a]["Authorization"].removeprefix("Bearer "),
            "MAGERY_ST_NAMES": json.dumps([b]), "MAGERY_ST_CHALLENGES": json.dumps(made)}


# Issue 21's routes, and what shows each was reached: a success (or, where several
# calls race for one challenge, an answer past the refusals of a caller, an id or
# the input: "not yours", "answered already").
REACHED = {
    ("GET", "/api/v1/account"): "2xx", ("POST", "/api/v1/account/bot"): "2xx",
    ("GET", "/api/v1/challenges"): "2xx", ("POST", "/api/v1/challenges/{name}"): "2xx",
    ("POST", "/api/v1/challenges/{challenge_id}/accept"): "past",
    ("POST", "/api/v1/challenges/{challenge_id}/decline"): "past",
    ("POST", "/api/v1/challenges/{challenge_id}/cancel"): "past",
    ("GET", "/api/v1/matches/{match_id}/record"): "2xx", ("POST", "/api/v1/matches/{match_id}/rematch"): "past",
    ("POST", "/api/v1/matches (position)"): "2xx",
}


REFUSALS = {400, 401, 404, 405, 413, 415}


def _answers(har: Path, paths: list[str]) -> dict[tuple[str, str], set[int]]:
    """The statuses each operation was answered, from the run's HAR record; a
    create with a `position` counts apart."""
    patterns = [(re.compile("^" + re.sub(r"\\\{[a-z_]+\\\}", "[^/]+", re.escape(p)) + "$"), p) for p in paths]
    seen: dict[tuple[str, str], set[int]] = {}
    for entry in json.loads(har.read_text())["log"]["entries"]:
        path = "/" + entry["request"]["url"].split("/", 3)[3].split("?")[0]
        template = next((p for pattern, p in patterns if pattern.match(path)), path)
        body = (entry["request"].get("postData") or {}).get("text") or ""
        if template == "/api/v1/matches" and '"position"' in body:
            template = "/api/v1/matches (position)"
        seen.setdefault((entry["request"]["method"], template), set()).add(entry["response"]["status"])
    return seen


# The run, split so that xdist spreads it over its workers (one run of every phase
# over every operation took three minutes on one worker while the others sat idle):
# the examples, coverage and fuzzing phases test each operation on its own, so they
# run per group of paths (groups of about equal time), the last group every path
# the others leave (no operation can fall between them); the stateful phase chains
# operations across groups, so it runs once over them all. The worker's server is
# shared by its runs, but each run gets matches, accounts and challenges of its
# own, so what one run does to them (a resign, an accepted challenge) is not seen
# by another, whichever worker runs it and whenever.
GROUPS = {"matches": "^/api/v1/matches", "challenges-users": "^/api/v1/(challenges|users)"}
PER_OPERATION = "examples,coverage,fuzzing"
RUNS = [pytest.param(["--phases", PER_OPERATION, "--include-path-regex", regex], regex, id=name)
        for name, regex in GROUPS.items()]
OTHERS = "^/api/v1/(?!" + "|".join(regex.removeprefix("^/api/v1/") for regex in GROUPS.values()) + ")"
RUNS += [pytest.param(["--phases", PER_OPERATION, "--exclude-path-regex", "|".join(GROUPS.values())], OTHERS,
                      id="account-and-others"),
         # What each route was answered is checked in the per-operation runs.
         pytest.param(["--phases", "stateful"], None, id="stateful")]


@dataclass
class Live:
    """The worker's server and what every run asks of it."""

    server: Server
    database_url: str
    paths: list[str]
    runs: itertools.count = field(default_factory=itertools.count)


@pytest.fixture(scope="session")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """One server per worker for all its runs (starting one costs seconds of CPU:
    the app's routes and schemas are built at its start)."""
    if not ST.exists():
        pytest.skip("schemathesis is in the dev extra: scripts/install dev")
    database_url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('st') / 'st.sqlite3'}"
    server = Server(database_url)
    try:
        server.wait_ready()
        paths = list(httpx.get(f"{server.base}/openapi.json", timeout=DEADLINE).json()["paths"])
        yield Live(server, database_url, paths)
    finally:
        server.stop()


@pytest.mark.parametrize(("selection", "covers"), RUNS)
def test_schemathesis_finds_nothing(live: Live, tmp_path: Path, selection: list[str],
                                    covers: str | None) -> None:
    base, har, run = live.server.base, tmp_path / "run.har", next(live.runs)
    env = {**os.environ, "MAGERY_ST_SEATS": json.dumps(_seats(base)), "PYTHONPATH": str(ROOT),
           "NO_COLOR": "1", **_account(base, live.database_url, f"St{run}A", f"St{run}B")}
    done = subprocess.run(
        [str(ST), "--config-file", "tests/api/schemathesis.toml", "--no-color", "run",
         # `--checks all` would enable again the check schemathesis.toml turns off for the run.
         f"{base}/openapi.json", "--checks", "all", "--exclude-checks", "ensure_resource_availability",
         "--max-examples", "20", "--workers", "1", *selection,
         "--seed", "12", "--report", "har", "--report-har-path", str(har)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    report = done.stdout + done.stderr
    assert done.returncode == 0, report[-6000:]
    assert "Failures:" not in report and "Errors:" not in report, report[-6000:]
    assert " passed" in report
    answers = _answers(har, live.paths)
    for (method, path), proof in REACHED.items():
        if covers is None or not re.match(covers, path):
            continue
        statuses = answers.get((method, path), set())
        reached = any(200 <= s < 300 for s in statuses) if proof == "2xx" else bool(statuses - REFUSALS)
        assert reached, (method, path, sorted(statuses))
