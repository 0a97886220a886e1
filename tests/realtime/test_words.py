"""Issue 16, defect 11: every update carries its entry in the engine's words
(`words`), live and when a reconnecting socket is caught up; the replay's
states say the same; the vocabulary route is the engine's document."""

from __future__ import annotations

from typing import Any

from app.rules import apply, describe, new_match
from app.rules.vocabulary import vocabulary

from ..conftest import ROW, Api


async def test_updates_and_states_carry_the_engines_words(api: Api, sockets: Any) -> None:
    game = await api.start()
    watcher = await sockets(game.id)
    assert (await watcher.receive())["type"] == "snapshot"
    await api.setups(game)
    await api.act(game, "white", {"type": "place", "mage": "druid", "minion": "fey"})
    live = [(await watcher.receive_until(lambda m: m["type"] == "update"))[0] for _ in range(3)]
    # The engine, on its own state, says the same words.
    s = new_match("words")
    expected = []
    for colour_action in ({"type": "setup", "backrow": ROW}, {"type": "setup", "backrow": ROW},
                          {"type": "place", "mage": "druid", "minion": "fey"}):
        expected.append(describe(s, colour_action))
        s, _ = apply(s, colour_action)
    assert [u["words"] for u in live] == expected
    assert expected[-1] == "White places a fey on the Druid."

    # A socket that reconnects from version 2 is caught up with the same words.
    late = await sockets(game.id, since=2)
    caught = [(await late.receive_until(lambda m: m["type"] == "update"))[0] for _ in range(2)]
    assert [u["words"] for u in caught] == expected[1:]

    # The replay's states tell each entry alike, from any first version.
    for first in (1, 3, 4):
        states = (await api.client.get(f"{api.base}/{game.id}/states", params={"from": first})).json()["states"]
        words = ["Black joins the match.", *expected]
        assert [e["words"] for e in states] == words[first - 1:]


async def test_the_vocabulary_route_is_the_engines_document(api: Api) -> None:
    r = await api.client.get("/api/v1/vocabulary")
    assert r.status_code == 200
    assert r.json() == vocabulary()
