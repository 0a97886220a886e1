"""Challenges and a person's live channel (issue 20).

One account challenges another with the match options (service.py); the
challenged accepts (the match is made through the gateway), declines with a
reason, or lets it expire; the challenger may cancel. What concerns a person
(their challenges, their matches, how many await their move) is read from the
database by person.py and pushed by channel.py on every page, woken by nudges
`person:...` on every process.
"""

from .channel import PersonChannel
from .person import Person
from .service import DECLINE_REASONS, Challenges

__all__ = ["DECLINE_REASONS", "Challenges", "Person", "PersonChannel"]
