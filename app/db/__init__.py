"""Storage: the tables (models.py), the engine (engine.py), migrations (migrate.py)."""

from .engine import make_engine
from .migrate import head, revision, upgrade

__all__ = ["head", "make_engine", "revision", "upgrade"]
