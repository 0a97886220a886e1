"""Issue 21's check: a client generated from /openapi.json by
openapi-python-client (the dev extra pins it) plays a whole match, with typed
state and actions: it reads `Legal` as `PlaceAction`/`RemoveAction`/... objects,
sends them back as they came, and reads every answer as a `MatchBody`, the
state's nested objects typed (`Players`, `RealtimeClock`, `Result`).

And what a generated client's author needs besides: the generator drops no
schema, the generated package type-checks under mypy (a model named like one
of its fields, `States.states`, made code that did not), an action is built
without its `type` (the default), and each ndjson stream names its lines'
union (`x-itemSchema`, app/api/stream_lines.py), whose generated models read
the lines of a finished match's stream.

One database (SQLite) only: what is tested is the description, not the store.
About 4 s, and mypy's first run over the generated package about 10 more (its
cache is kept in the system's temporary directory for the next runs)."""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.main import create_app

from ..conftest import make_settings

GENERATOR = Path(sys.executable).with_name("openapi-python-client")
PACKAGE = "magery_generated_client"
NDJSON = "application/x-ndjson"
# Shared by runs (mypy checks each file's hash against it): a fresh cache takes 10 s more.
MYPY_CACHE = Path(tempfile.gettempdir()) / "magery-generated-client-mypy"


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Any]:
    app = create_app(make_settings(f"sqlite+aiosqlite:///{tmp_path / 'gen.sqlite3'}"))
    async with app.router.lifespan_context(app):
        yield app


def _generate(spec: bytes, where: Path) -> Any:
    (where / "openapi.json").write_bytes(spec)
    done = subprocess.run([str(GENERATOR), "generate", "--path", str(where / "openapi.json"), "--meta", "none",
                           "--output-path", str(where / PACKAGE)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    # A schema the generator cannot read is dropped with a warning, and the models naming it with it.
    for dropped in ("Unable to process schema", "Failure to process schema", "Could not find reference"):
        assert dropped not in done.stdout + done.stderr, done.stdout[-3000:] + done.stderr[-3000:]
    checked = subprocess.run([sys.executable, "-m", "mypy", "--python-version", "3.11", "--config-file", "",
                              "--cache-dir", str(MYPY_CACHE), PACKAGE], cwd=where, capture_output=True, text=True,
                             timeout=300)
    assert checked.returncode == 0, checked.stdout[-3000:] + checked.stderr[-3000:]
    sys.path.insert(0, str(where))
    try:
        return importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))


async def test_a_generated_client_plays_a_whole_match(served: Any, tmp_path: Path) -> None:
    if not GENERATOR.exists():
        pytest.skip("openapi-python-client is in the dev extra: scripts/install dev")
    transport = httpx.ASGITransport(app=served)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as raw:
        spec = (await raw.get("/openapi.json")).content
    _every_stream_names_its_lines(json.loads(spec))
    _generate(spec, tmp_path)
    try:
        await _play(transport)
    finally:
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _every_stream_names_its_lines(spec: dict[str, Any]) -> None:
    streams = {f"{method} {path}": answer["content"][NDJSON]
               for path, item in spec["paths"].items() for method, op in item.items()
               for answer in op["responses"].values() if NDJSON in answer.get("content", {})}
    assert {"get /api/v1/matches/{match_id}/stream", "get /api/v1/stream/events"} <= set(streams), streams
    for name, media in streams.items():
        assert "$ref" in media.get("x-itemSchema", {}), f"{name}: say what a line is (app/api/stream_lines.py)"
    match_lines = spec["components"]["schemas"]["MatchStreamLine"]
    assert set(match_lines["discriminator"]["mapping"]) >= {"snapshot", "update", "delta", "ping", "closing"}


async def _play(transport: httpx.AsyncBaseTransport) -> None:
    client_mod = importlib.import_module(f"{PACKAGE}.client")
    models = importlib.import_module(f"{PACKAGE}.models")
    calls = {name: importlib.import_module(f"{PACKAGE}.api.matches.{name}")
             for name in ("create_match", "join_match", "get_legal_actions", "play_action", "get_match",
                          "get_action_log")}

    def client(token: str | None = None) -> Any:
        through = {"transport": transport}  # in process, through the app's own ASGI interface
        if token:
            return client_mod.AuthenticatedClient(base_url="http://test", token=token, httpx_args=through)
        return client_mod.Client(base_url="http://test", httpx_args=through)

    anyone = client()
    options = models.Options(no_progress_rounds=2, time_control=models.Realtime(minutes=30))
    created = await calls["create_match"].asyncio(client=anyone, body=models.CreateMatch(
        options=options, seat=models.CreateMatchSeat.WHITE, name="Ada"))
    assert isinstance(created, models.SeatBody), created
    joined = await calls["join_match"].asyncio(created.match.id, client=anyone,
                                               body=models.JoinMatch(name="Bo"))
    assert isinstance(joined, models.SeatBody), joined
    seats = {created.seat.value: client(created.token), joined.seat.value: client(joined.token)}
    state = joined.match
    assert isinstance(state.players, models.Players) and state.players.black.name == "Bo"
    assert isinstance(state.clock, models.RealtimeClock)

    rng = random.Random(2)
    kinds: set[str] = set()
    for _ in range(600):
        if state.status.value == "finished":
            break
        seat = seats[state.to_move.value]
        legal = await calls["get_legal_actions"].asyncio(state.id, client=seat)
        assert isinstance(legal, models.Legal), legal
        if legal.setup:
            row = [item.value for item in legal.setup]
            rng.shuffle(row)
            # `type` has its one value as the default: not passed.
            action: Any = models.SetupAction(backrow=[models.SetupActionBackrowItem(m) for m in row])
        else:
            action = rng.choice(legal.actions)  # typed already: PlaceAction, PassAction, RemoveAction
        kinds.add(type(action).__name__)
        answer = await calls["play_action"].asyncio(state.id, client=seat, body=models.Play(
            action=action, version=state.version))
        assert isinstance(answer, models.MatchBody), answer
        state = answer.match
    assert state.status.value == "finished", state.version
    assert isinstance(state.result, models.Result) and isinstance(state.result.reason, models.ResultReason)
    assert {"SetupAction", "PlaceAction"} <= kinds, kinds
    read = await calls["get_match"].asyncio(state.id, client=anyone)
    assert isinstance(read, models.MatchState) and read.version == state.version
    assert models.PassAction().to_dict() == {"type": "pass"}
    # The stream of a finished match ends after its state: its lines, read with the generated models.
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as raw:
        answer = await raw.get(f"/api/v1/matches/{state.id}/stream")
    lines = [json.loads(line) for line in answer.text.splitlines() if line.strip()]
    snapshot = models.LiveSnapshot.from_dict(next(line for line in lines if line["type"] == "snapshot"))
    assert isinstance(snapshot.match, models.MatchState) and snapshot.match.version == state.version
    log = await calls["get_action_log"].asyncio(state.id, client=anyone)
    assert isinstance(log, list) and len(log) == state.version
    assert isinstance(log[0].action, models.JoinEvent)
    # A power parses as its own form, the empty one only as itself.
    remove = models.RemoveAction.from_dict
    assert isinstance(remove({"type": "remove", "mage": "druid", "power": {"move": ["b2", "c3"]}}).power,
                      models.MovePower)
    assert isinstance(remove({"type": "remove", "mage": "oracle", "power": {}}).power, models.PlainPower)
    assert isinstance(remove({"type": "remove", "mage": "dream_lord", "power": {
        "mage": "seer", "power": {"square": "c3"}}}).power, models.BorrowedPower)
