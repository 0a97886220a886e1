"""A guest who plays both seats of a match and brings one into an account has
played themselves: the seat becomes the account's, but the result is left out
of the profile's wins, draws and losses. Both seats are from one place when the
claim proves both (one browser) or their origins are equal (one address:
app/kernel/origins.py). A match between two places counts as before."""

from __future__ import annotations

from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.accounts import Accounts
from app.accounts.profiles import Profiles
from app.kernel.limits import SlidingWindow
from app.kernel.origins import Origins, fold
from app.matches import MatchService
from app.matches.gateway import Caller, Gateway
from tests.accounts.conftest import player
from tests.accounts.played import act_once


async def _played(gateway: Gateway, service: MatchService, white_from: str, black_from: str) -> tuple[str, dict[str, str]]:
    """A guests' match, white's seat taken from `white_from` and black's from
    `black_from`, played past both first actions and won by white."""
    made = await gateway.create(Caller(address=white_from), {}, seat="white", name="Guest")
    match_id = str(made.match["id"])
    joined = await gateway.join(match_id, Caller(address=black_from), name="Guest too")
    for colour in ("white", "black", "white", "black"):
        await act_once(service, match_id, colour)
    await service.finisher.resign(match_id, "black")
    return match_id, {made.seat: made.token, joined.seat: joined.token}


def _gateway(service: MatchService) -> Gateway:
    return Gateway(service, SlidingWindow(10_000, 10.0), 0.0)


async def test_a_claim_from_one_browser_holding_both_seats_counts_no_result(
        service: MatchService, accounts: Accounts, engine: AsyncEngine) -> None:
    ada = await player(accounts, "Ada")
    gateway, profiles = _gateway(service), Profiles(engine)
    # Two addresses (a phone and a laptop), one browser holding both tokens at the claim.
    match_id, tokens = await _played(gateway, service, "198.51.100.1", "203.0.113.9")
    done = await gateway.claim_seats(Caller(address="198.51.100.1"), ada.id,
                                     [(match_id, tokens["white"]), (match_id, tokens["black"])])
    assert done.claimed == [match_id] and done.uncounted == [match_id]
    assert (await profiles.results(ada.id)).wins == 0
    played, _ = await profiles.matches(ada.id)
    assert [(p.id, p.outcome, p.counted) for p in played] == [(match_id, "won", False)]


async def test_a_claim_of_a_match_whose_seats_share_an_address_counts_no_result(
        service: MatchService, accounts: Accounts, engine: AsyncEngine) -> None:
    ada = await player(accounts, "Ada")
    gateway, profiles = _gateway(service), Profiles(engine)
    match_id, tokens = await _played(gateway, service, "198.51.100.1", "198.51.100.1")
    done = await gateway.claim_seats(Caller(address="192.0.2.50"), ada.id, [(match_id, tokens["white"])])
    assert done.claimed == [match_id] and done.uncounted == [match_id]
    assert (await profiles.results(ada.id)) == type(await profiles.results(ada.id))(0, 0, 0)


async def test_a_match_between_two_places_counts_as_ever(
        service: MatchService, accounts: Accounts, engine: AsyncEngine) -> None:
    ada, bo = await player(accounts, "Ada"), await player(accounts, "Bo", "10.0.0.2")
    gateway, profiles = _gateway(service), Profiles(engine)
    match_id, tokens = await _played(gateway, service, "198.51.100.1", "203.0.113.9")
    won = await gateway.claim_seats(Caller(address="198.51.100.1"), ada.id, [(match_id, tokens["white"])])
    lost = await gateway.claim_seats(Caller(address="203.0.113.9"), bo.id, [(match_id, tokens["black"])])
    assert won.uncounted == [] == lost.uncounted and won.claimed == [match_id] == lost.claimed
    assert (await profiles.results(ada.id)).wins == 1 and (await profiles.results(bo.id)).losses == 1
    played, _ = await profiles.matches(ada.id)
    assert played[0].counted


async def test_an_origin_is_a_keyed_hash_the_same_on_every_process(engine: AsyncEngine, service: MatchService,
                                                                    settings: Any) -> None:
    here, there = Origins(engine), Origins(engine)
    a, b = await here.of("198.51.100.1"), await there.of("198.51.100.1")
    assert a == b and a is not None and len(a) == 16 and "198" not in a
    assert a != await there.of("198.51.100.2") and await here.of(None) is None
    # Keyed: the plain hash of the address under any guessable key is not it.
    assert a not in (fold("198.51.100.1", b""), fold("198.51.100.1", b"origin"))
    made = await _gateway(service).create(Caller(address="198.51.100.1"), {}, seat="white", name="Guest")
    rec = await service.keeper.get(str(made.match["id"]), fresh=True)
    assert rec.seats["white"].origin == a
    assert "origin" not in str(made.match)  # never shown
