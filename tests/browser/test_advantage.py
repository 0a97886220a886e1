"""The advantage graph under the replay: drawn for a finished match from GET
/advantage, marking the version on the board, a click showing that version;
never asked for while the match runs."""

from __future__ import annotations

import random
import re
from typing import Any

from playwright.sync_api import expect

from .conftest import Contexts, Server, assert_accessible, move_versions, wait_ready


def played(server: Server, actions: int, seed: int) -> tuple[str, dict[str, str]]:
    """A human-v-human match with `actions` random legal actions played over REST."""
    made = server.call("POST", "/matches", {"name": "Ada"})
    match_id = made["match"]["id"]
    joined = server.call("POST", f"/matches/{match_id}/join", {"name": "Bo"})
    tokens = {made["seat"]: made["token"], joined["seat"]: joined["token"]}
    rng = random.Random(seed)
    state = server.match(match_id)
    for _ in range(actions):
        if state["status"] != "active":
            break
        token = tokens[state["to_move"]]
        legal = server.legal(match_id, token)
        if legal["setup"]:
            row = list(legal["setup"])
            rng.shuffle(row)
            action: dict[str, Any] = {"type": "setup", "backrow": row}
        else:
            action = rng.choice(legal["actions"])
        # Sent at the version the legal actions were read at, and the match as the
        # answer holds it read next: two requests an action, not four.
        state = server.call("POST", f"/matches/{match_id}/actions", {"action": action, "version": legal["version"]},
                            token=token)["match"]
    return match_id, tokens


def test_a_finished_match_shows_its_graph_and_a_running_one_does_not(contexts: Contexts) -> None:
    server = contexts.server
    running, _ = played(server, 30, seed=5)
    page = contexts.page(axe=True)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/v1/" in r.url and r.url.endswith("/advantage") else None)
    page.goto(f"/matches/{running}")
    wait_ready(page)
    expect(page.locator("#position")).to_contain_text("Move")
    expect(page.locator("#advantage")).to_be_hidden()
    assert asked == []  # the page never asks of a running match

    finished, tokens = played(server, 90, seed=7)
    server.call("POST", f"/matches/{finished}/resign", token=tokens["black"])
    last = server.match(finished)["version"]
    page.goto(f"/matches/{finished}")
    wait_ready(page)
    graph = page.locator("#advantage")
    expect(graph).to_be_visible()
    expect(graph.locator("svg path.adv-line")).to_have_count(1)
    moves = move_versions(server, finished)
    total = len(moves)
    # Read in moves, as the move list counts them (the join and the resignation are no moves).
    expect(graph.locator(".adv-readout")).to_have_text(f"Move {total}: White has won")
    expect(graph.get_by_role("img")).to_have_accessible_name(re.compile(rf"^Advantage over {total} moves"))
    assert_accessible(page)

    box = graph.locator("svg").bounding_box()
    assert box is not None
    graph.locator("svg").click(position={"x": box["width"] * 0.5, "y": box["height"] / 2})
    half = round(last * 0.5)
    near = "|".join(str(sum(1 for m in moves if m <= v)) for v in (half - 1, half, half + 1))
    expect(page.locator("#position")).to_have_text(re.compile(rf"^Move ({near}) of {total} \(replay\)$"))
    expect(graph.locator(".adv-readout")).to_have_text(re.compile(rf"^Move ({near}): "))
    x = float(graph.locator("line.adv-marker").get_attribute("x1") or "nan")
    assert 140 <= x <= 160  # the marker moved to the middle of the 300-wide plot
    page.screenshot(path="/tmp/advantage.png", full_page=True)
