"""A known set of matches, made through the public API on chosen days, for the
history's and the figures' tests."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tests.admin.conftest import AdminClient
from tests.conftest import ROW, Api, FakeTime, Game
from tests.waiting import until

DAY = 86400.0


@dataclass
class Known:
    games: dict[str, Game]
    days: dict[str, str]  # name -> the UTC day it was created (YYYY-MM-DD)

    def ids(self, *names: str) -> set[str]:
        return {self.games[n].id for n in names}

    def name_of(self, match_id: str) -> str:
        return next(n for n, g in self.games.items() if g.id == match_id)


async def known_set(api: Api, service: Any, admin: AdminClient) -> Known:
    """Eight matches over five days:

    | name       | day | variant           | players     | how it stands                     |
    | resigned   | 0   | standard          | Ada – Bo    | Black wins: White resigned        |
    | agreed     | 0   | standard          | Bo – Cy     | drawn by agreement                |
    | playing    | 1   | rotating          | Cy – Ada    | active, setups done               |
    | bot        | 1   | archmage          | Ada – bot   | active against a bot              |
    | waiting    | 2   | standard          | Dee         | waiting for an opponent           |
    | called_off | 3   | standard          | Eve – Fay   | aborted by a player               |
    | judged     | 4   | ultimate_archmage | Fay – Ada   | adjudicated: White wins           |
    | bot_lost   | 4   | standard          | Gus – bot   | Black (the bot) wins: Gus resigned|
    """
    time = FakeTime(service)
    time.now = (time.now // DAY) * DAY + 3600  # 01:00 UTC of today
    start = time.now
    games: dict[str, Game] = {}
    base = api.base

    async def seat_post(game: Game, colour: str, verb: str, body: dict[str, Any] | None = None) -> None:
        r = await api.client.post(f"{base}/{game.id}/{verb}", json=body, headers=game.auth(colour))
        assert r.status_code == 200, r.text

    g = games["resigned"] = await api.start(name="Ada")
    await api.setups(g)
    await seat_post(g, "white", "resign")
    g = games["agreed"] = await api.join(await api.create(name="Bo"), name="Cy")
    await api.setups(g)
    await seat_post(g, "white", "draw", {"offer": True})
    await seat_post(g, "black", "draw", {"offer": True})
    time.advance(DAY)
    g = games["playing"] = await api.join(await api.create(name="Cy", variant="rotating"), name="Ada")
    await api.setups(g)
    games["bot"] = await api.create(name="Ada", variant="archmage", opponent="bot:random")
    time.advance(DAY)
    games["waiting"] = await api.create(name="Dee")
    time.advance(DAY)
    g = games["called_off"] = await api.join(await api.create(name="Eve"), name="Fay")
    await seat_post(g, "white", "abort")
    time.advance(DAY)
    g = games["judged"] = await api.join(await api.create(name="Fay", variant="ultimate_archmage"), name="Ada")
    await api.setups(g)
    r = await admin.moderate(g.id, "white", "Ada left the table")
    assert r.status_code == 200, r.text
    g = games["bot_lost"] = await api.create(name="Gus", opponent="bot:random")
    await api.act(g, "white", {"type": "setup", "backrow": ROW})
    await until(lambda: _to_move(api, g, "white"), "the bot (Black) to set up from its worker process")
    await seat_post(g, "white", "resign")
    days: dict[str, str] = {}
    for name, offset in (("resigned", 0), ("agreed", 0), ("playing", 1), ("bot", 1), ("waiting", 2),
                         ("called_off", 3), ("judged", 4), ("bot_lost", 4)):
        days[name] = datetime.fromtimestamp(start + offset * DAY, UTC).date().isoformat()
    return Known(games, days)


async def _to_move(api: Api, game: Game, colour: str) -> bool:
    return (await api.state(game))["to_move"] == colour
