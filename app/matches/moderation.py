"""A server admin ends a match: abort it, or adjudicate it (a winner or a draw).

It goes through the service's one mutation cycle like a resignation does, so
the ending is saved, logged as an action of the match (player null: the
server) and published to its players and watchers. The log entry says what was
decided and why, and replays like any ending (app/matches/replay.py `ending`).
Unlike a player's abort, an admin's abort is allowed at any phase of a running
match. Who the admin was stays in the admin audit log, not in the public log.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from .errors import BadRequest, MatchIsOver
from .record import Record

if TYPE_CHECKING:
    from .service import MatchService

log = logging.getLogger(__name__)
VERDICTS = ("abort", "white", "black", "draw")
MAX_REASON = 500


async def moderate(service: MatchService, match_id: str, verdict: str, reason: str, admin: str) -> dict[str, Any]:
    """End `match_id` by `verdict` ("abort", or the winner "white" / "black", or
    "draw") for `reason`; answers the public state after it."""
    if verdict not in VERDICTS:
        raise BadRequest(f"verdict is one of {', '.join(VERDICTS)}")
    note = reason.strip() if isinstance(reason, str) else ""
    if not note:
        raise BadRequest("a moderation needs a reason, for the players and the audit log")
    if len(note) > MAX_REASON:
        raise BadRequest(f"the reason is at most {MAX_REASON} characters")

    async def decide(rec: Record, now: int) -> None:
        if verdict == "abort":
            if rec.status == "finished":
                raise MatchIsOver()
            action: dict[str, Any] = {"type": "abort", "by": "admin", "note": note}
        else:
            service._guard_running(rec)  # a waiting match has no game to adjudicate
            action = {"type": "adjudicate", "winner": None if verdict == "draw" else verdict, "note": note}
        service._end(rec, None, action, now)

    rec, _ = await service._mutate(match_id, decide, fresh=True)
    log.info("match %s ended by admin %s: %s", match_id, admin, verdict)
    return service.present(rec)
