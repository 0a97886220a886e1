"""Helpers that make players and play their rated matches through the services
themselves (no HTTP): for the profile, leaderboard and users API tests."""

from __future__ import annotations

from typing import Any

from app.accounts import Account, Accounts
from app.matches import MatchService
from tests.conftest import ROW

PASSWORD = "correct horse battery"


async def member(accounts: Accounts, name: str) -> Account:
    """A new account, from an address of its own (sign-ups are limited per address)."""
    return await accounts.sign_up(name, PASSWORD, f"10.9.0.1-{name}")


async def act_once(service: MatchService, match_id: str, colour: str) -> None:
    """One legal action of `colour`'s own (the first the server lists)."""
    legal = await service.reads.legal(match_id, colour)
    action = {"type": "setup", "backrow": ROW} if legal["setup"] else legal["actions"][0]
    await service.mover.act(match_id, colour, action, legal["version"])


async def rated_match(service: MatchService, white: Account, black: Account, winner: str | None = "white",
                      variant: str = "standard", rated: bool = True) -> str:
    """A match between two accounts played past both sides' first actions and
    ended: `winner` resigns the other side, None is a draw by agreement."""
    made = await service.lobby.create({"variant": variant}, seat="white", name=white.name, rated=rated,
                                      account_id=white.id)
    match_id = str(made.match["id"])
    await service.lobby.join(match_id, name=black.name, account_id=black.id)
    for colour in ("white", "black", "white", "black"):  # the setups, then each side's first action
        await act_once(service, match_id, colour)
    if winner is None:
        await service.finisher.draw(match_id, "white", True)
        await service.finisher.draw(match_id, "black", True)
    else:
        await service.finisher.resign(match_id, "black" if winner == "white" else "white")
    return match_id


def parts(app: Any) -> tuple[Accounts, MatchService]:
    return app.state.parts.accounts, app.state.parts.service
