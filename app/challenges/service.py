"""Challenges: one account asks another for a match.

    challenge → pending → accepted (the match is made) | declined (a reason)
                        | canceled (by the challenger) | expired

Every change of status is one conditional UPDATE `WHERE status = 'pending'
AND expires_at > now`: of two accepts racing on two processes, exactly one
changes the row and makes the match; the other is told the challenge is over.
The match is made through the gateway, as any create and join is: the
challenger creates it in the colour they asked for, the challenged joins it.
A computer level accepts at once: the challenge is answered with its match.
Each change nudges both people (`person:a:<account id>`), so their pages hear of
it at once on whichever process holds them.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from app.accounts import Accounts, playban
from app.accounts.service import Account
from app.config import Settings
from app.db.account_models import accounts
from app.db.challenge_models import challenges
from app.db.turns import one_at_a_time
from app.matches import Caller, Gateway
from app.notify import Channels, Notice
from app.notify import write as write_notices
from app.notify.kinds import CHALLENGE, CHALLENGE_ACCEPTED, CHALLENGE_DECLINED
from app.realtime.nudges import Nudges
from app.rules import DEFAULT_NO_PROGRESS_ROUNDS

from .errors import (
    ChallengeOver,
    ChallengeYourself,
    NoSuchChallenge,
    NoSuchPlayer,
    NotYourChallenge,
    PlayerClosed,
    TooManyChallenges,
)

# Why a challenge is declined, as lichess offers them: the code, and what the challenger reads.
DECLINE_REASONS: dict[str, str] = {
    "generic": "is not accepting challenges at the moment",
    "later": "asks you to challenge them later",
    "too_fast": "finds this time control too fast",
    "too_slow": "finds this time control too slow",
    "time_control": "asks for another time control",
    "rated": "asks for a rated match instead",
    "casual": "asks for a casual match instead",
    "variant": "asks for another variant",
}


def person_key(account_id: int) -> str:
    """The nudge key of a person's channel (the `person:` prefix is this wing's)."""
    return f"person:a:{account_id}"


@dataclass(frozen=True, slots=True)
class Sent:
    """A challenge as the API shows it; `match_id` once accepted (a computer's: at once)."""

    challenge: dict[str, Any]


class Challenges:
    def __init__(self, engine: AsyncEngine, accounts: Accounts, gateway: Gateway, nudges: Nudges,
                 settings: Settings, clock: Callable[[], float] = time.time, channels: Channels | None = None) -> None:
        self.engine, self.accounts, self.gateway, self.nudges = engine, accounts, gateway, nudges
        self.settings = settings
        self.channels = channels or Channels()  # a challenge's notices leave by these (app/notify)
        self.clock = clock  # seconds since the epoch; tests move it to expire challenges

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    # ---- the challenger ------------------------------------------------------------

    async def challenge(self, challenger: Caller, name: str, options: dict[str, Any], colour: str,
                        rated: bool) -> dict[str, Any]:
        """Challenge the account `name`; a computer level's answer is its match at once."""
        assert challenger.account_id is not None  # the route admits accounts only
        challenged = await self._player(name)
        if challenged.id == challenger.account_id:
            raise ChallengeYourself("you cannot challenge yourself: open a match and invite a friend instead")
        if challenged.closed:
            raise PlayerClosed(f"{challenged.name}'s account is closed: nobody plays as it any more")
        now = self.now()
        if rated:  # refused now, not when the other accepts
            await playban.check(self.engine, challenger.account_id, now)
        challenge_id = await self._insert(challenger.account_id, challenged, options, colour, rated, now,
                                          by=challenger.account)
        if challenged.computer is not None:  # a computer level accepts at once
            return await self._accept(challenge_id, challenger, challenged)
        self._tell(challenger.account_id, challenged.id)
        return await self.get(challenge_id)

    async def open(self, challenger: Caller, options: dict[str, Any], colour: str, rated: bool) -> dict[str, Any]:
        """A challenge that names nobody: whoever signed in follows its link and
        accepts it first plays it (the challenger never). Nobody else is told:
        the link is the challenger's to give."""
        assert challenger.account_id is not None  # the route admits accounts only
        now = self.now()
        if rated:
            await playban.check(self.engine, challenger.account_id, now)
        challenge_id = await self._insert(challenger.account_id, None, options, colour, rated, now)
        self._tell(challenger.account_id)
        return await self.get(challenge_id)

    async def cancel(self, challenger: Caller, challenge_id: str) -> dict[str, Any]:
        row = await self._row(challenge_id)
        if row.challenger_id != challenger.account_id:
            raise NotYourChallenge("only the challenger cancels a challenge")
        await self._close(row, "canceled", None)
        return await self.get(challenge_id)

    # ---- the challenged ------------------------------------------------------------

    async def accept(self, accepter: Caller, challenge_id: str) -> dict[str, Any]:
        row = await self._row(challenge_id)
        if row.open:  # anyone signed in but its challenger; once taken, a later accept is told it is over
            if row.challenger_id == accepter.account_id:
                raise NotYourChallenge("this is your own open challenge: give its link to someone else, "
                                       "or cancel it")
        elif row.challenged_id != accepter.account_id:
            raise NotYourChallenge("only the challenged player accepts a challenge")
        challenger = await self.accounts.by_id(row.challenger_id)
        if challenger is None or challenger.closed:
            await self._close(row, "canceled", None)
            raise ChallengeOver("the challenger's account is closed: the challenge is canceled")
        if row.rated:  # the accepter may be waiting after leaving a rated match
            await playban.check(self.engine, accepter.account_id, self.now())
        caller = Caller(None, accepter.address, counted=True, account_id=challenger.id, account=challenger.name)
        return await self._accept(challenge_id, caller, accepter, taker=accepter.account_id)

    async def decline(self, decliner: Caller, challenge_id: str, reason: str) -> dict[str, Any]:
        row = await self._row(challenge_id)
        if row.open:
            raise NotYourChallenge("an open challenge names nobody to decline it: leave it, and it expires")
        if row.challenged_id != decliner.account_id:
            raise NotYourChallenge("only the challenged player declines a challenge")
        await self._close(row, "declined", reason)
        return await self.get(challenge_id)

    # ---- reading -------------------------------------------------------------------

    async def get(self, challenge_id: str) -> dict[str, Any]:
        async with self.engine.connect() as conn:
            row = (await conn.execute(_shown().where(challenges.c.id == challenge_id))).first()
        if row is None:
            raise NoSuchChallenge(f"there is no challenge {challenge_id!r}")
        return shown(row, self.now())

    async def of(self, account_id: int) -> dict[str, list[dict[str, Any]]]:
        """The challenges waiting for `account_id`'s answer (`in`), and theirs
        made within twice the expiry time (`out`: a decline, an expiry is seen)."""
        now = self.now()
        recent = now - timedelta(seconds=2 * self.settings.challenge_expire_seconds)
        async with self.engine.connect() as conn:
            incoming = (await conn.execute(_shown().where(
                challenges.c.challenged_id == account_id, _pending(now)).order_by(challenges.c.created_at))).all()
            outgoing = (await conn.execute(_shown().where(
                challenges.c.challenger_id == account_id, challenges.c.created_at > recent)
                .order_by(challenges.c.created_at))).all()
        return {"in": [shown(r, now) for r in incoming], "out": [shown(r, now) for r in outgoing]}

    # ---- the steps -------------------------------------------------------------------

    async def _player(self, name: str) -> Account:
        found = await self.accounts.by_name(name)
        if found is None:
            raise NoSuchPlayer(f"there is no player named {name!r}")
        return found

    async def _row(self, challenge_id: str) -> Any:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(challenges).where(challenges.c.id == challenge_id))).first()
        if row is None:
            raise NoSuchChallenge(f"there is no challenge {challenge_id!r}")
        return row

    async def _close(self, row: Any, status: str, reason: str | None) -> None:
        """pending → `status`, or ChallengeOver when it is not pending any more."""
        now = self.now()
        async with self.engine.begin() as conn:
            changed = await conn.execute(update(challenges).where(challenges.c.id == row.id, _pending(now))
                                         .values(status=status, reason=reason, decided_at=now))
            if changed.rowcount == 1 and status == "declined":
                await self._notify(conn, Notice(row.challenger_id, CHALLENGE_DECLINED, {
                    "challenge_id": row.id, "by": await self._name(conn, row.challenged_id), "reason": reason,
                    "reason_text": DECLINE_REASONS.get(reason or "")}))
        self._tell(*(a for a in (row.challenger_id, row.challenged_id) if a is not None))
        if changed.rowcount != 1:
            raise ChallengeOver(f"this challenge is {await self._status(row.id)} already")

    async def _insert(self, challenger_id: int, challenged: Account | None, options: dict[str, Any], colour: str,
                      rated: bool, now: datetime, by: str | None = None) -> str:
        """The new challenge's row (and the challenged person's notice), under the cap
        of challenges waiting."""
        cap = self.settings.challenges_pending_max
        async with self.engine.begin() as conn:
            # The count and the insert, one request of this challenger at a time:
            # two sent at once never both count the same place under the cap.
            await one_at_a_time(conn, f"challenges:{challenger_id}")
            waiting = (await conn.execute(select(func.count()).select_from(challenges).where(
                challenges.c.challenger_id == challenger_id, _pending(now)))).scalar_one()
            if waiting >= cap:
                raise TooManyChallenges(f"you have {waiting} challenges waiting for an answer, the most at once "
                                        f"is {cap}: cancel one or wait for its answer")
            challenge_id = secrets.token_urlsafe(9)
            await conn.execute(challenges.insert().values(
                id=challenge_id, challenger_id=challenger_id,
                challenged_id=None if challenged is None else challenged.id,
                options=options, colour=colour, rated=rated, status="pending", open=challenged is None,
                created_at=now, expires_at=now + timedelta(seconds=self.settings.challenge_expire_seconds)))
            if challenged is not None and challenged.computer is None:  # a computer level answers at once
                await self._notify(conn, Notice(challenged.id, CHALLENGE, {
                    "challenge_id": challenge_id, "by": by, "rated": rated,
                    "variant": options.get("variant", "standard"), "time_control": options.get("time_control")}))
        return challenge_id

    async def _accept(self, challenge_id: str, challenger: Caller, accepter: Caller | Account,
                      taker: int | None = None) -> dict[str, Any]:
        """Take the challenge (one UPDATE: of racing accepts, one wins), then make the match.
        An open challenge is taken by `taker`, who becomes its challenged player."""
        now = self.now()
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(challenges).where(challenges.c.id == challenge_id))).one()
            took = {"challenged_id": taker} if row.open and taker is not None else {}
            taken = await conn.execute(update(challenges).where(challenges.c.id == challenge_id, _pending(now))
                                       .values(status="accepted", decided_at=now, **took))
        if taken.rowcount != 1:
            raise ChallengeOver(f"this challenge is {await self._status(challenge_id)} already")
        challenged_id: int | None = taker if row.open else row.challenged_id
        assert challenged_id is not None  # an open challenge is taken by an accepter, never a computer
        try:
            if isinstance(accepter, Account):  # a computer level: the bot's match
                seated = await self.gateway.create(challenger, row.options, seat=row.colour,
                                                   opponent=f"bot:{accepter.computer}", rated=row.rated)
            else:
                seated = await self.gateway.create(challenger, row.options, seat=row.colour, rated=row.rated)
                await self.gateway.join(seated.match["id"], accepter)
        except Exception:
            # No match: a person's challenge stands as it was; a computer's is over
            # (it would only be refused again, e.g. too many bot matches at this address).
            again = {"status": "canceled"} if isinstance(accepter, Account) else {
                "status": "pending", "decided_at": None, "challenged_id": row.challenged_id}
            async with self.engine.begin() as conn:
                await conn.execute(update(challenges).where(challenges.c.id == challenge_id).values(**again))
            self._tell(row.challenger_id, challenged_id)
            raise
        async with self.engine.begin() as conn:
            await conn.execute(update(challenges).where(challenges.c.id == challenge_id)
                               .values(match_id=seated.match["id"]))
            if not isinstance(accepter, Account):  # a person accepted: the challenger is told
                await self._notify(conn, Notice(row.challenger_id, CHALLENGE_ACCEPTED, {
                    "challenge_id": challenge_id, "match_id": seated.match["id"],
                    "by": await self._name(conn, challenged_id)}))
        self._tell(row.challenger_id, challenged_id)
        return await self.get(challenge_id)

    async def _status(self, challenge_id: str) -> str:
        """What ended the challenge, for a refusal: a challenge taken whose match is
        still being made is shown waiting (`shown`), but it is accepted already."""
        shown_now = await self.get(challenge_id)
        return "accepted" if shown_now["status"] == "pending" else str(shown_now["status"])

    async def _notify(self, conn: Any, notice: Notice) -> None:
        await write_notices(conn, [notice], self.channels.names, int(self.clock() * 1000))

    @staticmethod
    async def _name(conn: Any, account_id: int) -> str | None:
        found = (await conn.execute(select(accounts.c.name).where(accounts.c.id == account_id))).scalar()
        return None if found is None else str(found)

    def _tell(self, *account_ids: int) -> None:
        for account_id in account_ids:
            self.nudges.nudge(person_key(account_id))


def _pending(now: datetime) -> Any:
    return and_(challenges.c.status == "pending", challenges.c.expires_at > now)


def _shown() -> Any:
    challenger, challenged = accounts.alias("challenger"), accounts.alias("challenged")
    return (select(challenges, challenger.c.name.label("challenger_name"),
                   challenged.c.name.label("challenged_name"), challenged.c.computer.label("computer"))
            .join(challenger, challenger.c.id == challenges.c.challenger_id)
            .outerjoin(challenged, challenged.c.id == challenges.c.challenged_id))


def shown(row: Any, now: datetime) -> dict[str, Any]:
    """A challenge as the API and the pages show it (no secret in it: nothing to hide)."""
    status = "expired" if row.status == "pending" and row.expires_at <= now else row.status
    if status == "accepted" and row.match_id is None:
        # Taken, its match still being made (`_accept`): to everyone else it still
        # waits. An "accepted" without its match would tell the challenger's page
        # the answer with nowhere to go, and the next message, with the match, is
        # then no news.
        status = "pending"
    return {"id": row.id, "challenger": row.challenger_name, "challenged": row.challenged_name,
            "computer": row.computer is not None, "variant": row.options.get("variant", "standard"),
            "time_control": row.options.get("time_control"), "colour": row.colour, "rated": row.rated,
            "no_progress_rounds": row.options.get("no_progress_rounds", DEFAULT_NO_PROGRESS_ROUNDS),
            "open": bool(row.open),
            "status": status, "reason": row.reason,
            "reason_text": DECLINE_REASONS.get(row.reason or "") if status == "declined" else None,
            "url": f"/challenges/{row.id}", "match_id": row.match_id, "created_at": _moment(row.created_at), "expires_at": _moment(row.expires_at)}


def _moment(at: datetime) -> str:
    return at.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
