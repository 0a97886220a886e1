"""Storage: the tables (models.py), the engine (engine.py), migrations (migrate.py)."""

from . import admin_models  # noqa: F401  (its tables join Base.metadata, as migrations see it)
from .engine import make_engine
from .migrate import upgrade

__all__ = ["make_engine", "upgrade"]
