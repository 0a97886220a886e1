"""The one settings object, read from the environment and `.env`."""

from __future__ import annotations

from functools import lru_cache

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    # With none, an SQLite file in the working directory (no set-up needed).
    database_url: str = "sqlite+aiosqlite:///./magery.sqlite3"
    # Websocket Origin allow-list; "*" allows any. Same-host pages always pass.
    allowed_origins: list[str] = ["*"]
    # Writes allowed per token and per address in `rate_window_seconds`.
    rate_limit_writes: int = 120
    rate_window_seconds: float = 10.0
    # A seat gone this long in a real-time match lets its opponent claim (issue 3).
    abandon_seconds: float = 60.0
    # How often the background sweeper looks for flags and abandoned matches.
    sweep_seconds: float = 1.0
    # Websocket limits (issue 4).
    ws_messages_per_10s: int = 200
    ws_max_frame_bytes: int = 16 * 1024
    ws_ping_seconds: float = 10.0
    ws_dead_after_seconds: float = 30.0


@lru_cache
def get_settings() -> Settings:
    return Settings()
