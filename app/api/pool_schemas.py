"""The bodies of quick pairing's calls (docs/api.md, "Quick pairing"), with examples."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .schemas import NAME_RULES, Colour, Name, Strict

POOL_EXAMPLE: dict[str, Any] = {"id": "standard:10+5", "variant": "standard", "control": "10+5", "words": "10+5",
                "time_control": {"type": "realtime", "minutes": 10, "increment": 5}, "waiting": 1}
WAITING_EXAMPLE: dict[str, Any] = {"status": "waiting", "pools": ["standard:10+5"], "waited_seconds": 21.4,
                   "computer": {"level": "greedy", "opponent": "bot:greedy", "pool": "standard:10+5",
                                "options": {"variant": "standard",
                                            "time_control": {"type": "realtime", "minutes": 10, "increment": 5}},
                                "rated": False},
                   "match": None, "rating_range": {"rating": 1500, "within": 675, "most": 1000}}
PAIRED_EXAMPLE: dict[str, Any] = {"status": "paired", "pools": ["standard:10+5"], "waited_seconds": 0.0, "computer": None,
                  "match": {"id": "ec60lFT8BdN4", "seat": "black",
                            "token": "kJ3v0m7QeX1s9c4tB2yW8dL6hR5nA0pU_zVgTq1oF2E"}}


class JoinPool(Strict):
    name: Name = Field("anonymous", description="a guest's name in the match; an account plays as itself" + NAME_RULES)
    bots: bool = Field(False, description="an account willing to be paired with a bot account (a program); "
                                          "a bot account meets only such players and other bots")


class PoolInfo(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [POOL_EXAMPLE]})

    id: str = Field(description="variant:control")
    variant: str
    control: str = Field(description='"5+3", "10+5", "15+10" (minutes + increment seconds) or "1d" (a day a move)')
    words: str = Field(description='the control in words: "10+5", "1 day"')
    time_control: dict[str, Any] = Field(description="the time control of a match made in this pool")
    waiting: int = Field(description="players waiting in it now")


class PoolList(BaseModel):
    pools: list[PoolInfo]


class Offer(BaseModel):
    """The computer offered after a wait with nobody to pair: create the match
    with `POST /matches` {"opponent": opponent, "options": options, "rated": rated}."""

    level: str
    opponent: str
    pool: str
    options: dict[str, Any]
    rated: bool


class PoolPairing(BaseModel):
    id: str = Field(description="the match's id")
    seat: Colour
    token: str | None = Field(description="a guest's seat token (keep it; only you get it); null for an "
                                          "account, whose seat is the account's")


class RatingReach(BaseModel):
    rating: int = Field(description="your rating in the pool's variant (the pool you have waited in longest)")
    within: int = Field(description="you are paired with a player within this many points of it, now")
    most: int = Field(description="how wide the range grows at most")


class PoolAnswer(BaseModel):
    """Where you stand: still waiting (ask again), or paired (go to the match)."""

    model_config = ConfigDict(json_schema_extra={"examples": [WAITING_EXAMPLE, PAIRED_EXAMPLE]})

    status: Literal["waiting", "paired"]
    pools: list[str] = Field(description="the pools you wait in (paired: the pool of the pairing)")
    waited_seconds: float = Field(description="how long you have waited, in seconds")
    computer: Offer | None = Field(description="the computer, offered once you have waited POOL_OFFER_SECONDS")
    match: PoolPairing | None = Field(description="the match you are paired in")
    rating_range: RatingReach | None = Field(None, description="an account waiting: the ratings it may be "
                                                               "paired with now (it widens as you wait)")
    ticket: str | None = Field(None, description="a guest's ticket, given by its first join only: send it as "
                                                 "Authorization: Bearer <ticket> to wait, join more pools and leave")
