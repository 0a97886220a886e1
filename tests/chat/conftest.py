"""The chat's tests use the realtime tests' socket fixture."""

from ..realtime.conftest import sockets  # noqa: F401  (a fixture, found by name)
