"""A rated match's change of ratings lands with its ending, exactly once,
however many endings race on however many processes; nothing else moves a
rating (an abort, an ending before both first actions, a casual match), and
only accounts and computer levels play rated."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest
from sqlalchemy import select

from app.accounts import Accounts, ratings_of
from app.accounts.rated import changes_of
from app.db import make_engine
from app.db.account_models import accounts as accounts_table
from app.db.account_models import rating_changes
from app.kernel.errors import BadRequest, Forbidden, ServiceError
from app.matches import MatchService
from app.ratings import NEW
from tests.conftest import ROW

from .conftest import player


async def _made(service: MatchService, white: int | None, black: int | None, rated: bool = True) -> str:
    seated = await service.lobby.create({}, seat="white", name="W", rated=rated, account_id=white)
    await service.lobby.join(seated.match["id"], name="B", account_id=black)
    return str(seated.match["id"])


async def _play(service: MatchService, match_id: str, colour: str) -> None:
    """One legal action of `colour`'s own (the first the server lists)."""
    legal = await service.reads.legal(match_id, colour)
    action = {"type": "setup", "backrow": ROW} if legal["setup"] else legal["actions"][0]
    await service.mover.act(match_id, colour, action, legal["version"])


async def _both_acted(service: MatchService, match_id: str) -> None:
    for colour in ("white", "black", "white", "black"):  # the setups, then each side's first action
        await _play(service, match_id, colour)


async def test_a_rated_resignation_moves_both_ratings_once(accounts: Accounts, service: MatchService) -> None:
    ada, bea = await player(accounts, "Ada"), await player(accounts, "Bea")
    match_id = await _made(service, ada.id, bea.id)
    await _both_acted(service, match_id)
    await service.finisher.resign(match_id, "black")
    changes = await changes_of(service.engine, match_id)
    assert [(c.colour, c.account_id, c.score) for c in changes] == [("black", bea.id, 0.0), ("white", ada.id, 1.0)]
    white, black = (await ratings_of(service.engine, ada.id))["standard"], (await ratings_of(service.engine, bea.id))[
        "standard"]
    assert white.rating > NEW.rating > black.rating and white.games == black.games == 1
    assert (white.shown(), black.shown()) == ("1742?", "1258?")  # as app/ratings works it out
    assert changes[1].rating_after == white.rating and changes[1].rating_before == NEW.rating


@pytest.mark.parametrize("ending", ["abort", "resign_early", "casual"])
async def test_endings_that_move_no_rating(accounts: Accounts, service: MatchService, ending: str) -> None:
    ada, bea = await player(accounts, "Ada"), await player(accounts, "Bea")
    match_id = await _made(service, ada.id, bea.id, rated=ending != "casual")
    if ending == "abort":
        await service.finisher.abort(match_id, "white")
    elif ending == "resign_early":  # white acted, black never did
        for colour in ("white", "black", "white"):
            await _play(service, match_id, colour)
        await service.finisher.resign(match_id, "black")
    else:
        await _both_acted(service, match_id)
        await service.finisher.resign(match_id, "black")
    assert (await service.reads.get(match_id))["status"] == "finished"
    assert await changes_of(service.engine, match_id) == []
    assert await ratings_of(service.engine, ada.id) == {} == await ratings_of(service.engine, bea.id)


async def test_only_accounts_and_computer_levels_play_rated(accounts: Accounts, service: MatchService) -> None:
    ada = await player(accounts, "Ada")
    with pytest.raises(BadRequest, match="two accounts"):
        await service.lobby.create({}, rated=True)  # a guest creator
    seated = await service.lobby.create({}, rated=True, account_id=ada.id)
    with pytest.raises(Forbidden, match="sign in"):
        await service.lobby.join(seated.match["id"], name="guest")
    with pytest.raises(Forbidden, match="themselves"):
        await service.lobby.join(seated.match["id"], account_id=ada.id)
    # A guest may still join a casual match of an account's, and an account a guest's.
    casual = await service.lobby.create({}, account_id=ada.id)
    await service.lobby.join(casual.match["id"], name="guest")
    guests = await service.lobby.create({})
    await service.lobby.join(guests.match["id"], account_id=ada.id)


async def test_a_computer_level_is_a_rated_player(accounts: Accounts, service: MatchService) -> None:
    ada = await player(accounts, "Ada")
    seated = await service.lobby.create({}, seat="white", rated=True, account_id=ada.id, opponent="bot:strong")
    match_id = seated.match["id"]
    async with service.engine.connect() as conn:
        strong = (await conn.execute(select(accounts_table.c.id).where(accounts_table.c.computer == "strong"))).scalar()
    assert (await service.keeper.get(match_id, fresh=True)).seat_accounts() == {"white": ada.id, "black": strong}
    await _both_acted(service, match_id)  # the bot's moves played for it, as its runner would
    await service.finisher.resign(match_id, "white")
    assert (await ratings_of(service.engine, strong))["standard"].rating > NEW.rating
    assert (await ratings_of(service.engine, ada.id))["standard"].rating < NEW.rating


async def test_a_missing_computer_account_is_made_again(accounts: Accounts, service: MatchService) -> None:
    ada = await player(accounts, "Ada")
    async with service.engine.begin() as conn:
        await conn.execute(accounts_table.delete().where(accounts_table.c.computer == "greedy"))
    made = await asyncio.gather(*(service.lobby.create({}, rated=True, account_id=ada.id, opponent="bot:greedy")
                                  for _ in range(3)))
    seats = set()
    for seated in made:  # the bot's seat, whichever colour the draw gave it
        rec = await service.keeper.get(seated.match["id"], fresh=True)
        seats |= {seat.account_id for seat in rec.seats.values() if seat.bot is not None}
    async with service.engine.connect() as conn:
        greedy = (await conn.execute(select(accounts_table.c.id).where(accounts_table.c.computer == "greedy"))).all()
    assert len(greedy) == 1 and seats == {greedy[0].id}


async def test_a_rated_matchs_rematch_is_rated_between_the_same_accounts(accounts: Accounts,
                                                                         service: MatchService) -> None:
    ada, bea = await player(accounts, "Ada"), await player(accounts, "Bea")
    match_id = await _made(service, ada.id, bea.id)
    await service.finisher.abort(match_id, "white")
    await service.rematches.offer(match_id, "white")
    made = await service.rematches.offer(match_id, "black")
    assert made.match_id is not None
    rematch = await service.keeper.get(made.match_id, fresh=True)
    assert rematch.rated and rematch.seat_accounts() == {"white": bea.id, "black": ada.id}


@pytest.fixture
async def second(database_url: str, settings: Any) -> Any:
    """Another process: its own engine, cache and locks, on the same database."""
    engine = make_engine(database_url)
    yield MatchService(engine, settings, bot_levels=("random",))
    await engine.dispose()


def _endings(service: MatchService, match_id: str) -> list[Any]:
    finisher = service.finisher
    return [finisher.resign(match_id, "white"), finisher.resign(match_id, "black"),
            finisher.draw(match_id, "white", True), finisher.draw(match_id, "black", True),
            finisher.moderate(match_id, "black", "adjudicated in a race")]


async def test_endings_racing_on_two_processes_apply_the_change_exactly_once(
        accounts: Accounts, service: MatchService, second: MatchService) -> None:
    # A new rival each time: one pair's quick decisive results past the third move
    # nothing (fair play, app/ratings/fairness.py), which is not what this tests.
    ada = await player(accounts, "Ada")
    rivals = [await player(accounts, f"Bea{i}") for i in range(4)]
    for bea in rivals:
        match_id = await _made(service, ada.id, bea.id)
        await _both_acted(service, match_id)
        await second.keeper.get(match_id, fresh=True)  # both processes hold it cached
        answers = await asyncio.gather(*_endings(service, match_id), *_endings(second, match_id),
                                       return_exceptions=True)
        assert all(not isinstance(a, BaseException) or isinstance(a, ServiceError) for a in answers), answers
        changes = await changes_of(service.engine, match_id)
        assert sorted(c.colour for c in changes) == ["black", "white"]
    # Four matches: four changes for Ada and one for each rival, none lost, none twice.
    assert (await ratings_of(service.engine, ada.id))["standard"].games == 4
    for bea in rivals:
        assert (await ratings_of(service.engine, bea.id))["standard"].games == 1


async def test_many_rated_matches_of_one_player_ending_at_once_lose_no_change(
        accounts: Accounts, service: MatchService, second: MatchService) -> None:
    ada = await player(accounts, "Ada")
    others = [await player(accounts, f"Rival{i}") for i in range(4)]
    made = []
    for rival in others * 2:
        match_id = await _made(service, ada.id, rival.id)
        await _both_acted(service, match_id)
        made.append(match_id)
    await asyncio.gather(*((service if i % 2 else second).finisher.resign(m, "black")
                           for i, m in enumerate(made)))
    ada_now = (await ratings_of(service.engine, ada.id))["standard"]
    assert ada_now.games == len(made)
    async with service.engine.connect() as conn:
        rows = (await conn.execute(select(rating_changes).where(rating_changes.c.account_id == ada.id))).all()
    # Each change began where another ended: one chain from NEW to the rating now, nothing read stale.
    befores = Counter(r.rating_before for r in rows)
    afters = Counter(r.rating_after for r in rows)
    assert befores - afters == Counter({NEW.rating: 1}) and afters - befores == Counter({ada_now.rating: 1})


async def test_a_closed_account_moves_no_rating_whatever_ends_its_match(accounts: Accounts,
                                                                         service: MatchService) -> None:
    """Issue 31, break 2: an account closed while its rated match runs (here with
    nobody told to end it) has its rating moved by no ending that comes after,
    nor does its opponent's move."""
    ada, bea = await player(accounts, "Ada"), await player(accounts, "Bea")
    match_id = await _made(service, ada.id, bea.id)
    await _both_acted(service, match_id)
    await accounts.close("Ada")
    await service.finisher.resign(match_id, "black")  # the opponent resigns: Ada would have won
    assert (await service.reads.get(match_id))["status"] == "finished"
    assert await changes_of(service.engine, match_id) == []
    assert await ratings_of(service.engine, ada.id) == {} == await ratings_of(service.engine, bea.id)
