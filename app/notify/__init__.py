"""Notifications: a player's inbox, and the outbox of what leaves by a channel.

    kinds.py        the kinds, the channels, the defaults, the words
    notice.py       a notice to write
    writing.py      notices written in the transaction of what caused them
    inbox.py        the inbox read and marked read
    preferences.py  each player's choices, kind by channel
    channel.py      the interface a channel implements, and the registry
    outbox.py       the outbox's statements: take under a lease, delete, put off
    sender.py       every process's sender loop

Whoever causes a notice (the match service, challenges, arenas, the chat's
moderation) writes it with `write` inside its own transaction, naming the
channels registered; the sender delivers what is due.
"""

from . import outbox
from .channel import Channel, Channels, Delivered, Gone, OutboxItem, RetryLater
from .inbox import Inbox
from .notice import Notice
from .sender import Sender
from .writing import Told, write

__all__ = ["outbox", "Channel", "Channels", "Delivered", "Gone", "Inbox", "Notice", "OutboxItem", "RetryLater", "Sender", "Told",
           "write"]
