"""Which push endpoints the server will ever call: those of the known push
services, over https, and nothing else.

A browser's subscription names the address the server POSTs to when it pushes.
Taken as sent, it would let anyone make the server call any address it can
reach (SSRF): its own admin port, a cloud's metadata service, a private
network. So an endpoint is accepted only when it is plainly written (printable
ASCII, no user info, no backslash, no fragment, no port but https's own) and
its host is one of `PUSH_ENDPOINT_HOSTS` (app/config.py). A host entry is a
lowercase DNS name, or `*.` and a name for any one label under it (the push
services of Apple and Microsoft answer from many hosts of one domain). The only
entry that allows plain http, any port, is `http://127.0.0.1`: a test's local
stand-in for a push service, never on by default.

The endpoint is checked when it is posted and again before every push (the
configuration may have changed since), and what is stored is what was checked:
a URL that a parser could read otherwise than this one is refused, not mended.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from app.config import Settings

# The hosts browsers' push services hand out endpoints on (the endpoint of
# Chrome's FCM, Firefox's autopush, Safari's Apple push, Edge's Windows push).
KNOWN_PUSH_HOSTS: tuple[str, ...] = tuple(Settings.model_fields["push_endpoint_hosts"].default)
LOCAL_STAND_IN = "http://127.0.0.1"
MAX_ENDPOINT = 2048  # the column's width; real endpoints are a few hundred characters

_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_NAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})+")
_ONE_LABEL = re.compile(_LABEL)
# What a URL's path and query may hold here: RFC 3986's unreserved, sub-delims,
# ":", "@", "/", "?" and percent escapes. No space, quote, backslash, "#", or
# anything outside ASCII.
_PATH = re.compile(r"[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*")


class BadEndpoint(ValueError):
    """Why an endpoint is refused, in a sentence."""


def check_hosts(entries: list[str]) -> list[str]:
    """`entries` as PUSH_ENDPOINT_HOSTS may hold them; ValueError naming the first
    that is neither a host name, `*.` and a host name, nor `http://127.0.0.1`."""
    for entry in entries:
        name = entry[2:] if entry.startswith("*.") else entry
        numeric = name.rsplit(".", 1)[-1].isdigit()  # an address written as a name
        if entry != LOCAL_STAND_IN and (not _NAME.fullmatch(name) or numeric):
            raise ValueError(f"PUSH_ENDPOINT_HOSTS: {entry!r} is no lowercase host name, '*.' and one, "
                             f"or {LOCAL_STAND_IN!r}")
    return entries


def _host_allowed(host: str, entries: list[str]) -> bool:
    for entry in entries:
        if entry.startswith("*."):
            label, dot, rest = host.partition(".")
            if dot and rest == entry[2:] and _ONE_LABEL.fullmatch(label):
                return True
        elif entry != LOCAL_STAND_IN and host == entry:
            return True
    return False


def checked_endpoint(endpoint: str, entries: list[str]) -> str:
    """`endpoint` when the server may push to it under the allowed `entries`;
    else BadEndpoint saying why."""
    if len(endpoint) > MAX_ENDPOINT:
        raise BadEndpoint(f"longer than {MAX_ENDPOINT} characters")
    if not endpoint.isascii() or not endpoint.isprintable() or any(c in endpoint for c in " \\\"<>^`{|}"):
        raise BadEndpoint("not a plainly written URL (only printable ASCII, no spaces or backslashes)")
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise BadEndpoint("not a URL") from None
    netloc = parts.netloc
    if not endpoint.startswith(f"{parts.scheme}://"):
        raise BadEndpoint("a push endpoint must be an https URL, written in lowercase")
    if "@" in netloc:
        raise BadEndpoint("a push endpoint carries no user name or password")
    if parts.fragment or "#" in endpoint:
        raise BadEndpoint("a push endpoint has no fragment")
    host = parts.hostname or ""
    local = parts.scheme == "http" and LOCAL_STAND_IN in entries and netloc.split(":")[0] == "127.0.0.1"
    if parts.scheme != "https" and not local:
        raise BadEndpoint("a push endpoint must be an https URL")
    if not local:
        if port is not None:
            raise BadEndpoint("a push endpoint names no port (a push service answers on https's own)")
        if netloc != host or not _NAME.fullmatch(host):
            raise BadEndpoint("a push endpoint's host must be a plain lowercase host name")
        if not _host_allowed(host, entries):
            raise BadEndpoint(f"{host} is not a known push service (PUSH_ENDPOINT_HOSTS)")
    elif netloc not in ("127.0.0.1", f"127.0.0.1:{port}") or port == 0:
        raise BadEndpoint("not a URL of the local stand-in")
    rest = endpoint[len(f"{parts.scheme}://{netloc}"):]
    if not rest.startswith("/") or not _PATH.fullmatch(rest):
        raise BadEndpoint("a push endpoint's path holds characters no push service uses")
    return endpoint
