"""The email channel as the notifications' outbox knows it (app/notify): each
outbox item said in the mail's kinds and facts, and the mail's outcome said in
the outbox's words.

An item's outbox id is the mail's once-key, noted when the SMTP server took the
mail (before the session's QUIT): a sender that takes the item again after its
holder died finds it noted and sends nothing more (told as Delivered: it was),
and one whose holder died before the server took it sends it. Only a death
between the server's 250 and the note sends it twice, with the same
Message-ID (docs/reliability.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.notify import Delivered, Gone, OutboxItem, RetryLater
from app.notify.channel import Outcome
from app.notify.kinds import CHALLENGE, CLOCK_ALARM, YOUR_TURN

from . import outcomes
from .service import Mailer

# The inbox's kinds a mail is written for, and the mail's own kind for each.
MAIL_KINDS = {YOUR_TURN: "turn", CLOCK_ALARM: "alarm", CHALLENGE: "challenge"}


@dataclass(slots=True)
class MailNotice:
    account_id: int
    kind: str
    payload: Mapping[str, Any]


def mail_notice(item: OutboxItem) -> MailNotice | None:
    kind = MAIL_KINDS.get(item.kind)
    if kind is None:
        return None
    data = item.data
    if kind == "challenge":
        return MailNotice(item.account_id, kind, {"challenger": data.get("by")})
    return MailNotice(item.account_id, kind, {"match_id": data.get("match_id"), "opponent": data.get("opponent"),
                                              "hours_left": data.get("hours_left")})


def in_outbox_words(outcome: outcomes.Outcome) -> Outcome:
    if isinstance(outcome, outcomes.Delivered):
        return Delivered()
    if isinstance(outcome, outcomes.Gone) and outcome.reason == "sent_already":
        return Delivered()  # by a holder that died before it could say so
    if isinstance(outcome, outcomes.RetryLater):
        return RetryLater(outcome.reason)
    return Gone(outcome.reason)


class MailNotices:
    """The outbox's channel "email"."""

    name = "email"

    def __init__(self, mailer: Mailer) -> None:
        self.mailer = mailer

    async def deliver(self, item: OutboxItem) -> Outcome:
        notice = mail_notice(item)
        if notice is None:
            return Gone("no mail is written for this kind")
        return in_outbox_words(await self.mailer.deliver(notice, once_key=f"outbox:{item.id}",
                                                           claim_first=False))
