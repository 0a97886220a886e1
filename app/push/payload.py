"""What one push says: the notification the service worker (static/js/sw.js)
shows, and the page a click opens. Sent encrypted (RFC 8291): only the
browser reads it, never the push service in between."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

Urgency = Literal["very-low", "low", "normal", "high"]
# A push service takes at most 4096 bytes of encrypted body (RFC 8291): 4078
# of what is said less aes128gcm's header, tag and padding delimiter. A long
# text is cut well within it.
MOST_TEXT = 400


@dataclass(frozen=True, slots=True)
class PushItem:
    """One notification for one account, on each browser it subscribed."""

    account_id: int
    kind: str  # what happened: "your_turn", "challenge", ... (the inbox's kinds)
    title: str
    body: str
    url: str  # the page a click opens, a path on this site ("/matches/x1y2z3")
    match_id: str | None = None  # a match's event: not pushed while the player watches the match
    ttl_seconds: int = 24 * 3600  # how long a push service keeps it for a browser that is off
    urgency: Urgency = "normal"
    # The outbox row's id, the same on every try: a sender that died after the
    # push service took a push but before it marked the row sends it again with
    # the same id, so a service worker can tell the repeat (docs/reliability.md).
    notice_id: int | None = None

    def json(self) -> bytes:
        """The payload, as the service worker reads it."""
        if not self.url.startswith("/") or self.url.startswith("//"):
            raise ValueError("a push opens a page of this site: its url is a path")
        said = {"kind": self.kind, "title": self.title[:MOST_TEXT], "body": self.body[:MOST_TEXT],
                "url": self.url, "match_id": self.match_id, "tag": f"{self.kind}:{self.match_id or ''}",
                "id": self.notice_id}
        return json.dumps(said, ensure_ascii=False, separators=(",", ":")).encode()
