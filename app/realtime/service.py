"""What the hub reads of the match service (`MatchSource`), and the thin adapter
that serves it from the service (`ServiceSource`); tests stand a log in for it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from app.kernel.errors import NotFound
from app.matches import MatchService

from .nudges import Nudges


class MatchSource(Protocol):
    """What the hub reads from the match service (the database behind it)."""

    async def snapshot(self, match_id: str) -> Mapping[str, Any] | None:
        """The public state now (it carries its `version`), or None: no such match."""

    async def updates_since(self, match_id: str, version: int) -> list[dict[str, Any]] | None:
        """The contract's update messages after `version`, in order; None when the
        log cannot say (too old, or no such match)."""

    async def seat_presence(self, match_id: str, colour: str, connected: bool) -> None:
        """A seat's first socket in this process opened, or its last one closed."""

    async def touch(self, seats: list[tuple[str, str]]) -> None:
        """These seats (match id, colour) hold a socket here: connected, seen now
        (one statement for them all)."""

    async def seats_here(self, match_ids: list[str]) -> dict[str, dict[str, bool]]:
        """Which seats of these matches are here, by the rule REST shows:
        {match id: {colour: bool}} (a match or seat left out is not here)."""


class ServiceSource:
    def __init__(self, service: MatchService) -> None:
        self.service = service

    async def snapshot(self, match_id: str) -> Mapping[str, Any] | None:
        try:
            return await self.service.reads.get(match_id)
        except NotFound:
            return None

    async def updates_since(self, match_id: str, version: int) -> list[dict[str, Any]] | None:
        try:
            return await self.service.reads.updates_since(match_id, version)
        except NotFound:
            return None

    async def seat_presence(self, match_id: str, colour: str, connected: bool) -> None:
        await self.service.seats.set_connected(match_id, colour, connected)

    async def seats_here(self, match_ids: list[str]) -> dict[str, dict[str, bool]]:
        return await self.service.seats.here(match_ids)

    async def touch(self, seats: list[tuple[str, str]]) -> None:
        await self.service.seats.held(sorted(set(seats)))


def share_claims(service: MatchService, nudges: Nudges) -> None:
    """A seat claimed into an account on this process is seen as the account's
    on every process: the claim nudges `seats:<match id>`, and each process that
    hears it (or lost the bus meanwhile) forgets its cached record of the match,
    which a claim leaves at the same version (app.matches.claims)."""
    service.claims.on_claim(lambda match_id: nudges.nudge(f"{SEATS}{match_id}"))
    nudges.on(SEATS, service.keeper.cache.drop)


SEATS = "seats:"  # the nudges' prefix of a claimed seat (app/realtime/nudges.py)


def share_closings(service: MatchService, nudges: Nudges) -> None:
    """A closed account's seat tokens are revoked on every process: the closing
    nudges `closed:<account id>`, and each process that hears it (or lost the
    bus meanwhile: then every record) forgets its cached records holding a seat
    of that account, which the revocation left at the same version."""
    leaving = service.leaving
    leaving.on_left(lambda account_id: nudges.nudge(f"{CLOSED}{account_id}"))
    nudges.on(CLOSED, lambda rest: leaving.forget(int(rest) if rest and rest.isdigit() else None))


CLOSED = "closed:"  # the nudges' prefix of a closed account
