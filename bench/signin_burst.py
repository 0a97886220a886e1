"""The sign-in burst of docs/reliability.md ("What one client can take"), run by
bench/proofs.py as its `signin` scenario (issue 17, item 3) against the admins'
form, and as `signin-players` against the players' (`POST /login`, an account
signed up through `/signup` first; its later bursts for names nobody has).

Quiet and burst windows in turns, while another match is played from its own
address (bench/proofs.py's probe). In a burst window, every second (at most;
`--burst-every` sets another pace: a faster server meets more bursts at the
default pace, and so more password checks a second), one new
address sends 30 sign-ins at once to the admin form, half to each process,
from a process of its own at the attackers' niceness (`--flood-nice`, as
flood's attackers):
the first burst for the real admin, the right password 15th; the later ones
for names that do not exist (their checks cost the same argon2 time). Each
burst's passwords checked are its 401 and 303 answers (429: refused by a
lock, 503: refused by a full pool, neither checked).

PASS: at most ACCOUNT_LOCK_AFTER passwords checked per burst (one lock-out for every form); the right
password, sent in a burst after the lock, refused; no answer but 303, 401,
429 and 503, nothing logged at ERROR; the other match's p99 in a burst window
at most 2x the quiet window's before it (the median over the pairs).

Beside the verdicts, each window gives what judges them: how far its p99
could have landed (the 5th-95th percentiles of the p99 of bootstrap
resamples of its own samples: a --quick window's p99 is its third-worst of
~290 requests), the CPU per second of each server's event loop (its main
thread: what every other request of that process waits behind) and of the
whole process, and the sender's own CPU (it shares this machine's cores). The
servers' event-loop CPU per burst, beyond what the probe's requests cost at
the quiet window's rate, leaves the probe's timing out (though at loads of
13-31 it was as noisy as the ratio). The probe's samples are kept in the JSON.
"""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import random
import re
import statistics
import subprocess
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import httpx

from bench.api import cpu_seconds
from bench.proofs import FLOOD_GOAL, ROOT, Pair, _ready, load, ms, now, p99, probe

PASSWORD = "a long enough password for the bench"
BURST = 30
RIGHT_AT = 14  # the 15th of the first burst
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
EXPECTED = {303, 401, 429, 503}
LOCK_AFTER = 5  # the server's default ACCOUNT_LOCK_AFTER, every form's


@dataclass(frozen=True, slots=True)
class Form:
    """A sign-in form under attack: where it is, its right answer's status, whose it is."""

    path: str  # the form's page and where it posts
    signed_in: int  # the status of the right password (a redirect)
    name: str  # the account the first burst tries


ADMINS = Form("/admin/login", 303, "root")
PLAYERS = Form("/login", 303, "benchplayer")


def add_admin(pair: Pair) -> None:
    env = {**os.environ, **pair.env, "MAGERY_ADMIN_PASSWORD": PASSWORD}
    subprocess.run([sys.executable, "-m", "app.accounts", "add-admin", "root"], cwd=ROOT, env=env, check=True,
                   capture_output=True, timeout=60)


async def add_player(pair: Pair) -> None:
    """The player, signed up through the form as a browser would."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{pair.ports[0]}", timeout=60) as c:
        found = CSRF.search((await c.get("/signup")).text)
        assert found, "no form token on /signup"
        r = await c.post("/signup", data={"username": PLAYERS.name, "password": PASSWORD,
                                          "csrf_token": found.group(1), "next": "/"})
        assert r.status_code == 303, (r.status_code, r.text[:300])


async def burst(ports: list[int], address: str, name: str, right_at: int | None,
                form: Form = ADMINS) -> Counter[int]:
    """30 sign-ins at once from `address`, alternating between the processes."""
    clients = [httpx.AsyncClient(base_url=f"http://127.0.0.1:{p}", timeout=60,
                                 transport=httpx.AsyncHTTPTransport(local_address=address)) for p in ports]
    try:
        forms = []
        for c in clients:
            page = await c.get(form.path)
            found = CSRF.search(page.text)
            assert found, page.text[:200]
            forms.append(found.group(1))

        async def one(i: int) -> int:
            c, token = clients[i % 2], forms[i % 2]
            password = PASSWORD if i == right_at else f"wrong guess {i}"
            r = await c.post(form.path, data={"username": name, "password": password, "csrf_token": token,
                                              "next": "/admin" if form is ADMINS else "/"})
            return r.status_code

        codes = await asyncio.gather(*(one(i) for i in range(BURST)))
    finally:
        for c in clients:
            await c.aclose()
    counted: Counter[int] = Counter(codes)
    if right_at is not None:
        counted[-codes[right_at]] += 1  # the right password's own answer, kept apart (negative key)
    return counted


def burst_window(ports: list[int], first: int, seconds: float, form: Form = ADMINS,
                 every: float = 1.0) -> list[dict[str, Any]]:
    """One burst window, in a process of its own (as flood's attackers): a burst
    a second, each from a new address, numbered on from `first`. Its event loop
    stays out of the probe's timings (a new client's TLS context alone took
    tens of milliseconds of the probe's loop) and its CPU, niced, yields to
    the servers', as an attacker's own machine would."""

    async def window() -> list[dict[str, Any]]:
        bursts: list[dict[str, Any]] = []
        end = now() + seconds
        while now() < end:
            started = now()
            n = first + len(bursts)
            got = await burst(ports, f"127.0.1.{10 + n % 240}", form.name if n == 0 else f"guess{n}",
                              RIGHT_AT if n == 0 else None, form)
            bursts.append({"checked": got[401] + got[form.signed_in], "answers": {str(k): v for k, v in got.items() if k > 0},
                           "right_password": next((-k for k in got if k < 0), None),
                           "seconds": round(now() - started, 2)})
            await asyncio.sleep(max(0.0, every - (now() - started)))
        return bursts

    cpu0 = sum(os.times()[:2])
    bursts = asyncio.run(window())
    if bursts:  # the sender's own CPU, niced: it shares this machine's cores with the servers
        bursts[-1]["sender_cpu_s_in_window"] = round(sum(os.times()[:2]) - cpu0, 3)
    return bursts


def main_thread_cpu(pid: int, field: int = 0) -> float:
    """CPU seconds the process's main thread (its event loop) has run, from
    /proc/<pid>/task/<pid>/schedstat: what a burst takes from every other
    request of that process, argon2's threads left out. `field` 1: the seconds
    it was ready to run but waited for a CPU instead (the scheduler's delay,
    which every request of that process waits through)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/schedstat") as f:
            return int(f.read().split()[field]) / 1e9
    except OSError:
        return float("nan")


def p99_spread(values: list[float], rounds: int = 400) -> tuple[float | None, float | None]:
    """The 5th and 95th percentiles of the p99 over bootstrap resamples of one
    window's samples: how far that window's p99 alone could have landed."""
    if len(values) < 20:
        return None, None
    rng = random.Random(1)
    got = sorted(p99(rng.choices(values, k=len(values))) or 0.0 for _ in range(rounds))
    return ms(got[int(0.05 * rounds)]), ms(got[int(0.95 * rounds)])


async def run_signin(pair: Pair, args: Any, form: Form = ADMINS) -> dict[str, Any]:
    if form is ADMINS:
        add_admin(pair)
    else:
        await add_player(pair)
    phase = ["warmup"]
    samples: dict[str, list[float]] = {}
    stop = asyncio.Event()
    windows: list[dict[str, Any]] = []
    bursts: list[dict[str, Any]] = []
    plan = ["quiet"] + ["burst", "quiet"] * args.flood_rounds
    loop = asyncio.get_running_loop()
    with ProcessPoolExecutor(1, mp_context=mp.get_context("spawn")) as pool:
        await loop.run_in_executor(pool, _ready, args.flood_nice)  # started and imported before any window
        prober = asyncio.create_task(probe(pair.ports, phase, samples, stop, args.probe_rate))
        await asyncio.sleep(8.0)  # the probe's first seconds (caches filling) are left out
        pids = [proc.pid for proc in pair.procs if proc is not None]
        for n, kind in enumerate(plan):
            phase[0] = f"{kind}{n // 2}"
            main0, cpu0, started = [main_thread_cpu(p) for p in pids], [cpu_seconds(p) for p in pids], now()
            waited0 = [main_thread_cpu(p, 1) for p in pids]
            got: list[dict[str, Any]] = []
            if kind == "burst":
                got = await loop.run_in_executor(pool, burst_window, pair.ports, len(bursts), args.flood_window,
                                                 form, getattr(args, "burst_every", 1.0))
                bursts += got
            else:
                await asyncio.sleep(args.flood_window)
            took = now() - started
            taken = samples.get(phase[0], [])
            spread = p99_spread(taken)
            windows.append({
                "phase": phase[0], "requests": len(taken), "p50_ms": ms(statistics.median(taken)) if taken else None,
                "p99_ms": ms(p99(taken)), "p99_bootstrap_5_95_ms": spread, "load": load(), "bursts": len(got),
                "seconds": round(took, 2),  # a burst window ends when its last burst is answered
                # per second of the window, each server: its event loop's CPU, and the whole process's
                "server_main_thread_ms_per_s": [round(1000 * (main_thread_cpu(p) - c) / took, 1)
                                                for p, c in zip(pids, main0, strict=True)],
                "server_cpu_ms_per_s": [round(1000 * (cpu_seconds(p) - c) / took, 1)
                                        for p, c in zip(pids, cpu0, strict=True)],
                # per second of the window, each server's event loop: time ready to run but kept waiting for a CPU
                "server_main_thread_waited_ms_per_s": [round(1000 * (main_thread_cpu(p, 1) - c) / took, 1)
                                                       for p, c in zip(pids, waited0, strict=True)],
                "sender_cpu_ms_per_s": round(1000 * got[-1].get("sender_cpu_s_in_window", 0) / took, 1) if got
                else None,
                "samples_ms": [ms(x) for x in taken]})
            w = windows[-1]
            print(f"  {phase[0]:7}: {len(taken)} requests of the other match, p50 {w['p50_ms']} ms, "
                  f"p99 {w['p99_ms']} ms (a resample's p99: {spread[0]}-{spread[1]} ms; load {load()[0]}); "
                  f"CPU ms/s: event loops {w['server_main_thread_ms_per_s']} (kept waiting for a CPU "
                  f"{w['server_main_thread_waited_ms_per_s']}), servers {w['server_cpu_ms_per_s']}, "
                  f"sender {w['sender_cpu_ms_per_s']}", flush=True)
        stop.set()
        await asyncio.gather(prober, return_exceptions=True)
    per_window = {k: [w["p99_ms"] for w in windows if w["phase"].startswith(k)] for k in ("quiet", "burst")}
    pairs = [b / q for q, b in zip(per_window["quiet"], per_window["burst"], strict=False) if q and b]
    paired = statistics.median(pairs) if pairs else None
    # Each burst window's event-loop CPU beyond what its probe requests cost at the
    # quiet window's rate (the probe makes more of them in a longer window), per burst.
    loop_ms_per_burst = []
    for q, b in zip(windows[0::2], windows[1::2], strict=False):
        if b["bursts"] and q["requests"]:
            per_request = sum(q["server_main_thread_ms_per_s"]) * q["seconds"] / q["requests"]
            extra = sum(b["server_main_thread_ms_per_s"]) * b["seconds"] - per_request * b["requests"]
            loop_ms_per_burst.append(round(extra / b["bursts"], 1))
    answers: Counter[str] = Counter()
    for b in bursts:
        answers.update(b["answers"])
    most_checked = max((b["checked"] for b in bursts), default=None)
    right = bursts[0]["right_password"] if bursts else None
    trouble = pair.log_trouble()
    print(f"  {len(bursts)} bursts of {BURST}; passwords checked per burst {[b['checked'] for b in bursts]}; "
          f"answers {dict(answers)}; the right password (15th of the first burst) answered {right}; "
          f"seconds per burst {[b['seconds'] for b in bursts]}", flush=True)
    print(f"  the other match's p99 per window: quiet {per_window['quiet']}, burst {per_window['burst']} ms; each "
          f"burst window over the quiet one before it {[round(x, 2) for x in pairs]}, median "
          f"{f'{paired:.2f}x' if paired else '?'} (goal <= {FLOOD_GOAL:g}x); probe errors "
          f"{len(samples.get('probe_errors', []))}", flush=True)
    print(f"  the servers' event loops' CPU per burst, beyond the probe's at the quiet rate: {loop_ms_per_burst} "
          "ms (both processes together)", flush=True)
    return {
        "windows": windows, "bursts": bursts, "answers": dict(answers), "p99_per_window_ms": per_window,
        "ratios_to_the_quiet_window_before": [round(x, 2) for x in pairs],
        "ratio": round(paired, 2) if paired else None, "server_log": trouble,
        "event_loop_ms_per_burst": loop_ms_per_burst,
        "probe_errors": len(samples.get("probe_errors", [])),
        "verdicts": {
            f"a burst of {BURST} sign-ins from one address checks at most {LOCK_AFTER} passwords": bool(
                most_checked is not None and most_checked <= LOCK_AFTER),
            "the right password, sent once the address is locked, is refused": right in (429, 503),
            "sign-in bursts answered 303/401/429/503 only, nothing logged at ERROR": bool(
                bursts and all(int(k) in EXPECTED for k in answers) and not trouble.get("error_lines")),
            f"the other match's p99 in sign-in bursts <= {FLOOD_GOAL:g}x quiet": bool(
                paired is not None and paired <= FLOOD_GOAL and not samples.get("probe_errors")),
        },
    }
