"""Storage: the tables (models.py, admin_models.py, account_models.py), the
engine (engine.py), migrations (migrate.py)."""

from . import (  # noqa: F401  (their tables join Base.metadata, as migrations see it)
    account_models,
    admin_models,
    analysis_models,
    challenge_models,
    chat_models,
    fairplay_models,
    mail_models,
    notify_models,
    playban_models,
    pool_models,
    push_models,
    resend_models,
    swiss_models,
    tournament_models,
)
from .engine import make_engine
from .migrate import head, revision, upgrade

__all__ = ["head", "make_engine", "revision", "upgrade"]
