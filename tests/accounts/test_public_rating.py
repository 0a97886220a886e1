"""The public state's players show each account's rating in the match's
variant, and after a rated ending each side's change (issue 19): in the
answer, in the ending's update (its log row), and read again by another
process. A guest's seat shows none."""

from __future__ import annotations

from typing import Any

from app.accounts import Accounts
from app.db import make_engine
from app.matches import MatchService

from .conftest import player
from .played import act_once


async def test_ratings_and_their_change_in_the_public_state(accounts: Accounts, service: MatchService,
                                                            database_url: str, settings: Any) -> None:
    ada, bea = await player(accounts, "Ada"), await player(accounts, "Bea")
    made = await service.lobby.create({}, seat="white", name="Ada", rated=True, account_id=ada.id)
    new = {"rating": 1500, "rd": 500, "provisional": True}
    assert made.match["players"]["white"]["rating"] == new
    match_id = made.match["id"]
    joined = await service.lobby.join(match_id, name="Bea", account_id=bea.id)
    assert joined.match["players"]["black"]["rating"] == new
    assert joined.match["players"]["black"]["rating_change"] is None
    for colour in ("white", "black", "white", "black"):
        await act_once(service, match_id, colour)
    ended = await service.finisher.resign(match_id, "black")
    white, black = ended["players"]["white"], ended["players"]["black"]
    assert (white["rating"], white["rating_change"]) == (new, 242)
    assert (black["rating"], black["rating_change"]) == (new, -242)
    # The ending's update carries them (its log row is what a replay and a reconnect read).
    last = (await service.reads.states(match_id, 1, None))[0]["states"][-1]["match"]
    assert last["players"]["white"]["rating_change"] == 242
    # Another process, which never saw the ending, reads the same.
    engine = make_engine(database_url)
    try:
        other = MatchService(engine, settings, bot_levels=("random",))
        again = await other.reads.get(match_id)
        assert again["players"] == ended["players"] | {
            c: {**ended["players"][c], "connected": again["players"][c]["connected"]} for c in ("white", "black")}
        # A new match of Ada's shows her rating now.
        after = await other.lobby.create({}, seat="white", account_id=ada.id)
        assert after.match["players"]["white"]["rating"] == {"rating": 1742, "rd": after.match["players"][
            "white"]["rating"]["rd"], "provisional": True}
    finally:
        await engine.dispose()


async def test_a_guest_shows_no_rating(accounts: Accounts, service: MatchService) -> None:
    ada = await player(accounts, "Ada")
    made = await service.lobby.create({}, seat="white", name="guest")
    joined = await service.lobby.join(made.match["id"], name="Ada", account_id=ada.id)
    players = joined.match["players"]
    assert players["white"]["rating"] is None and players["white"]["account"] is None
    assert players["black"]["rating"]["rating"] == 1500 and players["black"]["rating_change"] is None
    listed = (await service.reads.list())["matches"][0]["players"]
    assert listed["black"]["rating"] == players["black"]["rating"]
