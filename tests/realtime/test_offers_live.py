"""Issue 29: a takeback's ask and acceptance, and time given, reach the opponent's
socket and a match stream at once, each as an update holding the match as it
now stands (the position gone back, the clock with the time given)."""

from __future__ import annotations

from typing import Any

from tests.api.streams import Stream
from tests.api.test_takeback import play_first, position, take
from tests.conftest import Api

REALTIME = {"type": "realtime", "minutes": 5, "increment": 0}
LIVE = ("players", "spectators")  # what the socket patches as people come and go


def is_update(m: dict[str, Any]) -> bool:
    return bool(m["type"] == "update")


async def test_a_takeback_and_time_given_reach_the_socket_and_the_stream(app: Any, api: Api, sockets: Any) -> None:
    game = await api.start(time_control=REALTIME)
    await api.setups(game)
    asker = game.match["to_move"]
    opponent = "black" if asker == "white" else "white"
    before = dict(game.match)
    await play_first(api, game)
    while game.match["to_move"] == asker:
        before = dict(game.match)
        await play_first(api, game)
    socket = await sockets(game.id, {"Authorization": f"Bearer {game.tokens[opponent]}"})
    await socket.receive()  # the snapshot
    async with Stream(app, "GET", f"/api/v1/matches/{game.id}/stream") as stream:
        await stream.next()  # the snapshot
        await take(api, game, asker, "ask")
        r = await take(api, game, opponent, "accept")
        assert r.status_code == 200, r.text
        given = await api.client.post(f"/api/v1/matches/{game.id}/give-time", headers=game.auth(opponent))
        assert given.status_code == 200, given.text
        for heard in ([(await socket.receive_until(is_update))[0] for _ in range(3)],
                      [await _next_update(stream) for _ in range(3)]):
            asked, accepted, time = heard
            assert asked["action"] == {"type": "takeback_offer"} and asked["match"]["takeback_offer"] == asker
            assert accepted["action"] == {"type": "takeback_accept", "to": before["version"]}
            assert position(accepted["match"], LIVE) == position(before, LIVE)
            assert accepted["words"].endswith("accepts the takeback: the match goes back.")
            assert time["action"] == {"type": "give_time", "seconds": 15}
            assert time["match"]["clock"][asker] > 300_000  # the asker, to move again, got the 15 s


async def _next_update(stream: Stream) -> dict[str, Any]:
    while True:
        line = await stream.next()
        if line["type"] == "update":
            return line
