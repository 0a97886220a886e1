"""One message handed to the SMTP server, its fate told as an outcome.

The mail is the server's once it answered the message's DATA with 250; then,
before the session's QUIT, `accepted()` is awaited (the outbox's mail notes
there that it was sent), so a process dying after the server took the mail
has almost always noted it first.

The server's words decide: a connection that fails, times out or drops, and
any 4xx, are passing troubles (RetryLater); a 5xx refusal of the recipient is
the address's, for good (Gone "bounced": the address is marked and gets no more
mail until verified again); any other 5xx (the sender, the credentials, the
message) is the server's lasting refusal of this mail (Gone "refused", logged
as an error: the configuration needs a look).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from email.message import EmailMessage

import aiosmtplib

from .outcomes import Delivered, Gone, Outcome, RetryLater
from .smtp_url import SmtpTarget

log = logging.getLogger(__name__)


async def send(target: SmtpTarget, message: EmailMessage, timeout: float,
               accepted: Callable[[], Awaitable[None]] | None = None) -> Outcome:
    client = aiosmtplib.SMTP(hostname=target.host, port=target.port, username=target.user, password=target.password,
                             use_tls=target.implicit_tls, start_tls=None if not target.implicit_tls else False,
                             timeout=timeout)
    taken = False
    try:
        async with client:  # connects (and logs in); QUIT on leaving
            await client.send_message(message)
            taken = True
            if accepted is not None:
                try:
                    await accepted()
                except Exception:  # sent all the same: said so, and not sent again by this try
                    log.exception("a mail the SMTP server took could not be noted as sent")
    except (aiosmtplib.SMTPException, OSError) as failed:
        if taken:  # only the QUIT failed: the mail is the server's
            return Delivered()
        return _outcome(failed)
    return Delivered()


def _outcome(failed: aiosmtplib.SMTPException | OSError) -> Outcome:
    if isinstance(failed, aiosmtplib.SMTPRecipientsRefused):
        codes = [r.code for r in failed.recipients]
        if codes and all(500 <= c < 600 for c in codes):
            return Gone("bounced")
        return RetryLater(f"recipient refused for now ({', '.join(map(str, codes))})")
    if isinstance(failed, aiosmtplib.SMTPResponseException):
        if 500 <= failed.code < 600:
            log.error("the SMTP server refused a mail for good: %s %s", failed.code, failed.message)
            return Gone("refused")
        return RetryLater(f"{failed.code} {failed.message}")
    return RetryLater(type(failed).__name__)  # refused, unreachable, timed out, dropped
