"""Real headless Chromium against a real server.

A uvicorn server runs for the session on a free 127.0.0.1 port with its own
SQLite file; one Chromium (Debian's, at /usr/bin/chromium: `playwright install`
cannot download here) serves every test, each in fresh browser contexts that
refuse every request not addressed to 127.0.0.1. Elements are found by role and
accessible name, as a screen reader finds them.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.serving import listening_socket
from tests.waiting import DEADLINE, STARTING, NeverHappened, until_sync

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
AXE = Path(__file__).parent / "vendor" / "axe.min.js"
ROW = ["construct", "fey", "elemental", "dragon", "undead", "beast", "spirit", "myrmidon"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests run after all others: Playwright's sync API keeps its own
    event loop running in this thread for as long as the session's browser lives,
    and pytest-asyncio cannot start a test's loop while it does."""
    here = Path(__file__).parent
    items.sort(key=lambda item: Path(str(item.path)).is_relative_to(here))


# Playwright's actions and its expect() (which keeps its own 5 s default) wait as
# long as tests/waiting.py: a deadline only a test that is stuck ever reaches.
TIMEOUT_MS = int(DEADLINE * 1000)


class Server:
    """The running server: its base URL, and the REST API for setting scenes up."""

    def __init__(self, base: str, database_url: str = "") -> None:
        self.base = base
        self.database_url = database_url  # for setting up what the API cannot (admin accounts)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + "/api/v1" + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=DEADLINE) as answer:
            return json.loads(answer.read())

    def match(self, match_id: str) -> dict[str, Any]:
        return dict(self.call("GET", f"/matches/{match_id}"))

    def legal(self, match_id: str, token: str) -> dict[str, Any]:
        return dict(self.call("GET", f"/matches/{match_id}/legal", token=token))

    def act(self, match_id: str, token: str, action: dict[str, Any]) -> dict[str, Any]:
        version = self.match(match_id)["version"]
        return dict(self.call("POST", f"/matches/{match_id}/actions", {"action": action, "version": version},
                              token=token)["match"])


def database_url(folder: Path) -> str:
    """The SQLite database a server run in `folder` uses."""
    return f"sqlite+aiosqlite:///{folder / 'magery.sqlite3'}"


@contextlib.contextmanager
def run_server(folder: Path, **env_extra: str) -> Iterator[Server]:
    """A uvicorn of the app on a free 127.0.0.1 port, with an SQLite file in `folder`
    (also used by scripts/screenshots.py and bench/web.py)."""
    url = database_url(folder)
    env = {**os.environ, "DATABASE_URL": url,
           "RATE_LIMIT_WRITES": "100000", "RATE_LIMIT_READS": "100000", "BOT_DELAY_SECONDS": "0.05", "SWEEP_SECONDS": "1",
           # Every browser signs up from 127.0.0.1: the per-address limit is route-tested (tests/web).
           "ACCOUNT_SIGNUPS_PER_ADDRESS": "100000",
           # ... and plays the computer from it, in matches a test may leave running: the
           # cap on running computer matches is route-tested (tests/bots, tests/api).
           "BOT_MATCHES_PER_ADDRESS": "0", "BOT_MATCHES_PER_ACCOUNT": "0", **env_extra}
    log = (folder / "server.log").open("w")
    with listening_socket() as listener:  # handed to uvicorn (--fd): see tests/serving.py
        port = int(listener.getsockname()[1])
        proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "app.main:create_app", "--fd", str(listener.fileno()),
             "--ws-per-message-deflate", "false"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, pass_fds=(listener.fileno(),))
    base = f"http://127.0.0.1:{port}"
    try:
        # Until the app has started, connections wait in the socket's backlog (or are
        # refused once the child has exited and closed it).
        def started() -> bool:
            if proc.poll() is not None:
                raise RuntimeError((folder / "server.log").read_text())
            try:
                urllib.request.urlopen(base + "/api/v1/matches", timeout=5).read()
            except OSError:
                return False
            return True

        try:
            until_sync(started, "the server to answer", seconds=STARTING, every=0.05)
        except NeverHappened as stuck:
            raise NeverHappened(f"{stuck}: {(folder / 'server.log').read_text()}") from None
        yield Server(base, url)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Analyses one action deep, and no puzzles mined from them (that held the one
    # analysis worker about 12 s after each): test_analysis.py needs an analysis
    # run to its end in seconds, and no other test here asks for one.
    with run_server(tmp_path_factory.mktemp("browser-server"), ANALYSIS_DEPTH="1", ANALYSIS_PUZZLES="false") as running:
        yield running


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        message = "Debian's chromium is not installed (scripts/test installs it)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


def _local_only(route: Any) -> None:
    host = urlsplit(route.request.url).hostname
    if host == "127.0.0.1":
        route.continue_()
    else:
        route.abort("blockedbyclient")


class Contexts:
    """New browser contexts for one test, each closed at its end."""

    def __init__(self, browser: Any, server: Server) -> None:
        self.browser = browser
        self.server = server
        self.made: list[Any] = []
        self.errors: list[str] = []

    def page(self, width: int = 1280, height: int = 900, axe: bool = False, **kw: Any) -> Any:
        context = self.browser.new_context(viewport={"width": width, "height": height}, base_url=self.server.base,
                                           **kw)
        context.route(re.compile(r"^(?!https?://127\.0\.0\.1[:/]).*"), _local_only)
        context.route_web_socket(re.compile(r"^wss?://(?!127\.0\.0\.1[:/])"), lambda ws: ws.close())
        if axe:
            context.add_init_script(path=str(AXE))  # by the debugger, so the page's CSP does not apply
        context.set_default_timeout(TIMEOUT_MS)  # on the context: pages a test opens from it get it too
        self.made.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))
        return page

    def close(self) -> None:
        for context in self.made:
            context.close()


# What each open page showed when a test failed, printed with the failure: a test
# that fails only on a loaded CI machine can then be read from CI's log alone.
_PAGE_STATE = """() => {
    const box = (q) => { const e = document.querySelector(q); if (!e) return null;
        const r = e.getBoundingClientRect();
        return {y: Math.round(r.y), h: Math.round(r.height), hidden: e.hidden, scrollTop: e.scrollTop};
    };
    return {url: location.href, viewport: [innerWidth, innerHeight], scrollY: Math.round(scrollY),
            banner: document.getElementById("banner")?.textContent || null,
            status: document.querySelector('[role="status"]')?.textContent || null,
            alert: document.querySelector('[role="alert"]')?.textContent || null,
            boxes: Object.fromEntries(["#turn", ".side", "#seat-panel", "#draw-note", "#accept-draw"]
                .map(q => [q, box(q)]).filter(([, b]) => b)),
            // The person channel (person.js): how often it opened, what it last heard of challenges.
            person: (() => { const p = window.magery?.person; if (!p) return null;
                const c = p.last?.challenges;
                return {opened: p.opened, messages: p.messages,
                        out: c ? c.out.map(x => [x.id, x.status, x.match_id || null]) : null,
                        in: c ? c.in.map(x => [x.id, x.status]) : null}; })()};
}"""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    made = getattr(item, "funcargs", {}).get("contexts")
    if report.when != "call" or not report.failed or not isinstance(made, Contexts):
        return
    lines = []
    for context in made.made:
        for page in context.pages:
            try:
                lines.append(json.dumps(page.evaluate(_PAGE_STATE)))
            except Exception as error:  # a closed or stuck page says so, and the rest are still told
                lines.append(f"{page.url}: {error!r}")
    report.sections.append(("pages when the test failed", "\n".join(lines)))
    # And what the server said meanwhile: a slow answer, a refusal or a stack is
    # only there (its log sits beside its SQLite file).
    server = getattr(item, "funcargs", {}).get("server")
    if isinstance(server, Server) and ":///" in server.database_url:
        log = Path(server.database_url.split(":///", 1)[1]).parent / "server.log"
        if log.exists():
            report.sections.append(("the server's log, its end", "\n".join(log.read_text().splitlines()[-40:])))


@pytest.fixture
def contexts(browser: Any, server: Server) -> Iterator[Contexts]:
    made = Contexts(browser, server)
    yield made
    made.close()
    assert not made.errors, made.errors


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """WCAG 2.0/2.1 A and AA violations axe-core finds on the page as it is now, once
    every stylesheet has arrived (a heading can be visible before the last one has,
    and axe would judge colours the page never shows)."""
    page.wait_for_load_state("load")
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                       nodes: v.nodes.slice(0, 5).map(n => n.target.join(' '))}));
    }""")
    return list(found)


def page_width(page: Any) -> int:
    """The page's scroll width once its stylesheets have arrived. After a click
    that loads a new page, its text can be shown before its stylesheet is; a
    width measured then is the unstyled page's (an account page measured 468 px
    at 360 with its stylesheet held back, and 474 px once on a busy CI)."""
    page.wait_for_load_state("load")
    return int(page.evaluate("() => document.documentElement.scrollWidth"))


def assert_accessible(page: Any) -> None:
    found = axe_violations(page)
    assert not found, json.dumps(found, indent=1)


def open_more_options(page: Any) -> None:
    """Unfolds the home form's "More options" (colour, variant, no-progress rule)."""
    from playwright.sync_api import expect

    page.locator("details.more-options > summary").click()
    expect(page.get_by_label("Colour")).to_be_visible()


def create_on_page(page: Any, name: str = "Ada", colour: str = "white", opponent: str = "human",
                   extra_options: dict[str, Any] | None = None, **fields: str) -> str:
    """Fills the home page's form and creates the match; returns its id. `extra_options`
    are added to the request the page sends (options the form does not offer, such as
    a chosen chaos deal)."""
    page.goto("/")
    if extra_options:
        def add_options(route: Any) -> None:
            body = json.loads(route.request.post_data)
            body["options"].update(extra_options)
            route.continue_(post_data=json.dumps(body))

        page.route("**/api/v1/matches", add_options)
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Opponent").select_option(opponent)
    open_more_options(page)
    page.get_by_label("Colour").select_option(colour)
    for label, value in fields.items():
        field = page.get_by_label(label.replace("_", " "), exact=False)
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+$"))
    if extra_options:
        page.unroute("**/api/v1/matches")
    wait_ready(page)
    return str(page.url.rsplit("/", 1)[1])


def seat_token(page: Any, match_id: str) -> dict[str, str]:
    """The seat the page keeps for `match_id` (localStorage)."""
    return dict(json.loads(page.evaluate(f"localStorage.getItem('magery.seat.{match_id}')")))


def log_count(page: Any) -> int:
    return int(page.locator("#log li[data-version]").count())


def move_versions(server: Server, match_id: str) -> list[int]:
    """The versions of the match's moves (its game actions; the other entries are
    events), as the move list numbers them: move n is the nth of these."""
    entries = server.call("GET", f"/matches/{match_id}/actions")
    return [e["version"] for e in entries if e["action"]["type"] in ("setup", "place", "pass", "remove")]


# The match page marks what it holds on <html> (static/js/match.js, markState):
# data-version, data-seat, data-legal-version and data-sending. Predicates are
# functions: a string expression would need eval, which the pages' CSP forbids.

def wait_version(page: Any, version: int) -> None:
    page.wait_for_function("v => Number(document.documentElement.dataset.version) >= v", arg=version)


def until_on(page: Any, predicate: Callable[[], Any], what: str) -> Any:
    """tests/waiting.py's until_sync for what Playwright's handlers do (a route, a
    socket relay): its events are dispatched between two asks."""
    return until_sync(predicate, what, pause=lambda seconds: page.wait_for_timeout(seconds * 1000))


def wait_ready(page: Any) -> None:
    page.wait_for_function("() => document.documentElement.dataset.ready === '1'")


Checker = Callable[[Any], None]


def my_turn(page: Any, version: int) -> None:
    """Waits until the page holds `version` and offers its seat's legal actions for it."""
    page.wait_for_function(
        """v => { const m = document.documentElement.dataset;
                  return m.version === String(v) && m.legalVersion === String(v) && !("sending" in m); }""",
        arg=version)


def sent_or_still_choosing(page: Any, version: int) -> None:
    """After a press: the page sends no action, or the one it sent has moved the match past `version`."""
    page.wait_for_function(
        "v => { const m = document.documentElement.dataset; return !('sending' in m) || Number(m.version) > v; }",
        arg=version)
