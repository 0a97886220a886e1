"""One counter of connections per client address (app/realtime/per_address.py),
used by both the match sockets (the hub) and the pages' person channels."""

from __future__ import annotations

from app.people.channel import PersonChannel, TooManyChannels
from app.realtime.hub import Hub
from app.realtime.per_address import PerAddress


def test_an_address_holds_at_most_its_cap_and_is_forgotten_when_it_holds_none() -> None:
    counted = PerAddress(2)
    assert counted.take("a") and counted.take("a") and not counted.take("a")
    assert counted.take("b") and (counted.of("a"), counted.total()) == (2, 3)
    counted.give_back("a")
    assert counted.take("a")
    for _ in range(3):
        counted.give_back("a")  # one too many gives nothing back below none
    assert (counted.of("a"), counted.addresses()) == (0, 1)
    unbounded = PerAddress(0)
    assert all(unbounded.take("a") for _ in range(100))


async def test_the_sockets_and_the_channels_count_with_it() -> None:
    hub = Hub(source=None, sockets_per_address=1)  # type: ignore[arg-type]
    channel = PersonChannel(None, hub.nudges, 1, 1.0, 1.0)  # type: ignore[arg-type]
    assert isinstance(hub.by_address, PerAddress) and isinstance(channel.by_address, PerAddress)
    assert await hub.reserve("10.0.0.1") and not await hub.reserve("10.0.0.1")
    await channel.reserve("10.0.0.1")  # its own cap: the sockets' count is not the channels'
    try:
        await channel.reserve("10.0.0.1")
        raise AssertionError("a second channel was let through")
    except TooManyChannels as refused:
        assert "holds 1 live channels" in refused.detail
    hub.release("10.0.0.1")
    channel.release("10.0.0.1")
    assert hub.by_address.total() == 0 and channel.open_count() == 0
