"""The HTTP API under /api/v1: routers per resource, errors as the contract's JSON."""

from fastapi import APIRouter

from . import history, matches

router = APIRouter(prefix="/api/v1")
router.include_router(matches.router)
router.include_router(history.router)

__all__ = ["router"]
