"""Issue 17, item 12: a server process SIGKILLed takes its bot processes with it.

The runner's searches run in a process pool started through multiprocessing's
forkserver; with the pool come the forkserver, its workers and a resource
tracker. Killed without a goodbye, the server could leave all three behind
(~48 MiB each, still there half an hour later). A real server process here:
its children are found through /proc once a bot has played (the pool is
running), the server is SIGKILLed, and every one of them must be gone soon
after (by tests/waiting.py's deadline: a leak is forever)."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

import httpx

from ..realtime.test_processes import Server
from ..waiting import NeverHappened, until_sync


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(ppid, []).append(int(entry))
    return tree


def _descendants(pid: int) -> set[int]:
    tree, found, todo = _children(), set(), [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie has ended; only its parent has not read its status yet


def test_the_bot_processes_die_with_a_sigkilled_server(tmp_path: Path) -> None:
    server = Server(f"sqlite+aiosqlite:///{tmp_path / 'magery.sqlite3'}")
    try:
        server.wait_ready()
        base = f"{server.base}/api/v1/matches"
        made = httpx.post(base, json={"seat": "black", "opponent": "bot:greedy"}, timeout=30).json()
        match_id = made["match"]["id"]
        until_sync(lambda: httpx.get(f"{base}/{match_id}", timeout=30).json()["version"] > 0,
                   "the bot sets up", every=0.1)
        children = _descendants(server.proc.pid)
        assert len(children) >= 2, children  # at least the forkserver and a worker
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait(10)
        with contextlib.suppress(NeverHappened):  # those still there are named below
            until_sync(lambda: not any(_alive(pid) for pid in children), "the bot processes end", every=0.1)
        left = {pid: Path(f"/proc/{pid}/cmdline").read_bytes()[:120] for pid in children if _alive(pid)}
        assert left == {}, left
    finally:
        server.stop()
        for pid in _descendants(server.proc.pid):
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
