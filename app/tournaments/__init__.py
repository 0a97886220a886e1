"""Tournaments: arenas that pair their players again whenever a game of theirs
ends. The rules (scoring.py, standings.py, pairing.py) are pure; store.py and
service.py keep an arena in the database and make its games through the
matches' gateway, as the pools do."""

from .service import Arenas, NewArena

__all__ = ["Arenas", "NewArena"]
