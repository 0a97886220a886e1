"""The match page keeps its state from compact updates (static/js/compact.js):
its socket asks for `?updates=compact`, applies each `delta` to what it holds
and draws the same board as a page that just loaded; a delta that does not apply
makes it open again for full updates, and it still shows every move."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from .conftest import Contexts, until_on, wait_ready, wait_version
from .test_live import started


def board_of(page: Any) -> str:
    return page.locator("#board").inner_html()


def test_the_page_applies_deltas_and_draws_what_a_fresh_page_draws(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = started(server)
    urls: list[str] = []
    kinds: list[str] = []

    def relay(ws: Any) -> None:
        urls.append(ws.url)
        upstream = ws.connect_to_server()

        def down(message: str) -> None:
            kinds.append(json.loads(message).get("type"))
            ws.send(message)

        upstream.on_message(down)
        ws.on_message(upstream.send)

    watcher = contexts.page()
    watcher.route_web_socket(re.compile(r"/ws"), relay)
    watcher.goto(f"/matches/{match_id}")
    wait_ready(watcher)
    # The socket's snapshot first: the page is ready from its first read, and a socket
    # opened after the moves below would be sent them in its snapshot, not as deltas.
    until_on(watcher, lambda: "snapshot" in kinds, "the socket's snapshot")
    server.act(match_id, tokens["white"], {"type": "place", "mage": "druid", "minion": "fey"})
    server.act(match_id, tokens["black"], {"type": "place", "mage": "sorcerer", "minion": "beast"})
    server.act(match_id, tokens["white"], {"type": "pass"})
    wait_version(watcher, 6)
    assert "updates=compact" in urls[0], urls
    until_on(watcher, lambda: kinds.count("delta") >= 3, "three deltas")
    expect(watcher.locator("#log li[data-version]")).to_have_count(6)
    assert "Black places a beast on the Sorcerer." in watcher.locator("#log").inner_text()
    fresh = contexts.page()
    fresh.goto(f"/matches/{match_id}")
    wait_ready(fresh)
    wait_version(fresh, 6)
    assert board_of(watcher) == board_of(fresh)
    expect(watcher.get_by_role("status")).to_have_text(fresh.get_by_role("status").inner_text())


def test_a_delta_that_does_not_apply_reopens_the_socket_for_full_updates(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = started(server)
    urls: list[str] = []
    kinds: list[str] = []
    spoilt = {"done": False}

    def relay(ws: Any) -> None:
        urls.append(ws.url)
        upstream = ws.connect_to_server()

        def down(message: str) -> None:
            m = json.loads(message)
            kinds.append(m.get("type"))
            if m.get("type") == "delta" and not spoilt["done"]:  # as if the page held another version
                spoilt["done"] = True
                message = json.dumps({**m, "base": m["base"] - 1})
            ws.send(message)

        upstream.on_message(down)
        ws.on_message(upstream.send)

    watcher = contexts.page()
    watcher.route_web_socket(re.compile(r"/ws"), relay)
    watcher.goto(f"/matches/{match_id}")
    wait_ready(watcher)
    until_on(watcher, lambda: "snapshot" in kinds, "the socket's snapshot")  # as above
    server.act(match_id, tokens["white"], {"type": "place", "mage": "druid", "minion": "fey"})
    wait_version(watcher, 4)
    server.act(match_id, tokens["black"], {"type": "place", "mage": "sorcerer", "minion": "beast"})
    wait_version(watcher, 5)
    assert spoilt["done"] and len(urls) == 2, urls
    assert "updates=compact" not in urls[1] and "since=3" in urls[1], urls
    expect(watcher.locator("#log li[data-version]")).to_have_count(5)
    assert "Black places a beast on the Sorcerer." in watcher.locator("#log").inner_text()
