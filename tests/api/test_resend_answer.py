"""A resend of an action that landed answers as the first did (contract, REST):
the same match state, even after the match has moved on."""

from __future__ import annotations

from app.matches import MatchService
from tests.conftest import ROW, Api, FakeTime


def _without_live(match: dict) -> dict:
    return {k: v for k, v in match.items() if k not in ("players", "clock")}


async def test_a_resend_by_id_gets_the_first_answer_after_the_match_moved_on(api: Api) -> None:
    game = await api.start()
    first = await api.post(game, "white", {"type": "setup", "backrow": ROW}, id="w-setup")
    assert first.status_code == 200
    game.match = first.json()["match"]
    await api.act(game, "black", {"type": "setup", "backrow": ROW})
    again = await api.post(game, "white", {"type": "setup", "backrow": ROW},
                           version=first.json()["match"]["version"] - 1, id="w-setup")
    assert again.status_code == 200, again.text
    assert _without_live(again.json()["match"]) == _without_live(first.json()["match"])
    assert again.json()["match"]["phase"] == "setup"


async def test_a_resend_without_id_answers_with_the_state_after_its_automatic_passes(api: Api) -> None:
    game = await api.start()
    await api.setups(game)
    seen = game.version
    first = await api.post(game, "white", {"type": "pass"})
    assert first.status_code == 200
    game.match = first.json()["match"]
    await api.act(game, "black", {"type": "place", "mage": "oracle", "minion": "beast"})
    again = await api.post(game, "white", {"type": "pass"}, version=seen)
    assert again.status_code == 200, again.text
    assert again.json()["match"]["version"] == first.json()["match"]["version"]
    assert _without_live(again.json()["match"]) == _without_live(first.json()["match"])


async def test_an_empty_seat_keeps_the_contracts_shape(api: Api) -> None:
    game = await api.create()
    black = game.match["players"]["black"]
    assert black == {"name": None, "connected": False, "bot": None, "account": None, "computer": False, "title": None,
                     "rating": None, "rating_change": None}
    await api.join(game)
    assert game.match["players"]["black"]["name"] == "Bo"


async def test_abandonment_defaults_by_time_control(api: Api) -> None:
    untimed = await api.create()
    realtime = await api.create(time_control={"type": "realtime", "minutes": 5, "increment": 0})
    correspondence = await api.create(time_control={"type": "correspondence", "days": 2})
    assert untimed.match["options"]["abandon_seconds"] == 600
    assert realtime.match["options"]["abandon_seconds"] == 60
    assert correspondence.match["options"]["abandon_seconds"] is None


async def test_a_resend_after_the_opponents_flag_fell_still_answers_as_the_first(
        api: Api, service: MatchService) -> None:
    time = FakeTime(service)
    game = await api.start(time_control={"type": "realtime", "minutes": 1, "increment": 0})
    await api.setups(game)
    seen = game.version
    first = await api.post(game, "white", {"type": "pass"}, id="w-pass")
    assert first.status_code == 200, first.text
    assert first.json()["match"]["to_move"] == "black"
    time.advance(61)  # Black's flag falls while White's answer is lost on the way
    again = await api.post(game, "white", {"type": "pass"}, version=seen, id="w-pass")
    assert again.status_code == 200, again.text  # it landed: not "time ran out before it"
    assert again.json()["match"]["version"] == first.json()["match"]["version"]
    assert (await api.state(game))["result"] == {"winner": "white", "reason": "timeout"}
    # An action that never landed is still too late.
    late = await api.post(game, "black", {"type": "pass"}, version=seen + 1, id="b-late")
    assert late.status_code == 409 and late.json()["error"] == "match_over"
