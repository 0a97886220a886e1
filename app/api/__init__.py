"""The HTTP API under /api/v1: routers per resource, errors as the contract's JSON."""

from fastapi import APIRouter

from app.matches import Door
from app.matches.reads import Reads

from . import history, matches, vocabulary


def router(door: Door, reads: Reads) -> APIRouter:
    api = APIRouter(prefix="/api/v1")
    api.include_router(matches.router(door, reads))
    api.include_router(history.router(reads))
    api.include_router(vocabulary.router())
    return api


__all__ = ["router"]
