"""What every route reads from a request alike: the parts the app was built with
(app/main.py's `build()` puts them on the app as `app.state.parts`), each declared
once here as an `Annotated` alias a route names as a parameter's type, and the
caller's address. Who is calling (a seat's token, an account's token or session)
is app/api/caller.py's.

Tests swap a part the FastAPI way, `app.dependency_overrides[get_x] = ...`: every
route asks for its parts through these functions, never through a global.

No `from __future__ import annotations`: FastAPI reads the aliases as objects.
"""

from typing import Annotated, Any

from fastapi import Depends, Request

from app.accounts import Accounts
from app.accounts.oauth import OAuth
from app.accounts.profiles import Profiles
from app.analysis import Analyses
from app.challenges import Challenges
from app.chat import Chat
from app.config import Settings
from app.matches import Gateway
from app.matches.reads import Reads
from app.notify import Channels, Inbox
from app.people import PersonChannel
from app.people.events import OneEach
from app.pools import Pools
from app.tournaments import Arenas
from app.tournaments.swiss import Swisses

from .kept_states import Replays
from .match_stream import MatchStreams
from .resends import Resends


def address_of(request: Request) -> str | None:
    return request.client.host if request.client else None


def _parts(request: Request) -> Any:
    return request.app.state.parts


def get_gateway(request: Request) -> Gateway:
    return _parts(request).gateway  # type: ignore[no-any-return]


def get_reads(request: Request) -> Reads:
    return _parts(request).service.reads  # type: ignore[no-any-return]


def get_accounts(request: Request) -> Accounts:
    return _parts(request).accounts  # type: ignore[no-any-return]


def get_oauth(request: Request) -> OAuth:
    return _parts(request).oauth  # type: ignore[no-any-return]


def get_profiles(request: Request) -> Profiles:
    return _parts(request).profiles  # type: ignore[no-any-return]


def get_challenges(request: Request) -> Challenges:
    return _parts(request).challenges  # type: ignore[no-any-return]


def get_channel(request: Request) -> PersonChannel:
    return _parts(request).channel  # type: ignore[no-any-return]


def get_event_streams(request: Request) -> OneEach:
    return _parts(request).event_streams  # type: ignore[no-any-return]


def get_inbox(request: Request) -> Inbox:
    return _parts(request).inbox  # type: ignore[no-any-return]


def get_notify_channels(request: Request) -> Channels:
    return _parts(request).channels  # type: ignore[no-any-return]


def get_chat(request: Request) -> Chat:
    return _parts(request).chat  # type: ignore[no-any-return]


def get_pools(request: Request) -> Pools:
    return _parts(request).pools  # type: ignore[no-any-return]


def get_arenas(request: Request) -> Arenas:
    return _parts(request).arenas  # type: ignore[no-any-return]


def get_swisses(request: Request) -> Swisses:
    return _parts(request).swisses  # type: ignore[no-any-return]


def get_resends(request: Request) -> Resends:
    return _parts(request).resends  # type: ignore[no-any-return]


def get_streams(request: Request) -> MatchStreams:
    return _parts(request).streams  # type: ignore[no-any-return]


def get_analyses(request: Request) -> Analyses:
    return _parts(request).analyses  # type: ignore[no-any-return]


def get_read_budget(request: Request) -> Any:
    """The read budget per address (app/api/budget.py), for a route that reads in steps."""
    return _parts(request).reads


def get_settings(request: Request) -> Settings:
    return _parts(request).settings  # type: ignore[no-any-return]


def get_replays(request: Request) -> Replays:
    return _parts(request).replays  # type: ignore[no-any-return]


GatewayDep = Annotated[Gateway, Depends(get_gateway)]
ReadBudgetDep = Annotated[Any, Depends(get_read_budget)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
ReadsDep = Annotated[Reads, Depends(get_reads)]
AccountsDep = Annotated[Accounts, Depends(get_accounts)]
OAuthDep = Annotated[OAuth, Depends(get_oauth)]
ProfilesDep = Annotated[Profiles, Depends(get_profiles)]
ChallengesDep = Annotated[Challenges, Depends(get_challenges)]
ChannelDep = Annotated[PersonChannel, Depends(get_channel)]
EventStreamsDep = Annotated[OneEach, Depends(get_event_streams)]
ChatDep = Annotated[Chat, Depends(get_chat)]
InboxDep = Annotated[Inbox, Depends(get_inbox)]
NotifyChannelsDep = Annotated[Channels, Depends(get_notify_channels)]
PoolsDep = Annotated[Pools, Depends(get_pools)]
ArenasDep = Annotated[Arenas, Depends(get_arenas)]
SwissesDep = Annotated[Swisses, Depends(get_swisses)]
ResendsDep = Annotated[Resends, Depends(get_resends)]
StreamsDep = Annotated[MatchStreams, Depends(get_streams)]
ReplaysDep = Annotated[Replays, Depends(get_replays)]
AnalysesDep = Annotated[Analyses, Depends(get_analyses)]
