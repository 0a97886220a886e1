"""magery-client: the official Python client of Magery Online's API (asyncio,
httpx and websockets). See README.md."""

from .bot import Bot
from .client import Magery, Refused, ndjson
from .compact import DeltaMismatch, apply_delta
from .shapes import Action, Colour, Legal, Line, Match, Seat
from .socket import MatchSocket, SocketRefused
from .version import VERSION

__version__ = VERSION
__all__ = ["VERSION", "Action", "Bot", "Colour", "DeltaMismatch", "Legal", "Line", "Magery", "Match",
           "MatchSocket", "Refused", "Seat", "SocketRefused", "apply_delta", "ndjson"]
