"""Addresses counted by their network: IPv4 as itself, IPv6 as its /64."""

from __future__ import annotations

import pytest

from app.kernel.networks import network_of
from app.realtime.per_address import PerAddress


@pytest.mark.parametrize(("address", "network"), [
    ("203.0.113.9", "203.0.113.9"),
    ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
    ("2001:DB8:1:2::ffff", "2001:db8:1:2::/64"),  # however it is written
    ("::ffff:203.0.113.9", "203.0.113.9"),  # IPv4 written the IPv6 way is the IPv4 address
    ("fe80::1%eth0", "fe80::/64"),
    ("testclient", "testclient"),  # not an address: counted as written
])
def test_the_network_an_address_counts_as(address: str, network: str) -> None:
    assert network_of(address) == network


def test_one_64_shares_one_cap_of_sockets() -> None:
    held = PerAddress(cap=2)
    assert held.take("2001:db8::1") and held.take("2001:db8::2")
    assert not held.take("2001:db8::ffff:1")  # the same /64: its cap is held
    assert held.take("2001:db8:0:1::1")  # the next /64
    held.give_back("2001:db8::2")
    assert held.of("2001:db8::9") == 1 and held.take("2001:db8::9")
