"""Long-lived connections counted per client address, up to a cap: the match
sockets (hub.py) and the pages' person channels (app/people/channel.py)
each keep one, with their own cap, so that one address cannot hold a process's
connections (or its open files) all to itself. An IPv6 address counts as its
/64 (app/kernel/networks.py). Counted in this process's memory; with Redis, over
every process (held_in_redis.py)."""

from __future__ import annotations

from app.kernel.networks import network_of


class PerAddress:
    def __init__(self, cap: int) -> None:
        self.cap = cap  # the most one address holds at once (0: no cap)
        self._held: dict[str, int] = {}

    def take(self, address: str) -> bool:
        """Count one more for `address`; False (nothing counted) when it holds its cap."""
        address = network_of(address)
        held = self._held.get(address, 0)
        if self.cap and held >= self.cap:
            return False
        self._held[address] = held + 1
        return True

    async def claim(self, address: str) -> bool:
        """`take`, as a counter held elsewhere answers it: after a round trip."""
        return self.take(address)

    def give_back(self, address: str) -> None:
        address = network_of(address)
        held = self._held.get(address, 0) - 1
        if held > 0:
            self._held[address] = held
        else:
            self._held.pop(address, None)  # an address that holds nothing is not kept

    def of(self, address: str) -> int:
        return self._held.get(network_of(address), 0)

    def total(self) -> int:
        return sum(self._held.values())

    def addresses(self) -> int:
        return len(self._held)
