"""The HTTP API under /api/v1: routers per resource, errors as the contract's JSON."""

from fastapi import APIRouter

from app.accounts.profiles import Profiles
from app.matches import Gateway
from app.matches.reads import Reads

from . import matches, replays, users, vocabulary


def router(gateway: Gateway, reads: Reads, profiles: Profiles) -> APIRouter:
    api = APIRouter(prefix="/api/v1")
    api.include_router(matches.router(gateway, reads))
    api.include_router(replays.router(reads))
    api.include_router(vocabulary.router())
    api.include_router(users.router(profiles))  # issue 19: players' public profiles
    return api


__all__ = ["router"]
