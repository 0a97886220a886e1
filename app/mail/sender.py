"""One message handed to the SMTP server, its fate told as an outcome.

The server's words decide: a connection that fails, times out or drops, and
any 4xx, are passing troubles (RetryLater); a 5xx refusal of the recipient is
the address's, for good (Gone "bounced": the address is marked and gets no more
mail until verified again); any other 5xx (the sender, the credentials, the
message) is the server's lasting refusal of this mail (Gone "refused", logged
as an error: the configuration needs a look).
"""

from __future__ import annotations

import logging
from email.message import EmailMessage

import aiosmtplib

from .outcomes import Delivered, Gone, Outcome, RetryLater
from .smtp_url import SmtpTarget

log = logging.getLogger(__name__)


async def send(target: SmtpTarget, message: EmailMessage, timeout: float) -> Outcome:
    try:
        await aiosmtplib.send(
            message, hostname=target.host, port=target.port, username=target.user, password=target.password,
            use_tls=target.implicit_tls, start_tls=None if not target.implicit_tls else False, timeout=timeout)
    except aiosmtplib.SMTPRecipientsRefused as refused:
        codes = [r.code for r in refused.recipients]
        if codes and all(500 <= c < 600 for c in codes):
            return Gone("bounced")
        return RetryLater(f"recipient refused for now ({', '.join(map(str, codes))})")
    except aiosmtplib.SMTPResponseException as answered:
        if 500 <= answered.code < 600:
            log.error("the SMTP server refused a mail for good: %s %s", answered.code, answered.message)
            return Gone("refused")
        return RetryLater(f"{answered.code} {answered.message}")
    except (aiosmtplib.SMTPException, OSError) as failed:  # refused, unreachable, timed out, dropped
        return RetryLater(type(failed).__name__)
    return Delivered()
