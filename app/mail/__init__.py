"""Email (docs/api.md "Email"): an account's address, verified by a signed link
before anything else is sent to it; preferences per kind; RFC 8058 one-click
unsubscribe; the daily digest; and `Mailer.deliver`, the email channel the
outbox hands each notification to (Delivered, RetryLater or Gone)."""

from .digest import digests_forever, send_digests
from .errors import MailError
from .outcomes import Delivered, Gone, Outcome, RetryLater
from .service import Mailer, Notice

__all__ = ["Delivered", "Gone", "MailError", "Mailer", "Notice", "Outcome", "RetryLater", "digests_forever",
           "send_digests"]
