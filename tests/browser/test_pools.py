"""Quick pairing in real Chromium (issue 20, "Checks"): two guests press the same
pool button (one by keyboard) and land on the same match; a third presses
another pool, is offered the computer after the wait (shortened here by
POOL_OFFER_SECONDS) and cancels, which leaves the pool. At a phone's width and a
desk's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from ..waiting import until_sync
from .conftest import Contexts, Server, assert_accessible, run_server


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Two places from one address are never paired, and every browser here comes from
    # 127.0.0.1: the server trusts it as a proxy, and each person's browser names
    # an address of its own in X-Forwarded-For (`_from`), as people behind Caddy do.
    with run_server(tmp_path_factory.mktemp("pools-server"), POOL_OFFER_SECONDS="1",
                    TRUSTED_PROXIES='["127.0.0.1"]') as running:
        yield running


@pytest.fixture
def quick(browser: Any, quick_server: Server) -> Iterator[Contexts]:
    made = Contexts(browser, quick_server)
    yield made
    made.close()
    assert not made.errors, made.errors


def _from(page: Any, n: int) -> Any:
    """`page`, its every request (fetches and sockets too) from an address of its own."""
    page.context.set_extra_http_headers({"X-Forwarded-For": f"198.51.100.{n}"})
    return page


def _waiting(server: Server, pool: str) -> int:
    return int(next(p["waiting"] for p in server.call("GET", "/pools")["pools"] if p["id"] == pool))


@pytest.mark.parametrize("width", [390, 1280])
def test_two_presses_of_one_pool_meet_and_a_lone_one_is_offered_the_computer(quick: Contexts, width: int,
                                                                             tmp_path: Path) -> None:
    ada, bo = (_from(quick.page(width=width, height=900), n) for n in (1, 2))
    cy = _from(quick.page(width=width, height=900, axe=True), 3)
    for page in (ada, bo, cy):
        page.goto("/")
    panel = ada.get_by_role("region", name="Quick pairing")
    expect(panel).to_be_visible()
    ada.get_by_role("button", name=re.compile(r"^10\+5")).focus()
    ada.keyboard.press("Enter")  # by keyboard
    expect(ada.get_by_role("button", name="Cancel")).to_be_visible()
    expect(ada.get_by_role("status").filter(has_text="Looking for an opponent")).to_contain_text("10+5")
    until_sync(lambda: _waiting(quick.server, "standard:10+5") == 1, "Ada waits in 10+5")
    bo.get_by_role("button", name=re.compile(r"^10\+5")).click()
    for page in (ada, bo):
        page.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+$"))
    assert ada.url == bo.url
    match_id = ada.url.rsplit("/", 1)[1]
    state = quick.server.match(match_id)
    assert state["status"] == "active"
    assert state["options"]["time_control"] == {"type": "realtime", "minutes": 10, "increment": 5}

    cy.get_by_role("button", name=re.compile(r"^5\+3")).click()
    offer = cy.get_by_role("button", name="Play the computer instead")
    expect(offer).to_be_visible()
    if width == 390:
        assert_accessible(cy)
        box = cy.get_by_role("region", name="Quick pairing").bounding_box()
        assert box is not None and box["width"] <= 390
    assert _waiting(quick.server, "standard:5+3") == 1
    cy.get_by_role("button", name="Cancel").click()
    expect(cy.get_by_role("button", name=re.compile(r"^5\+3"))).to_be_enabled()
    until_sync(lambda: _waiting(quick.server, "standard:5+3") == 0, "Cy has left 5+3")
