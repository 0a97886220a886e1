"""Ratings: Glicko-2 with lichess's parameters, one rating per player and
variant. Pure maths, no I/O: the service stores the ratings and calls these.
docs/rules.md ("Ratings") states the rules in plain words.

- glicko2.py: one rating period as Glickman's paper sets it out, unclamped;
- rating.py: the `Rating` value, `NEW`, provisional and how it is shown;
- policy.py: the site's parameters and limits, the RD grown with idle days,
  and `rate_match` for one finished rated match;
- outcome.py: whether a finished match moves ratings, and each side's score.

    >>> from datetime import datetime, timezone
    >>> summary = finished(True, {"winner": "white", "reason": "eliminated"},
    ...                    [("white", "place", False), ("black", "place", False)])
    >>> white_score, _ = scores(summary)
    >>> white, black = rate_match(NEW, NEW, white_score, datetime(2026, 11, 22, tzinfo=timezone.utc))
    >>> white.shown(), black.shown()
    ('1742?', '1258?')
"""

from .outcome import (
    Ending,
    Finished,
    Scores,
    Side,
    both_sides_acted,
    ending_of,
    finished,
    may_play_rated,
    scores,
)
from .policy import LICHESS, Policy, Result, aged, as_of, rate, rate_match
from .rating import NEW, PROVISIONAL_RD, Rating

__all__ = [
    "LICHESS", "NEW", "PROVISIONAL_RD",
    "Ending", "Finished", "Policy", "Rating", "Result", "Scores", "Side",
    "aged", "as_of", "both_sides_acted", "ending_of", "finished", "may_play_rated", "rate",
    "rate_match", "scores",
]
