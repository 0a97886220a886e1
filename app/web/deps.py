"""The parts the pages read, declared once each as an `Annotated` alias a route
names as a parameter's type: read from the parts the app was built with
(`app.state.parts`, app/wiring.py), as app/api/deps.py does for the API (a
sibling wing, so not imported from here). Tests swap one with
`app.dependency_overrides[get_x]`.

No `from __future__ import annotations`: FastAPI reads the aliases as objects.
"""

from typing import Annotated, Any

from fastapi import Depends, Request

from app.accounts import Accounts
from app.accounts.oauth import OAuth
from app.accounts.profiles import Profiles
from app.matches import Gateway
from app.matches.reads import Reads


def _parts(request: Request) -> Any:
    return request.app.state.parts


def get_accounts(request: Request) -> Accounts:
    return _parts(request).accounts  # type: ignore[no-any-return]


def get_oauth(request: Request) -> OAuth:
    return _parts(request).oauth  # type: ignore[no-any-return]


def get_gateway(request: Request) -> Gateway:
    return _parts(request).gateway  # type: ignore[no-any-return]


def get_profiles(request: Request) -> Profiles:
    return _parts(request).profiles  # type: ignore[no-any-return]


def get_reads(request: Request) -> Reads:
    return _parts(request).service.reads  # type: ignore[no-any-return]


def get_puzzles(request: Request) -> Any:
    return request.app.state.parts.puzzles


AccountsDep = Annotated[Accounts, Depends(get_accounts)]
OAuthDep = Annotated[OAuth, Depends(get_oauth)]
PuzzlesDep = Annotated[Any, Depends(get_puzzles)]
GatewayDep = Annotated[Gateway, Depends(get_gateway)]
ProfilesDep = Annotated[Profiles, Depends(get_profiles)]
ReadsDep = Annotated[Reads, Depends(get_reads)]


def get_arenas(request: Request) -> Any:
    return _parts(request).arenas


def get_arena_live(request: Request) -> Any:
    return _parts(request).arena_live


ArenasDep = Annotated[Any, Depends(get_arenas)]  # app.tournaments.Arenas
ArenaLiveDep = Annotated[Any, Depends(get_arena_live)]  # app.tournaments.live.ArenaLive


def get_swisses(request: Request) -> Any:
    return _parts(request).swisses


SwissesDep = Annotated[Any, Depends(get_swisses)]  # app.tournaments.swiss.service.Swisses


def get_challenges(request: Request) -> Any:
    return _parts(request).challenges


ChallengesDep = Annotated[Any, Depends(get_challenges)]  # app.challenges.Challenges
