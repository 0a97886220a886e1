"""Web push as the app holds it: the key pair, the channel, and the hosts an
endpoint may name, made from the settings (a bad VAPID_PRIVATE_KEY or
PUSH_ENDPOINT_HOSTS stops the app at its start, not at its first push)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings

from .endpoints import check_hosts
from .keys import VapidKeys, private_key_of
from .sending import PushChannel, PushSettings


@dataclass(frozen=True, slots=True)
class Push:
    keys: VapidKeys
    channel: PushChannel  # the outbox's "push" channel
    hosts: list[str]  # PUSH_ENDPOINT_HOSTS, checked


def make_push(engine: AsyncEngine, settings: Settings) -> Push:
    if settings.vapid_private_key:
        try:
            private_key_of(settings.vapid_private_key)
        except ValueError as why:
            raise ValueError(f"VAPID_PRIVATE_KEY: {why}") from None
    hosts = check_hosts(list(settings.push_endpoint_hosts))
    keys = VapidKeys(engine, settings.vapid_private_key)
    channel = PushChannel(engine, keys, PushSettings(
        endpoint_hosts=hosts, subject=settings.vapid_subject, timeout_seconds=settings.push_timeout_seconds,
        presence_ttl_ms=round(settings.ws_dead_after_seconds * 1000)))
    return Push(keys, channel, hosts)
