"""The OpenAPI operation ids: short, chosen and stable, the
names a generated client gives its calls (`createMatch`, not FastAPI's default
`create_match_api_v1_matches_post`, which changes with the path).

Each route's id is its handler's name in camelCase, or the name chosen here
where that reads better. An id, once served, is part of what clients compile
against: rename a handler, and keep its id here.
"""

from __future__ import annotations

from fastapi.routing import APIRoute

CHOSEN = {
    "legal_actions": "getLegalActions",
    "play": "playAction",
    "action_log": "getActionLog",
    "draw": "answerDraw",
    "resign": "resignMatch",
    "claim": "claimResult",
    "abort": "abortMatch",
    "rematch": "offerRematch",
    "states": "getStates",
    "judge": "getAdvantage",
    "words": "getVocabulary",
    "who_am_i": "getAccount",
    "user_matches": "listUserMatches",
    "challenge": "createChallenge",
    "accept": "acceptChallenge",
    "decline": "declineChallenge",
    "cancel": "cancelChallenge",
    "person_stream": "streamPerson",
    "person_stream_of_seats": "streamPersonSeats",
    "report_line": "reportChatLine",
    "wait": "waitForPairing",
    "leave_all": "leaveAllPools",
    "oauth_token": "exchangeOauthCode",
    "revoke_oauth_token": "revokeOauthToken",
}


def camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(word.capitalize() for word in rest)


def operation_id(route: APIRoute) -> str:
    return CHOSEN.get(route.name) or camel(route.name)
