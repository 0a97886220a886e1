"""Fixtures for the web push tests: the app allowed to push to a local
stand-in push service (`http://127.0.0.1` added to the known hosts), and the
stand-in itself, started by the test (tests/push/stand_in.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.config import Settings
from app.push.endpoints import KNOWN_PUSH_HOSTS, LOCAL_STAND_IN
from tests.conftest import make_settings

from .stand_in import PushServiceStandIn

HOSTS = [*KNOWN_PUSH_HOSTS, LOCAL_STAND_IN]


@pytest.fixture
def settings(database_url: str) -> Settings:
    return make_settings(database_url, push_endpoint_hosts=HOSTS)


@pytest.fixture
async def stand_in(app: Any) -> AsyncIterator[PushServiceStandIn]:
    """The stand-in, checking pushes against the app's VAPID public key."""
    service = await PushServiceStandIn(await app.state.parts.push.keys.public_key()).start()
    try:
        yield service
    finally:
        await service.stop()
