"""Web push (RFC 8030, 8291, 8292): the server's VAPID key (keys.py), the
browsers' subscriptions (subscriptions.py), which endpoints may ever be called
(endpoints.py), whether a player is watching a match (away.py), what one push
says (payload.py), and the channel that pushes one notification (sending.py,
`PushChannel.deliver`, answering outcomes.py's three outcomes), what the
notification outbox calls."""
