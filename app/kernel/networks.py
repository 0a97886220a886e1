"""The network an address stands for when the server counts or limits by address.

An IPv4 address is one household or one carrier's shared exit, and is counted
as itself. An IPv6 host is usually handed a whole /64 by its provider and may
pick any of its 2**64 addresses at will (privacy addresses change by the hour),
so counting the address would give one person an endless supply of fresh
budgets: an IPv6 address counts as its /64. An IPv4 address written the IPv6
way (::ffff:a.b.c.d) is the IPv4 address. Anything that is not an address (a
test client's "testclient") is counted as written.
"""

from __future__ import annotations

import ipaddress

PREFIX = 64


def network_of(address: str) -> str:
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])  # a zone (fe80::1%eth0) names no other host
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, PREFIX), strict=False))
    return str(parsed)


def network_or_none(address: str | None) -> str | None:
    return None if address is None else network_of(address)
