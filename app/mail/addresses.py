"""An address as a player may give it: one @, a local part and a domain with a
dot, no spaces or control characters, at most 254 characters (RFC 5321's
path limit). Whether it exists only its verification tells."""

from __future__ import annotations

import re

from .errors import MailError

_SHAPE = re.compile(r"[^@\s\x00-\x1f\x7f]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+")
KINDS = ("turn", "challenge", "digest")  # the kinds a player turns on and off
# The kind whose switch decides each mail that is sent: an alarm is about one's turn.
SWITCH = {"turn": "turn", "alarm": "turn", "challenge": "challenge", "digest": "digest"}


def checked(address: object) -> str:
    if not isinstance(address, str):
        raise MailError(400, "bad_request", "address is a string: an email address", "address")
    address = address.strip()
    if len(address) > 254 or not _SHAPE.fullmatch(address) or any(c in address for c in '<>,;:"()[]\\'):
        raise MailError(400, "bad_request", "address is not an email address (name@example.org)", "address")
    return address


def masked(address: str) -> str:
    """The address as a log line may show it: enough to tell two apart, no more."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}…@{domain}"
