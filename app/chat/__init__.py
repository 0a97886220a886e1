"""The match chat: a players' room and a spectators' room per match.

`Chat` (service.py) stores and reads the lines, holding the rules of flood.py
(length, stock phrases for guests, flood limits) and the mutes; `Relay`
(relay.py) carries new and hidden lines to this process's sockets of a match,
woken by a nudge (`chat:<match id>`) from whichever process wrote. The
database holds the truth; a lost nudge costs at most `chat_poll_seconds`.
The wings (app/api/chat.py, app/api/ws_chat.py, app/admin/chat_pages.py) call
these; nothing here knows HTTP.
"""

from __future__ import annotations

from .flood import MAX_LENGTH, PHRASES, ROOMS
from .relay import Relay
from .service import Chat, Writer

__all__ = ["MAX_LENGTH", "PHRASES", "ROOMS", "Chat", "Relay", "Writer"]
