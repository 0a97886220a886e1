"""A port for a server process that a test starts, held from the moment it is
chosen until the server serves on it.

Picking a free port, letting it go and having uvicorn bind it seconds later
left a gap in which another xdist worker's server could take it, and then
answer our readiness probes. So the test binds and listens here and hands the
socket to the child (`uvicorn --fd N`, `pass_fds=(N,)`).
"""

from __future__ import annotations

import socket


def listening_socket() -> socket.socket:
    """A socket listening on a free port of 127.0.0.1; close it once the child has it."""
    sock = socket.socket()  # no SO_REUSEADDR: with it, another server's bind could share the port
    # uvicorn takes an inherited descriptor for a Unix socket and leaves Nagle on;
    # the connections it accepts inherit TCP_NODELAY from the listener instead.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    return sock
