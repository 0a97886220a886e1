"""A seat plays on the legal actions its socket carries (`?legal=true`): the
state that makes it the seat's turn brings them, and the page asks `GET /legal`
only when that state came without them."""

from __future__ import annotations

import json
import os
import re
from typing import Any

from .conftest import Contexts, my_turn, wait_version
from .test_live import button, started


def legal_asked(page: Any) -> list[str]:
    """The page's GET /legal requests, as they go."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if re.search(r"/legal(\?|$)", r.url) else None)
    return asked


def test_a_seat_plays_its_turns_on_what_its_socket_carries(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = started(server)
    urls: list[str] = []
    page = contexts.page()
    page.on("websocket", lambda ws: urls.append(ws.url))
    asked = legal_asked(page)
    page.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
    my_turn(page, 3)  # from the socket's snapshot
    button(page, "Fey:").click()
    button(page, "Druid,").click()
    wait_version(page, 4)
    server.act(match_id, tokens["black"], {"type": "place", "mage": "sorcerer", "minion": "beast"})
    my_turn(page, 5)  # from the update of Black's place
    assert any("legal=true" in url for url in urls), urls
    assert asked == [], asked
    if os.environ.get("SHOTS"):
        page.screenshot(path=os.path.join(os.environ["SHOTS"], "legal-from-socket.png"))


def test_a_state_of_the_seats_turn_without_its_legal_actions_makes_the_page_ask(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = started(server)
    page = contexts.page()

    def strip(ws: Any) -> None:  # as if the server could not add them (a failed read)
        upstream = ws.connect_to_server()

        def down(message: str) -> None:
            m = json.loads(message)
            ws.send(json.dumps({k: v for k, v in m.items() if k != "legal"}) if "legal" in m else message)

        upstream.on_message(down)
        ws.on_message(upstream.send)

    page.route_web_socket(re.compile(r"/ws"), strip)
    asked = legal_asked(page)
    page.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
    my_turn(page, 3)
    button(page, "Fey:").click()
    button(page, "Druid,").click()
    wait_version(page, 4)
    server.act(match_id, tokens["black"], {"type": "place", "mage": "sorcerer", "minion": "beast"})
    my_turn(page, 5)
    assert len(asked) >= 2, asked  # the snapshot's turn and the update's, each asked
