"""The HTTP API under /api/v1: one router per resource, errors as the contract's JSON.

Each resource's module holds its routes at module level; the parts a route uses
come through the aliases of deps.py, read from the parts the app was built with.
"""

from typing import Any

from fastapi import APIRouter
from starlette.routing import WebSocketRoute

from . import (
    account,
    account_email,
    analysis,
    challenges,
    chat,
    events_stream,
    match_stream_route,
    matches,
    notifications,
    oauth,
    offers,
    pools,
    push,
    puzzles,
    replays,
    tournament_live,
    tournaments,
    user_export,
    user_status,
    users,
    vocabulary,
    ws,
)

router = APIRouter(prefix="/api/v1")
# In this order: it is the order of the paths in /openapi.json.
for resource in (matches, offers, match_stream_route, replays, analysis, vocabulary, account, account_email, oauth, notifications, user_status, user_export, users,
                 challenges, events_stream, chat, pools, tournaments, tournament_live, push, puzzles):
    router.include_router(resource.router)



class _AppsSocket:
    """The match socket of the app a connection came to (its `parts.socket`)."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        await scope["app"].state.parts.socket(scope, receive, send)


# The socket's declared route: what lists its path, and what the router would
# answer; ws.SocketsInFront serves the sockets ahead of the stack.
SOCKET_ROUTE = WebSocketRoute(ws.PATH, _AppsSocket(), name="match_socket")

__all__ = ["SOCKET_ROUTE", "router"]
