"""Challenges: one account challenges another with the match options
(service.py); the challenged accepts (the match is made through the gateway),
declines with a reason, or lets it expire; the challenger may cancel. What a
person's pages are told of their challenges is app/people's.
"""

from .service import DECLINE_REASONS, Challenges

__all__ = ["DECLINE_REASONS", "Challenges"]
