"""bench/capacity.py and bench/soak.py --people run end to end at a tiny scale,
so that neither rots between the runs that give their figures: one server
process on PostgreSQL, the people in two load processes, every match's four
sockets held. What they measure is not asserted (bench/README.md has the
figures); that they measure it is. Skipped without PostgreSQL (failed under
CI=true, by the postgres_url fixture)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from sqlalchemy import make_url

from tests.conftest import PG_SERVER

ROOT = Path(__file__).resolve().parents[2]
LAST_LINE = re.compile(r"^capacity: (\d+) live matches \(2 players \+ 2 watchers, an action every 1 s each\) "
                       r"per process at p99 <= 2x quiet$")


def bench_env() -> dict[str, str]:
    """The benches make their own database on the test PostgreSQL server: its URL without one."""
    url = make_url(PG_SERVER).set(drivername="postgresql").render_as_string(hide_password=False)
    return {**os.environ, "BENCH_POSTGRES": url.rsplit("/", 1)[0]}


def test_the_capacity_ramp_runs_and_ends_on_its_line(postgres_url: str, tmp_path: Path) -> None:
    out = tmp_path / "capacity.json"
    done = subprocess.run(
        [sys.executable, "bench/capacity.py", "--quick", "--procs", "2", "--steps", "3", "--no-stop",
         "--output", str(out)],
        cwd=ROOT, env=bench_env(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert LAST_LINE.match(lines[-1]), lines[-1]
    result = json.loads(out.read_text())
    quiet, step = result["quiet"], result["steps"][0]
    assert (quiet["matches"], step["matches"]) == (2, 3)
    # Every match's two players and two watchers held their sockets through the window.
    assert quiet["sockets_client"] == 8 and step["sockets_client"] == 12
    assert step["sockets_server"] == 12
    assert quiet["actions"] > 0 and step["actions"] > 0 and step["p99_ms"] is not None
    assert step["commits_per_action"] > 0 and step["server_rss_mib"] > 0


def test_the_soak_of_people_checks_memory_and_leaks(postgres_url: str, tmp_path: Path) -> None:
    out = tmp_path / "soak.json"
    done = subprocess.run(
        [sys.executable, "bench/soak.py", "--people", "2", "--interval", "1", "--procs", "1", "--duration", "12",
         "--sample", "3", "--warmup", "0", "--output", str(out)],
        cwd=ROOT, env=bench_env(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary = json.loads(out.read_text())["summary"]
    assert summary["actions"] > 0
    leaks = summary["leaks"]
    assert leaks["sockets_pass"] and leaks["fds_pass"] and leaks["connections_pass"], leaks
    assert "after the load: open sockets 0" in done.stdout
