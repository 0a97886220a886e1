"""An address as a player may give it: one @, a local part of RFC 5322's
ASCII characters and a domain with a dot, at most 254 characters (RFC 5321's
path limit). Whether it exists only its verification tells."""

from __future__ import annotations

import re

from .errors import MailError

# The API's schema holds the same pattern (app/api/account_email.py), so a
# request the schema admits is never refused for its shape. Written in ASCII
# classes only: `\s` means other characters in Python, JavaScript and Rust (the
# schema's validator), and an address's local part beyond ASCII needs SMTPUTF8,
# which not every relay speaks.
ADDRESS = (r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
           r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$")
_SHAPE = re.compile(ADDRESS)
KINDS = ("turn", "challenge", "digest")  # the kinds a player turns on and off
# The kind whose switch decides each mail that is sent: an alarm is about one's turn.
SWITCH = {"turn": "turn", "alarm": "turn", "challenge": "challenge", "digest": "digest"}


def checked(address: object) -> str:
    if not isinstance(address, str):
        raise MailError(400, "bad_request", "address is a string: an email address", "address")
    address = address.strip()
    if len(address) > 254 or not _SHAPE.fullmatch(address):
        raise MailError(400, "bad_request", "address is not an email address (name@example.org)", "address")
    return address


def masked(address: str) -> str:
    """The address as a log line may show it: enough to tell two apart, no more."""
    local, _, domain = address.partition("@")
    return f"{local[:1]}…@{domain}"
