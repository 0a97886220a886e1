"""The HTTP API under /api/v1: routers per resource, errors as the contract's JSON."""

from fastapi import APIRouter

from app.matches import Gateway
from app.matches.reads import Reads

from . import matches, replays, vocabulary


def router(gateway: Gateway, reads: Reads) -> APIRouter:
    api = APIRouter(prefix="/api/v1")
    api.include_router(matches.router(gateway, reads))
    api.include_router(replays.router(reads))
    api.include_router(vocabulary.router())
    return api


__all__ = ["router"]
