"""The docs a new user reads stand alone and agree with the server: they point to
nothing outside the repository, write every timestamp in the one form api.md
states, hold JSON that parses and actions the engine reads, and document every
field of the match state and of the log that the server sends."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.rules import parse_action

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
API = (ROOT / "docs" / "api.md").read_text()
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
# Anything that looks like a date and time, so that other spellings are caught too.
DATE_TIME = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d[^\s\"'`,]*")
GAME_ACTIONS = {"setup", "place", "pass", "remove"}


def _readable_files() -> list[Path]:
    """What a user of a clone reads: docs, README, and the code's comments."""
    files = DOCS + [ROOT / "bench" / "README.md"]
    for folder in ("app", "bench", "tests", "migrations", "scripts"):
        files += [p for p in (ROOT / folder).rglob("*") if p.suffix in {".py", ".md", ""} and p.is_file()]
    # Installed packages (tests/js, bench/js) are not the project's text.
    return [p for p in files if p != Path(__file__).resolve() and "__pycache__" not in p.parts
            and "node_modules" not in p.parts]


def test_nothing_points_outside_the_repository() -> None:
    # The project's notes live beside the repository, not in it: a clone has none.
    outside = re.compile(r"\.\./shared|shared/(contract|design|rules)|rulings\.md|magery-source")
    found = [f"{p.relative_to(ROOT)}:{n}" for p in _readable_files()
             for n, line in enumerate(p.read_text(errors="replace").splitlines(), 1) if outside.search(line)]
    assert found == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_timestamp_has_the_one_form(doc: Path) -> None:
    odd = [t for t in DATE_TIME.findall(doc.read_text()) if not TIMESTAMP.fullmatch(t)]
    assert odd == [], f"{doc.name}: timestamps not in the form 2026-11-22T13:02:45.410Z: {odd}"


def test_api_md_states_the_timestamp_form() -> None:
    assert "RFC 3339" in API and TIMESTAMP.search(API)


def _json_blocks(text: str) -> list[Any]:
    """The values of every ```json block (a block may hold several, one after another)."""
    decoder, values = json.JSONDecoder(), []
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        at = 0
        while block[at:].strip():
            at += len(block[at:]) - len(block[at:].lstrip())
            value, at = decoder.raw_decode(block, at)
            values.append(value)
    return values


def _walk(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        return [value] + [d for v in value.values() for d in _walk(v)]
    if isinstance(value, list):
        return [d for v in value for d in _walk(v)]
    return []


@pytest.mark.parametrize("name", ["api.md", "notation.md"])
def test_json_examples_parse_and_their_actions_are_well_formed(name: str) -> None:
    values = _json_blocks((ROOT / "docs" / name).read_text())
    assert values
    actions = [d for v in values for d in _walk(v)
               if d.get("type") in GAME_ACTIONS and "…" not in json.dumps(d, ensure_ascii=False)]
    assert actions
    for action in actions:
        parse_action(action)  # raises MalformedAction on a shape the engine refuses


def _documented(section: str) -> set[str]:
    """The field names in the first column of the table under `section` in api.md."""
    text = API[API.index(section):]
    table = re.search(r"\| field \| meaning \|\n\| --- \| --- \|\n((?:\|.*\n)+)", text)
    assert table is not None, section
    return {name for row in table.group(1).splitlines()
            for name in re.findall(r"`(\w+)`", row.split("|")[1])}


async def test_every_field_of_the_state_and_the_log_is_documented(api: Any, client: httpx.AsyncClient) -> None:
    game = await api.start(time_control={"type": "realtime", "minutes": 5, "increment": 2})
    state = await api.state(game)
    # `spectators` is in the table too: only the states the websocket and the stream send carry it.
    assert set(state) | {"spectators"} == _documented("### Read")
    log = (await client.get(f"/api/v1/matches/{game.id}/actions")).json()
    assert set(log[0]) == _documented("### The log")
    assert state["players"]["white"].keys() == {"name", "connected", "bot", "account", "computer", "title",
                                                "rating", "rating_change"}


async def test_the_server_sends_timestamps_in_the_documented_form(api: Any, client: httpx.AsyncClient) -> None:
    game = await api.start()
    state = await api.state(game)
    log = (await client.get(f"/api/v1/matches/{game.id}/actions")).json()
    for stamp in [state["created_at"]] + [entry["at"] for entry in log]:
        assert TIMESTAMP.fullmatch(stamp), stamp


def test_a_stamp_is_of_its_own_second_whatever_was_stamped_before() -> None:
    """`stamp` keeps the text of the seconds it wrote (issue 22): each moment, in
    any order, reads as strftime writes it, across seconds, days and the epoch;
    and what it keeps stays bounded."""
    from datetime import UTC, datetime

    from app.kernel import moments as kept
    from app.kernel.moments import stamp

    moments = [1_764_230_000_999, 1_764_230_001_000, 1_764_230_000_999, 0, -1, -1_000, -1_001,
               1_764_287_999_999, 1_764_288_000_000, 1_764_230_001_001]
    for ms in moments:
        plain = datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"
        assert stamp(ms) == plain, ms
        assert TIMESTAMP.fullmatch(stamp(ms))
    for second in range(3 * kept._MOST_SECONDS):
        stamp(second * 1000)
    assert len(kept._SECONDS) <= kept._MOST_SECONDS


async def test_create_needs_no_body(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/v1/matches")
    assert r.status_code == 201, r.text
    assert r.json()["match"]["options"]["variant"] == "standard"
