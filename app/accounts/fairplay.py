"""Fair play at the end of a rated match: counts what app/ratings/fairness.py
judges by, in the transaction that ends the match, and raises cases for the
admins' queue.

Called by `rate_ending` before any rating moves: when the verdict says the
result moves nothing, no rating changes and no `rating_changes` row is
written, exactly as for a match that moves no rating by the rules. Matches
against a computer level are left alone (nobody boosts through the computer:
its strength is its own).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.account_models import accounts
from app.db.fairplay_models import fair_play_cases, quick_results
from app.db.models import actions
from app.ratings.fairness import (
    PAIR_WINDOW_SECONDS,
    QUICK_LOSS_WINDOW_SECONDS,
    Verdict,
    is_quick,
    judge,
)
from app.ratings.outcome import TURN_ACTIONS


async def own_actions(conn: AsyncConnection, match_id: str) -> int:
    """The players' own actions after setup (not a pass the server played)."""
    kind = actions.c.action["type"].as_string()
    return int((await conn.execute(select(func.count()).select_from(actions).where(
        actions.c.match_id == match_id, actions.c.automatic.is_(False), kind.in_(sorted(TURN_ACTIONS))))).scalar_one())


async def judge_ending(conn: AsyncConnection, match_id: str, ids: Mapping[str, int], winner: str | None,
                       origins: Mapping[str, str | None], when: datetime) -> Verdict:
    """The verdict on a rated ending between the accounts `ids` (by colour),
    won by `winner` (None: a draw); the quick result and any case are written
    in `conn`'s transaction."""
    rows = {r.id: r for r in (await conn.execute(
        select(accounts.c.id, accounts.c.computer, accounts.c.signup_origin)
        .where(accounts.c.id.in_(sorted(ids.values()))))).all()}
    if any(r.computer is not None for r in rows.values()):
        return Verdict(True, ())
    white, black = ids["white"], ids["black"]
    cases: list[dict[str, Any]] = []
    shared = origins.get("white") is not None and origins.get("white") == origins.get("black")
    if shared:
        cases.append(_case("shared_address", white, black, match_id, when, {"seats_from_one_address": True}))
    made_white, made_black = (rows[white].signup_origin if white in rows else None,
                              rows[black].signup_origin if black in rows else None)
    if made_white is not None and made_white == made_black:
        cases.append(_case("accounts_from_one_address", white, black, match_id, when,
                           {"accounts_made_from_one_address": True}))
    verdict = Verdict(True, ())
    acted = await own_actions(conn, match_id)
    if winner is not None and is_quick(True, acted):
        won, lost = ids[winner], ids["black" if winner == "white" else "white"]
        pair_since = when - timedelta(seconds=PAIR_WINDOW_SECONDS)
        pair_before = int((await conn.execute(select(func.count()).select_from(quick_results).where(
            or_(and_(quick_results.c.winner_id == won, quick_results.c.loser_id == lost),
                and_(quick_results.c.winner_id == lost, quick_results.c.loser_id == won)),
            quick_results.c.at > pair_since))).scalar_one())
        loss_since = when - timedelta(seconds=QUICK_LOSS_WINDOW_SECONDS)
        losses_before = int((await conn.execute(select(func.count()).select_from(quick_results).where(
            quick_results.c.loser_id == lost, quick_results.c.at > loss_since))).scalar_one())
        await conn.execute(quick_results.insert().values(match_id=match_id, winner_id=won, loser_id=lost,
                                                         actions=acted, at=when))
        verdict = judge(True, pair_before, losses_before)
        evidence = {"actions": acted, "pair_quick_results_today": pair_before + 1,
                    "quick_losses_this_week": losses_before + 1, "rating_moved": verdict.moves}
        for flag in verdict.flags:
            if flag == "boosting":
                cases.append(_case(flag, won, lost, match_id, when, evidence))
            else:
                cases.append(_case(flag, lost, won, match_id, when, evidence))
    if cases:
        await conn.execute(fair_play_cases.insert(), cases)
    return verdict


def _case(kind: str, account_id: int, other_id: int | None, match_id: str, when: datetime,
          evidence: dict[str, Any]) -> dict[str, Any]:
    return {"kind": kind, "account_id": account_id, "other_id": other_id, "match_id": match_id,
            "evidence": evidence, "created_at": when, "cleared_at": None, "cleared_by": None}
