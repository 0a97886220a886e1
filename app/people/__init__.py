"""What concerns a person, live: every page's one channel and an account's events.

What concerns a person (their challenges, their running matches, how many await
their move) is read from the database by person.py and pushed by channel.py on
every page, woken by nudges `person:...` on every process; events.py tells the
same pictures as happenings, for clients that are not browsers.
"""

from .channel import PersonChannel
from .person import Person

__all__ = ["Person", "PersonChannel"]
