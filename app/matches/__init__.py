"""The match service: the lifecycle of a match, from create to its end.

    the gateway (gateway.py) → guard → rules (app.rules) → save (app.db) → publish (publisher.py)
"""

from .gateway import Caller, Gateway
from .lobby import Seated
from .mover import Acted
from .publisher import Fanout, NullPublisher, Publisher, RecordingPublisher
from .seats import hash_token
from .service import MatchService

__all__ = ["Acted", "Caller", "Gateway", "Fanout", "MatchService", "NullPublisher", "Publisher",
           "RecordingPublisher", "Seated", "hash_token"]
