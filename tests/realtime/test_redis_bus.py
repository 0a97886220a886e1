"""The Redis bus on its own, against the real Redis (TEST_REDIS_URL; skipped
when none answers, failed under CI=true): what one process sends, another that
follows the match hears, in order; a process follows only the lanes of its
matches (Redis's own count of subscribers says so); nudges reach every process;
a cut link comes back and says so; nothing sent meanwhile is lost."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis

from app.realtime.bus import Announcement, Message, Nudge, Presence
from app.realtime.redis_bus import LANES, RedisBus, lane_of
from tests.waiting import until


class Heard:
    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.returns: list[list[str] | None] = []

    def message(self, message: Message) -> None:
        self.messages.append(message)

    def back(self, match_ids: list[str] | None = None) -> None:
        self.returns.append(match_ids)

    def versions(self, match_id: str) -> list[int]:
        return [m.version for m in self.messages if isinstance(m, Announcement) and m.match_id == match_id]


@pytest.fixture
async def admin(redis_server: str) -> AsyncIterator[aioredis.Redis]:
    client = aioredis.Redis.from_url(redis_server, decode_responses=True)
    yield client
    await client.aclose()


@pytest.fixture
async def buses(redis_server: str, redis_prefix: str) -> AsyncIterator[Any]:
    made: list[RedisBus] = []

    async def make() -> tuple[RedisBus, Heard]:
        bus, heard = RedisBus(redis_server, prefix=redis_prefix, check_seconds=2.0), Heard()
        await bus.start(heard.message, heard.back)
        made.append(bus)
        return bus, heard

    yield make
    for bus in made:
        await bus.close()


def two_matches_in_two_lanes() -> tuple[str, str]:
    first = "m-lane-a"
    other = next(f"m-lane-{n}" for n in range(1000) if lane_of(f"m-lane-{n}") != lane_of(first))
    return first, other


async def subscribers(admin: aioredis.Redis, channel: str) -> int:
    return int(dict(await admin.pubsub_numsub(channel))[channel])


async def test_a_followed_match_is_heard_in_order_and_only_its_lane_is_subscribed(
        buses: Any, admin: aioredis.Redis) -> None:
    sender, _ = await buses()
    listener, heard = await buses()
    followed, not_followed = two_matches_in_two_lanes()
    listener.follow(followed)
    await until(lambda: listener.lane(followed) in listener.subscribed, "the lane to be subscribed")
    assert listener.subscribed == {listener.site, listener.lane(followed)}
    # Redis itself: one subscriber on the followed lane, none on the other.
    assert await subscribers(admin, listener.lane(followed)) == 1
    assert await subscribers(admin, listener.lane(not_followed)) == 0
    assert heard.returns == [[followed]]  # the newly heard lane's match catches up from the database

    for version in range(1, 201):
        sender.send(Announcement("elsewhere", followed, version))
        sender.send(Announcement("elsewhere", not_followed, version))
    sender.send(Presence("elsewhere", followed, 1, 0, 3, hello=True))
    await until(lambda: any(isinstance(m, Presence) for m in heard.messages), "the presence to be heard")
    assert heard.versions(followed) == list(range(1, 201))
    assert heard.versions(not_followed) == []


async def test_nudges_reach_every_process_and_an_unfollowed_lane_is_left(
        buses: Any, admin: aioredis.Redis) -> None:
    sender, _ = await buses()
    listener, heard = await buses()
    sender.send(Nudge("elsewhere", "chat:m1"))
    await until(lambda: Nudge("elsewhere", "chat:m1") in heard.messages, "the nudge on the site channel")
    match = "m-left"
    listener.follow(match)
    listener.follow(match)  # a room and a waiting page: followed twice
    await until(lambda: listener.lane(match) in listener.subscribed, "the lane to be subscribed")
    listener.unfollow(match)
    assert listener.lane(match) in listener.wanted()  # still followed once
    assert await subscribers(admin, listener.lane(match)) == 1
    listener.unfollow(match)
    await until(lambda: listener.lane(match) not in listener.subscribed, "the lane to be left")
    assert await subscribers(admin, listener.lane(match)) == 0
    assert listener.subscribed == {listener.site}


async def test_a_killed_link_comes_back_says_so_and_loses_nothing_sent_meanwhile(
        buses: Any, admin: aioredis.Redis, redis_prefix: str) -> None:
    sender, _ = await buses()
    listener, heard = await buses()
    match = "m-killed"
    listener.follow(match)
    await until(lambda: listener.lane(match) in listener.subscribed, "the lane to be subscribed")
    sender.send(Announcement("elsewhere", match, 1))
    await until(lambda: heard.versions(match) == [1], "the first announcement")
    # Every link of both buses cut (the listener's and the publisher's).
    ours = [c for c in await admin.client_list() if c.get("name", "").startswith(redis_prefix + ":")]
    assert {c["name"] for c in ours} == {f"{redis_prefix}:listen", f"{redis_prefix}:publish"}
    for client in ours:
        await admin.client_kill_filter(_id=client["id"])
    for version in range(2, 51):  # sent while the links are down or coming back: never raises
        sender.send(Announcement("elsewhere", match, version))
    await until(lambda: None in heard.returns, "the listener to say its link came back")
    assert listener.reconnects >= 1
    assert listener.subscribed == {listener.site, listener.lane(match)}  # its lanes again
    # What was published while the listener was away is the database's to tell
    # (on_reconnect); what came after is heard, and nothing twice.
    sender.send(Announcement("elsewhere", match, 51))
    await until(lambda: 51 in heard.versions(match), "an announcement after the return")
    versions = heard.versions(match)
    assert versions == sorted(set(versions))


def test_lanes_are_the_same_in_every_process() -> None:
    """Not Python's salted hash: a lane is a pure function of the id."""
    assert lane_of("abc") == lane_of("abc") and 0 <= lane_of("abc") < LANES
    assert len({lane_of(f"m{n}") for n in range(2000)}) == LANES
