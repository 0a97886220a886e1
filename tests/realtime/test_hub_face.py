"""The socket endpoint and the metrics use the hub's face only (issue 18).

app/api/ws.py and app/ops/metrics.py are read (their syntax, not run): every
attribute they take of a hub (a name `hub`, or `<anything>.hub`) must be one of
the face's, and a socket's handle (a name `sub`) is never read at all, only
given back to the hub. The face is the list below, which hub.py's docstring
names too.
"""

from __future__ import annotations

import ast
from pathlib import Path

from app.realtime import hub as hub_module
from app.realtime.hub import Hub

ROOT = Path(__file__).resolve().parents[2]
USERS = ("app/api/ws.py", "app/ops/metrics.py")
FACE = {
    "start", "close_sockets", "close", "closed",  # life
    "publish",  # the match service's publisher
    "tell", "watched",  # other news of a match
    "reserve", "release", "sockets_per_address",  # the cap per address
    "join", "note_seat", "heard_from", "reply", "close_socket", "dropped", "leave",  # a socket
    "known_version", "vouched", "holds_seat", "counts",  # what it knows
}


def _is_hub(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "hub") or \
        (isinstance(node, ast.Attribute) and node.attr == "hub")


def past_the_face(source: str) -> list[str]:
    """What `source` takes of a hub beyond its face, or reads of a socket's handle."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute):
            continue
        if _is_hub(node.value) and node.attr not in FACE:
            found.append(f"line {node.lineno}: hub.{node.attr}")
        elif isinstance(node.value, ast.Name) and node.value.id == "sub":
            found.append(f"line {node.lineno}: sub.{node.attr}")
    return found


def test_ws_and_metrics_use_only_the_face() -> None:
    reaching = {path: past_the_face((ROOT / path).read_text()) for path in USERS}
    assert reaching == {path: [] for path in USERS}


def test_the_reader_sees_a_reach_past_the_face() -> None:
    # A guard on the reader itself: what ws.py once did is caught.
    assert past_the_face("room = hub.rooms.get(match_id)\nif sub.room.local[seat] == 1: pass\n") == [
        "line 1: hub.rooms", "line 2: sub.room"]
    assert past_the_face("self.hub.join(m, send, None, None)") == []
    ws = (ROOT / "app/api/ws.py").read_text()
    assert "hub.join(" in ws and "hub.leave(" in ws  # the reader reads the endpoint that joins


def test_the_face_is_the_hubs_and_its_docstring_names_it() -> None:
    hub = Hub(source=None)  # type: ignore[arg-type]  # never started: only its attributes are read
    assert {name for name in FACE if not hasattr(hub, name)} == set()
    doc = hub_module.__doc__ or ""
    assert {name for name in FACE if f"`{name}" not in doc} == set()
