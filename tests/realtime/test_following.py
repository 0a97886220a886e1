"""What the hub tells a bus in lanes (the Redis bus) to follow: a match while
it has a room of sockets here, or while a page waits on its commits here; and
what a lane newly heard makes the hub do: those matches' sockets catch up from
the database and their waiters read again, no other."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.realtime.bus import MemoryBus, Message
from app.realtime.hub import MATCH_CHANGED, Hub

from ..waiting import DEADLINE, until
from .test_hub import Log, Socket, last_version


class Following(MemoryBus):
    """A memory bus that counts what it is told to follow, and keeps the hub's
    catch-up, as a bus in lanes calls it."""

    def __init__(self) -> None:
        super().__init__()
        self.followed: dict[str, int] = {}
        self.back: Callable[..., None] = lambda *a: None

    async def start(self, on_message: Callable[[Message], None], on_reconnect: Callable[..., None]) -> None:
        await super().start(on_message, on_reconnect)
        self.back = on_reconnect

    def follow(self, match_id: str) -> None:
        self.followed[match_id] = self.followed.get(match_id, 0) + 1

    def unfollow(self, match_id: str) -> None:
        self.followed[match_id] -= 1
        if not self.followed[match_id]:
            del self.followed[match_id]


async def test_a_match_is_followed_while_its_room_is_open() -> None:
    bus = Following()
    hub = Hub(Log(), bus, presence_delay=0.0)
    await hub.start()
    first, second = Socket(), Socket()
    a = hub.join("m1", first, None, None)
    b = hub.join("m1", second, None, None)
    assert bus.followed == {"m1": 1}  # one room, one follow
    await hub.leave(a)
    assert bus.followed == {"m1": 1}
    await hub.leave(b)
    await until(lambda: "m1" not in hub.rooms, "the empty room to be dropped")
    assert bus.followed == {}
    await hub.close()


async def test_a_match_a_page_waits_on_is_followed_while_it_waits() -> None:
    bus = Following()
    hub = Hub(Log(), bus)
    await hub.start()
    with hub.nudges.listen(MATCH_CHANGED + "m2", "account:7"):
        with hub.nudges.listen(MATCH_CHANGED + "m2"):
            assert bus.followed == {"m2": 1}  # the key's first waiter follows, no more
        assert bus.followed == {"m2": 1}
    assert bus.followed == {}  # "account:7" is on the site channel: nothing to follow
    await hub.close()


async def test_a_lane_newly_heard_catches_up_its_matches_alone() -> None:
    log, other = Log("m1"), Log("m3")
    bus = Following()

    class Both(Log):
        async def snapshot(self, match_id: str) -> dict[str, Any] | None:
            return await (log if match_id == "m1" else other).snapshot(match_id)

        async def updates_since(self, match_id: str, version: int) -> list[dict[str, Any]] | None:
            return await (log if match_id == "m1" else other).updates_since(match_id, version)

    hub = Hub(Both(), bus)
    await hub.start()
    here, there = Socket(), Socket()
    hub.join("m1", here, None, None)
    hub.join("m3", there, None, None)
    await until(lambda: last_version(here) == 0 and last_version(there) == 0, "both snapshots")
    log.commit()  # committed elsewhere, its announcement never heard
    other.commit()
    with hub.nudges.listen(MATCH_CHANGED + "m1") as m1_waiter, hub.nudges.listen(MATCH_CHANGED + "m3") as m3_waiter:
        bus.back(["m1"])  # m1's lane is heard from now on
        assert await m1_waiter.wait(DEADLINE)  # rung (at once: it was rung before the wait)
        assert not m3_waiter._event.is_set()  # not rung: its waiters have nothing new to read
    await until(lambda: last_version(here) == 1, "m1's socket caught up from the log")
    assert here.versions() == [0, 1]
    assert there.versions() == [0]  # m3's lane was heard all along: nothing to read
    await hub.close()
