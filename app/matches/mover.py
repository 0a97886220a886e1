"""Playing an action: the engine's step, and the answer to a resend.

An action names the version it was chosen on. On the current version it is
played; on an older one it is either a resend of an action that landed (answered
as the first time, applying nothing twice, and said to be a replay) or stale. A
client's action id names one action: used again for another action, or the same
action on another version, it is refused (`id_taken`), never taken for a resend.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from app.kernel.errors import BadRequest
from app.rules import (
    IllegalAction,
    MalformedAction,
    MatchOver,
    Played,
    action_json,
    apply_steps,
    parse_action,
)

from . import store
from .errors import IdTaken, Illegal, MatchIsOver, NotYourTurn, StaleVersion
from .keeper import MatchKeeper
from .reads import Reads
from .record import COLOURS, Record, other
from .shapes import MatchState

log = logging.getLogger(__name__)
# Log entries that change neither the position nor whose turn it is (an
# accepted takeback changes both: it is not talk).
TALK = frozenset({"join", "draw_offer", "draw_decline", "draw_withdraw",
                  "takeback_offer", "takeback_decline", "takeback_withdraw", "give_time",
                  "berserk"})


@dataclass(slots=True)
class Acted:
    """What act answers: the match now, the version the action reached, and
    whether it had landed before (a resend)."""

    match: MatchState
    version: int
    duplicate: bool = False
    match_json: str | None = None  # `match` encoded already, when it is
    resent_from: int | None = None  # a resend: the version its first landing made


class Mover:
    def __init__(self, keeper: MatchKeeper, reads: Reads) -> None:
        self.keeper, self.reads = keeper, reads

    async def act(
        self, match_id: str, colour: str, action: Any, version: int, client_id: str | None = None,
    ) -> Acted:
        """Play `action` for `colour` on `version` (`POST /matches/{id}/actions`)."""
        keeper = self.keeper
        try:
            parsed: Played = parse_action(action)
        except MalformedAction as error:
            raise BadRequest(str(error)) from None
        wanted = action_json(parsed)

        async def decide(rec: Record, now: int) -> Acted | None:
            if version != rec.version:
                if rec.entries:  # a flag fell just now: too late, unless it landed before
                    try:
                        return await self._resent(rec, colour, wanted, version, client_id)
                    except (StaleVersion, MatchIsOver):
                        raise MatchIsOver("time ran out before this action") from None
                if not await self._only_talk_since(rec, version):
                    return await self._resent(rec, colour, wanted, version, client_id)
            try:
                steps = self._steps(rec, colour, parsed)
            except (NotYourTurn, Illegal, MatchIsOver, BadRequest):
                if client_id:  # an id used before is said first: the refusal that holds whatever the turn
                    await self._id_unused(rec, client_id, colour, wanted, version)
                raise
            if rec.draw_offer == other(colour):  # moving on answers an offer: no
                rec.draw_offer = None
                rec.draw_ops.append(("lapsed", None))
            if rec.takeback_offer is not None:  # a choice played: the ask was about the match before it
                rec.takeback_offer, rec.takeback_changed = None, True
            for i, (mover, step, state) in enumerate(steps):
                rec.state = state
                keeper.turn_done(rec, now, moved=i == 0)
                keeper.log(rec, COLOURS[mover], action_json(step), i > 0, now, client_id if i == 0 else None)
            return None

        # A version behind the cache may only mean another process moved on.
        cached = keeper.cache.get(match_id)
        fresh = cached is None or cached.version != version
        try:
            rec, answer = await keeper.mutate(match_id, decide, fresh=fresh)
        except store.ClientIdTaken:
            rec = await keeper.get(match_id, fresh=True)
            answer = await self._resent(rec, colour, wanted, version, client_id)
        if answer is not None:
            if answer.resent_from is not None:  # outside the match's lock
                await self._republish(match_id, answer.resent_from)
            return answer
        last = rec.entries[-1]
        return Acted(last.public, rec.version, match_json=last.public_text())

    def _steps(self, rec: Record, colour: str, parsed: Played) -> Any:
        """The engine's steps of `colour` playing `parsed` now, or the refusal."""
        self.keeper.guard_running(rec)
        if rec.seat_to_move() != colour:
            raise NotYourTurn(f"it is {rec.seat_to_move()}'s turn, not {colour}'s")
        try:
            return apply_steps(rec.state, parsed)
        except MatchOver:
            raise MatchIsOver() from None
        except IllegalAction as error:
            raise Illegal(str(error)) from None
        except MalformedAction as error:
            raise BadRequest(str(error)) from None

    async def _id_unused(self, rec: Record, client_id: str, colour: str, wanted: dict[str, Any],
                         version: int) -> Any:
        """Refuse (`id_taken`) a client id that names another action of the match, or
        the same one on another version; answer the entry of a true resend, or None.
        Read only when the action is not simply played: the hot path learns of a
        used id from the log's unique index."""
        first = await store.entry_by_client_id(self.keeper.engine, rec.id, client_id)
        if first is not None and not await self._same_request(rec, first, colour, wanted, version):
            used_on = first.version - 1
            raise IdTaken(f"the action id {client_id!r} was used on version {used_on} for another action "
                          "of this match: an id names one action; give a new action a new id",
                          used_on=used_on)
        return first

    async def _resent(
        self, rec: Record, colour: str, wanted: dict[str, Any], version: int, client_id: str | None,
    ) -> Acted:
        """An action on a version that is not the current one: a resend of one
        that landed answers as it did; anything else is stale."""
        engine = self.keeper.engine
        first = None
        if client_id:
            first = await self._id_unused(rec, client_id, colour, wanted, version)
        if first is None and 0 <= version < rec.version:
            at = await store.entry_after(engine, rec.id, version, skip=TALK)
            if at is not None and not at.automatic and at.player == colour and at.action == wanted:
                first = at
        if first is not None:
            landed, public = await store.answer_of(engine, rec.id, first.version)
            return Acted(public, landed, duplicate=True, resent_from=first.version)
        if rec.status == "finished":
            raise MatchIsOver()
        raise StaleVersion(rec.version)

    async def _same_request(self, rec: Record, first: Any, colour: str, wanted: dict[str, Any],
                            version: int) -> bool:
        """A resend of the entry `first` (found by its id): the same seat, the same
        action, and the same version, i.e. the one it was played on, or an earlier
        one with nothing but talk since (where the same action lands in the same
        place: the first could have been sent on it)."""
        if first.player != colour or first.action != wanted:
            return False
        played_on = first.version - 1
        if version == played_on:
            return True
        if not 0 <= version < played_on:
            return False
        at = await store.entry_after(self.keeper.engine, rec.id, version, skip=TALK)
        return at is not None and at.version == first.version

    async def _republish(self, match_id: str, version: int) -> None:
        """Publish again what landed from `version` on. A resend often follows an
        answer lost after its commit, and then the updates never went out: without
        this, watchers would wait for the next action to fill the gap. Each socket
        skips what it has already."""
        try:
            updates = await self.reads.updates_since(match_id, version - 1)
        except Exception:
            log.exception("reading again the updates of match %s failed", match_id)
            return
        if updates:
            await self.keeper.publish(match_id, updates)

    async def _only_talk_since(self, rec: Record, version: int) -> bool:
        """Whether every entry after `version` left the game as it was (a join, a
        draw offer or its answer): an action made on `version` still fits, and
        refusing it as stale would let an opponent stall a player with offers."""
        if not 0 <= version < rec.version:
            return False
        return await store.entry_after(self.keeper.engine, rec.id, version, skip=TALK) is None
