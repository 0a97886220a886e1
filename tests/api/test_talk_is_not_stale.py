"""A join or a draw offer changes neither the position nor the turn, so an
action made just before one still lands; a real move in between makes it stale,
and a resend of an action that landed is still recognised across such entries."""

from __future__ import annotations

from typing import Any

from tests.conftest import ROW, Api


async def _log(api: Api, game: Any) -> list[dict[str, Any]]:
    r = await api.client.get(f"{api.base}/{game.id}/actions")
    assert r.status_code == 200
    return r.json()


async def test_creator_moves_on_the_version_it_was_given_before_the_join(api: Api) -> None:
    game = await api.create()
    before_join = game.version
    await api.join(game)
    assert game.version == before_join + 1
    r = await api.post(game, "white", {"type": "setup", "backrow": ROW}, version=before_join)
    assert r.status_code == 200, r.text
    assert r.json()["match"]["version"] == before_join + 2


async def test_an_action_made_before_a_draw_offer_lands_once(api: Api) -> None:
    game = await api.start()
    await api.setups(game)
    seen = game.version
    offer = await api.client.post(f"{api.base}/{game.id}/draw", json={"offer": True}, headers=game.auth("black"))
    assert offer.status_code == 200 and offer.json()["match"]["version"] == seen + 1
    place = {"type": "place", "mage": "animist", "minion": "beast"}
    r = await api.post(game, "white", place, version=seen)
    assert r.status_code == 200, r.text
    landed = r.json()["match"]["version"]
    # Sent again on the same old version (a retry after a lost answer): same answer, nothing twice.
    again = await api.post(game, "white", place, version=seen)
    assert again.status_code == 200, again.text
    assert again.json()["match"]["version"] == landed
    places = [e for e in await _log(api, game) if e["action"]["type"] == "place"]
    assert len(places) == 1


async def test_a_real_move_in_between_still_makes_it_stale(api: Api) -> None:
    game = await api.start()
    await api.setups(game)
    seen = game.version
    await api.act(game, "white", {"type": "place", "mage": "animist", "minion": "beast"})
    r = await api.post(game, "black", {"type": "place", "mage": "animist", "minion": "beast"}, version=seen)
    assert r.status_code == 409
    assert r.json()["error"] == "stale_version" and r.json()["version"] == game.version

