"""The push channel as the notifications' outbox knows it (app/notify): each
outbox item said as a push (`PushItem`), and the push's outcome said in the
outbox's words. The push channel itself (sending.py) keeps its own richer
outcome (how many browsers took it, or why none was needed) for its callers."""

from __future__ import annotations

from app.notify import Delivered, Gone, OutboxItem, RetryLater
from app.notify.channel import Outcome
from app.notify.kinds import YOUR_TURN

from . import outcomes
from .payload import PushItem
from .sending import PushChannel

TITLES = {YOUR_TURN: "Your turn"}  # a push's title; the others read as the site's
URGENT = {YOUR_TURN}  # a player's clock runs: delivered before a phone's idle batch


def push_item(item: OutboxItem) -> PushItem:
    """What the browser is shown: the notice's sentence, and the match's page to
    open when it is about a match (else the home page, where the bell is)."""
    match_id = item.match_id
    return PushItem(account_id=item.account_id, kind=item.kind, title=TITLES.get(item.kind, "Magery Online"),
                    body=item.text, url=f"/matches/{match_id}" if match_id else "/", match_id=match_id,
                    urgency="high" if item.kind in URGENT else "normal", notice_id=item.id)


def in_outbox_words(outcome: outcomes.Outcome) -> Outcome:
    if isinstance(outcome, outcomes.Delivered):  # sent, or needing no push (the player watches the match)
        return Delivered()
    if isinstance(outcome, outcomes.RetryLater):
        return RetryLater(outcome.reason, outcome.after_seconds)
    return Gone(outcome.reason)


class PushNotices:
    """The outbox's channel "push"."""

    name = "push"

    def __init__(self, channel: PushChannel) -> None:
        self.channel = channel

    async def deliver(self, item: OutboxItem) -> Outcome:
        return in_outbox_words(await self.channel.deliver(push_item(item)))
