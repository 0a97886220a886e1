"""The HTTP API under /api/v1: routers per resource, errors as the contract's JSON."""

from fastapi import APIRouter

from app.accounts import Accounts
from app.accounts.profiles import Profiles
from app.challenges import Challenges
from app.chat import Chat
from app.matches import Gateway
from app.matches.reads import Reads
from app.people import PersonChannel
from app.pools import Pools

from . import account, challenges, chat, match_stream, matches, pools, replays, users, vocabulary
from .caller import Callers
from .events_stream import router as events_router
from .match_stream import MatchStreams
from .offers import router as offers_router
from .resends import Resends


def router(gateway: Gateway, reads: Reads, accounts: Accounts, profiles: Profiles,
           people: tuple[Challenges, PersonChannel] | None = None, talk: Chat | None = None,
           quick: Pools | None = None, resends: Resends | None = None,
           live: MatchStreams | None = None) -> APIRouter:
    api = APIRouter(prefix="/api/v1")
    callers = Callers(accounts)  # who calls: a seat's token, an account's token or session
    # The answers kept for Idempotency-Key on create and join (issue 21, item 1).
    resends = resends or Resends(gateway.service.engine)
    api.include_router(matches.router(gateway, reads, callers, resends))
    api.include_router(offers_router(gateway, callers))  # issue 29: takeback, give time
    if live is not None:  # issue 21: a match as a stream of JSON lines
        api.include_router(match_stream.router(live, callers))
    api.include_router(replays.router(reads))
    api.include_router(vocabulary.router())
    api.include_router(account.router(accounts, callers))
    api.include_router(users.router(profiles))  # issue 19: players' public profiles
    if people is not None:  # issue 20: challenges and a person's live channel
        api.include_router(challenges.router(*people, callers))
        api.include_router(events_router(*people, callers))  # issue 21: an account's events
    if talk is not None:
        api.include_router(chat.router(talk, accounts))  # issue 20: the match chat
    if quick is not None:  # issue 20: quick pairing
        api.include_router(pools.router(quick, gateway, callers))
    return api


__all__ = ["router"]
