"""Issue 12, defect 5: schemathesis, with every check, against a live server,
authenticated with real seat tokens, finds nothing (the schema and the server
say the same thing). About half a minute: a real uvicorn process on SQLite,
`st run -c all` with the hooks and expectations of tests/api/schemathesis.toml.

By hand, against any server (docs/reliability.md):
    MAGERY_ST_SEATS='[["<match id>", "<token>"]]' PYTHONPATH=. .venv/bin/st \\
        --config-file tests/api/schemathesis.toml run http://127.0.0.1:8000/openapi.json -c all
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.waiting import DEADLINE

from ..realtime.test_processes import Server

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


def test_schemathesis_finds_nothing(tmp_path: Path) -> None:
    if not ST.exists():
        pytest.skip("schemathesis is in the dev extra: scripts/install dev")
    server = Server(f"sqlite+aiosqlite:///{tmp_path / 'st.sqlite3'}")
    try:
        server.wait_ready()
        env = {**os.environ, "MAGERY_ST_SEATS": json.dumps(_seats(server.base)), "PYTHONPATH": str(ROOT),
               "NO_COLOR": "1"}
        done = subprocess.run(
            [str(ST), "--config-file", "tests/api/schemathesis.toml", "--no-color", "run",
             f"{server.base}/openapi.json", "--checks", "all", "--max-examples", "20", "--workers", "1",
             "--seed", "12"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    finally:
        server.stop()
    report = done.stdout + done.stderr
    assert done.returncode == 0, report[-6000:]
    assert "Failures:" not in report and "Errors:" not in report, report[-6000:]
    assert " passed" in report
