"""Fair play in ratings (app/ratings/fairness.py, app/accounts/fairplay.py):
one pair trading quick results stops moving ratings after the third, a player
who keeps losing quickly is warned and then loses nothing more, and rated
matches between seats or accounts from one address go to the admins' queue.
On SQLite and PostgreSQL."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from app.accounts import Account, Accounts, ratings_of
from app.accounts.rated import changes_of
from app.db.fairplay_models import fair_play_cases, quick_results
from app.kernel.limits import SlidingWindow
from app.matches import MatchService
from app.matches.gateway import Caller, Gateway
from app.ratings.fairness import PAIR_QUICK_LIMIT, QUICK_ACTIONS, QUICK_LOSSES_WARN, is_quick, judge
from tests.accounts.conftest import player
from tests.accounts.played import act_once


async def _rated(service: MatchService, white: Account, black: Account, loser: str = "black",
                 own_actions: int = 2, gateway: Gateway | None = None,
                 addresses: tuple[str, str] = ("198.51.100.1", "203.0.113.9")) -> str:
    """A rated match between `white` and `black`, each side's setup then
    `own_actions` actions of the players' own between them, then `loser` resigns."""
    if gateway is None:
        made = await service.lobby.create({}, seat="white", name=white.name, rated=True, account_id=white.id)
        match_id = str(made.match["id"])
        await service.lobby.join(match_id, name=black.name, account_id=black.id)
    else:
        made = await gateway.create(Caller(address=addresses[0], account_id=white.id, account=white.name), {},
                                    seat="white", rated=True)
        match_id = str(made.match["id"])
        await gateway.join(match_id, Caller(address=addresses[1], account_id=black.id, account=black.name))
    await act_once(service, match_id, "white")
    await act_once(service, match_id, "black")
    for _ in range(own_actions):  # whoever is to act: a placement phase's turns alternate, a removal's may not
        for colour in ("white", "black"):
            legal = await service.reads.legal(match_id, colour)
            if legal["actions"]:
                await service.mover.act(match_id, colour, legal["actions"][0], legal["version"])
                break
    await service.finisher.resign(match_id, loser)
    return match_id


async def _cases(engine: AsyncEngine) -> list[Any]:
    async with engine.connect() as conn:
        return list((await conn.execute(select(fair_play_cases).order_by(fair_play_cases.c.id))).all())


async def test_five_quick_resignations_leave_the_winner_where_the_third_left_them(
        accounts: Accounts, service: MatchService, engine: AsyncEngine) -> None:
    main, second = await player(accounts, "Main"), await player(accounts, "Second")
    after: list[float] = []
    for _ in range(5):
        match_id = await _rated(service, main, second)
        after.append((await ratings_of(engine, main.id))["standard"].rating)
        moved = await changes_of(engine, match_id)
        assert bool(moved) == (len(after) <= PAIR_QUICK_LIMIT), (len(after), moved)
    assert after[0] < after[1] < after[2] == after[3] == after[4]
    assert (await ratings_of(engine, main.id))["standard"].games == 3
    boosting = [c for c in await _cases(engine) if c.kind == "boosting"]
    assert [(c.account_id, c.other_id, c.evidence["rating_moved"]) for c in boosting] == [
        (main.id, second.id, False)] * 2


async def test_ordinary_matches_between_one_pair_all_count(accounts: Accounts, service: MatchService,
                                                           engine: AsyncEngine) -> None:
    ada, bea = await player(accounts, "Ada"), await player(accounts, "Bea")
    for i in range(PAIR_QUICK_LIMIT + 1):  # longer than quick: every one moves ratings
        await _rated(service, ada, bea, loser=("white", "black")[i % 2], own_actions=QUICK_ACTIONS + 1)
    assert (await ratings_of(engine, ada.id))["standard"].games == PAIR_QUICK_LIMIT + 1
    assert await _cases(engine) == []
    async with engine.connect() as conn:
        assert (await conn.execute(select(quick_results))).all() == []


async def test_a_player_who_keeps_losing_quickly_is_warned_then_loses_nothing(
        accounts: Accounts, service: MatchService, engine: AsyncEngine) -> None:
    loser = await player(accounts, "Loser")
    rivals = [await player(accounts, f"Rival{i}") for i in range(QUICK_LOSSES_WARN + 1)]
    for rival in rivals:  # a new opponent each time: no pair trades more than one
        await _rated(service, rival, loser)
    assert (await ratings_of(engine, loser.id))["standard"].games == QUICK_LOSSES_WARN
    assert (await ratings_of(engine, rivals[-1].id)).get("standard") is None  # nothing moved for its winner
    kinds = [(c.kind, c.account_id) for c in await _cases(engine)]
    assert kinds == [("sandbagging_warned", loser.id), ("sandbagging", loser.id)]


async def test_rated_matches_from_one_address_go_to_the_queue(accounts: Accounts, service: MatchService,
                                                              engine: AsyncEngine) -> None:
    gateway = Gateway(service, SlidingWindow(10_000, 10.0), 0.0)
    ada, bea = await player(accounts, "Ada"), await player(accounts, "Bea")
    await _rated(service, ada, bea, own_actions=QUICK_ACTIONS + 1, gateway=gateway,
                 addresses=("198.51.100.7", "198.51.100.7"))
    # Two accounts made from one address (player() gives each its own address unless told).
    cy = await accounts.sign_up("Cy", "correct horse battery", "192.0.2.33")
    dee = await accounts.sign_up("Dee", "correct horse battery", "192.0.2.33")
    await _rated(service, cy, dee, own_actions=QUICK_ACTIONS + 1, gateway=gateway)
    # Two places, two sign-up addresses: nothing.
    await _rated(service, ada, cy, own_actions=QUICK_ACTIONS + 1, gateway=gateway)
    cases = await _cases(engine)
    assert [(c.kind, c.account_id, c.other_id) for c in cases] == [
        ("shared_address", ada.id, bea.id), ("accounts_from_one_address", cy.id, dee.id)]
    assert "198.51" not in str([c.evidence for c in cases])  # the evidence never holds an address


def _replay(history: list[tuple[float, int, int, int]]) -> list[tuple[int, int, tuple[str, ...]]]:
    """(winner, loser, flags) of each flagged result of `history`, given as
    (seconds, winner, loser, own actions) in time order: the rules as the
    database applies them, counted in memory."""
    pair_times: dict[frozenset[int], list[float]] = {}
    loss_times: dict[int, list[float]] = {}
    flagged = []
    for at, won, lost, actions in history:
        quick = is_quick(True, actions)
        pair = frozenset((won, lost))
        pair_before = sum(1 for t in pair_times.get(pair, []) if t > at - 24 * 3600)
        losses_before = sum(1 for t in loss_times.get(lost, []) if t > at - 7 * 24 * 3600)
        verdict = judge(quick, pair_before, losses_before)
        if quick:
            pair_times.setdefault(pair, []).append(at)
            loss_times.setdefault(lost, []).append(at)
        if verdict.flags:
            flagged.append((won, lost, verdict.flags))
    return flagged


def test_a_seeded_history_of_ordinary_play_flags_nobody_and_finds_a_farm() -> None:
    """Ten thousand rated results among 200 players over 60 days, drawn as
    ordinary play goes: opponents by chance, a few quick resignations (one
    result in 40: a blunder, a dropped connection). The rules flag nobody; the
    same history with one pair farming (a quick win every ten minutes for an
    hour on day 3) flags that pair alone."""
    chance = random.Random(20261129)
    history = []
    for n in range(10_000):
        at = n * 60 * 24 * 3600 / 10_000
        won, lost = chance.sample(range(200), 2)
        actions = chance.randint(1, QUICK_ACTIONS) if chance.random() < 1 / 40 else chance.randint(20, 400)
        history.append((at, won, lost, actions))
    assert _replay(history) == []
    farm = [(3 * 24 * 3600 + 600 * k + 0.5, 500, 501, 2) for k in range(6)]
    flagged = _replay(sorted(history + farm))
    assert {(won, lost) for won, lost, _ in flagged} == {(500, 501)}
    assert [flags for _, _, flags in flagged] == [("boosting",), ("boosting", "sandbagging_warned"),
                                                  ("boosting", "sandbagging")]
