"""The match service: the lifecycle of a match, from create to its end.

    guard → rules (app.rules) → save (app.db) → publish (app.state.publisher)
"""

from .errors import ServiceError
from .publisher import NullPublisher, Publisher, RecordingPublisher
from .service import Acted, MatchService, Seated

__all__ = ["Acted", "MatchService", "NullPublisher", "Publisher", "RecordingPublisher", "Seated", "ServiceError"]
