"""Storage: the tables (models.py), the engine (engine.py), migrations (migrate.py)."""

from .engine import make_engine
from .migrate import upgrade

__all__ = ["make_engine", "upgrade"]
