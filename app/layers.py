"""The layers of the application, lowest first: the one place they are declared.

A module may import from its own package and from the packages of any lower
layer, never from a higher layer nor from a sibling package of its own layer.
tests/test_layers.py reads every import under app/ and holds the code to this
(and to having no import cycle). A new wing is one more name in its layer.
"""

from __future__ import annotations

LAYERS: tuple[tuple[str, ...], ...] = (
    ("app.rules", "app.ratings"),          # the game; Glicko-2 ratings: both pure, no I/O
    ("app.config", "app.redact",           # settings; log hygiene;
     "app.security", "app.charts",         # the wings' security headers; SVG charts;
     "app.auth"),                          # argon2 and secret tokens, for every wing that signs in
    ("app.db",),                           # tables, engine, migrations
    ("app.kernel",),                       # what every wing shares: errors, the write budget,
                                           # ids, text checks, JSON text, moments, cursors
    ("app.accounts",),                     # players, their sign-ins, tokens and ratings
    ("app.notify",),                       # the inbox, the outbox and its sender, the players' choices
    ("app.matches",),                      # the match service and its one gateway
    ("app.realtime",),                     # hub and bus: committed actions, live
    ("app.bots",                           # computer opponents: a client of the gateway
     "app.challenges",                     # challenges, and a person's live channel
     "app.chat",                           # the match chat
     "app.mail",                           # email: addresses, preferences, the SMTP channel
     "app.pools",                          # quick pairing: a client of the gateway
     "app.tournaments",                    # arenas: pairing again as games end, a client of the gateway
     "app.push"),                          # web push: subscriptions, the VAPID key, the push channel
    ("app.people",                         # a person's live channel and events: their challenges, matches
     "app.analysis"),                      # computer analysis of finished matches, in worker processes
    ("app.api", "app.web", "app.admin", "app.ops"),  # the wings, and operations
    ("app.wiring",),                       # makes every part, in order
    ("app.main",),                         # builds and wires every part
)


def package_of(module: str) -> str | None:
    """The declared package `module` belongs to (None: not under a declared one)."""
    for layer in LAYERS:
        for package in layer:
            if module == package or module.startswith(package + "."):
                return package
    return None


def rank_of(package: str) -> int:
    for rank, layer in enumerate(LAYERS):
        if package in layer:
            return rank
    raise KeyError(package)
