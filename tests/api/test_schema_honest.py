"""Issue 21, item 2: /openapi.json describes what the server really answers.

Real answers of played matches (a free seat, setup, a random game with chaos
mages' powers in an archmage variant, draw offers, a resignation, a rematch
offer, a computer's seat, the log, the replays' states, the list) are
validated against the schema with a JSON Schema validator, strictly: every
object of the state is closed, so a field the server sends and the schema does
not name fails here, as does a field the schema requires and the server leaves
out, or a value outside its type."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import httpx
import jsonschema_rs

from app.api.match_example import MATCH_EXAMPLE

from ..conftest import Api, Game


class Schema:
    """The served description's components, each usable as a validator."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.components = spec["components"]

    def errors(self, name: str, value: Any, array: bool = False) -> list[str]:
        ref: dict[str, Any] = {"$ref": f"#/components/schemas/{name}"}
        schema = {"type": "array", "items": ref} if array else ref
        checker = jsonschema_rs.Draft202012Validator({**schema, "components": self.components},
                                                      validate_formats=True)
        return [str(e)[:400] for e in checker.iter_errors(value)]

    def check(self, name: str, value: Any, array: bool = False) -> None:
        problems = self.errors(name, value, array)
        assert not problems, (name, problems[:3])


async def _schema(client: httpx.AsyncClient) -> Schema:
    return Schema((await client.get("/openapi.json")).json())


async def test_the_validator_is_strict_where_the_schema_is_closed(client: httpx.AsyncClient) -> None:
    """The checks below can fail: what the schema does not admit is refused."""
    schema = await _schema(client)
    schema.check("MatchState", MATCH_EXAMPLE)  # the example is a real state, and fits
    assert schema.errors("MatchState", {**MATCH_EXAMPLE, "secret": 1})  # an unknown field
    assert schema.errors("MatchState", {k: v for k, v in MATCH_EXAMPLE.items() if k != "tower"})
    assert schema.errors("MatchState", {**MATCH_EXAMPLE, "created_at": "yesterday"})  # date-time
    players = MATCH_EXAMPLE["players"]
    assert schema.errors("MatchState", {**MATCH_EXAMPLE, "players": {
        **players, "white": {**players["white"], "token": "x"}}})
    assert schema.errors("Power", {"foo": 1})  # the empty form admits only {}
    schema.check("Power", {})
    schema.check("Power", {"mage": "seer", "power": {"move": ["a1", "b2"]}})
    assert schema.errors("Action", {"type": "pass", "mage": "seer"})
    assert schema.errors("LogEntry", [{"version": 1, "player": None, "action": {"type": "vanish"},
                                       "automatic": False, "at": "2026-11-21T15:00:03.120Z"}], array=True)


async def _acted(api: Api, schema: Schema, game: Game, colour: str, action: dict[str, Any]) -> None:
    r = await api.post(game, colour, action)
    assert r.status_code == 200, r.text
    schema.check("MatchBody", r.json())
    game.match = r.json()["match"]


async def _talk(api: Api, schema: Schema, game: Game) -> None:
    """Draw offers: made, declined, made again, withdrawn."""
    for offer, who in ((True, "white"), (False, "black"), (True, "black"), (False, "black")):
        r = await api.client.post(f"{api.base}/{game.id}/draw", json={"offer": offer}, headers=game.auth(who))
        assert r.status_code == 200, r.text
        schema.check("MatchBody", r.json())
        game.match = r.json()["match"]


async def test_real_answers_of_played_matches_fit_the_schema(api: Api) -> None:
    schema = await _schema(api.client)
    base = api.base

    # A free seat, a correspondence clock; then the join.
    r = await api.client.post(base, json={"seat": "black", "name": "Ada",
                                          "options": {"time_control": {"type": "correspondence", "days": 1}}})
    schema.check("SeatBody", r.json())
    waiting = Game(r.json()["match"]["id"], {"black": r.json()["token"]}, r.json()["match"])
    schema.check("MatchState", (await api.client.get(f"{base}/{waiting.id}")).json())
    r = await api.client.post(f"{base}/{waiting.id}/join", json={"name": "Bo"})
    schema.check("SeatBody", r.json())

    # A computer's seat (bot, computer, bot_think_seconds).
    r = await api.client.post(base, json={"opponent": "bot:random", "seat": "white"})
    schema.check("SeatBody", r.json())

    # A random game with the chaos mages and private chambers, on a real clock.
    game = await api.start(variant="ultimate_archmage", time_control={"type": "realtime", "minutes": 30},
                           abandon_seconds=600)
    schema.check("Legal", await api.legal(game, "white"))  # the setup: `setup` listed
    rng = random.Random(21)
    powers = 0
    for played in range(400):  # a hundred actions, and on until a power was used
        if game.match["status"] == "finished" or (played >= 100 and powers):
            break
        if played == 20:  # the match's other events, long before any ending
            await _talk(api, schema, game)
        colour = game.match["to_move"]
        legal = await api.legal(game, colour)
        schema.check("Legal", legal)
        if legal["setup"]:
            action = {"type": "setup", "backrow": rng.sample(legal["setup"], 8)}
        else:
            action = rng.choice(legal["actions"])
        powers += action.get("power") is not None
        await _acted(api, schema, game, colour, action)
    assert powers, "no power used: the test saw no power's payload"

    # Its end and a rematch offer.
    white = game.auth("white")
    if game.match["status"] == "active":
        r = await api.client.post(f"{base}/{game.id}/resign", headers=white)
        schema.check("MatchBody", r.json())
    r = await api.client.post(f"{base}/{game.id}/rematch", headers=white)
    assert r.status_code == 200, r.text
    schema.check("RematchBody", r.json())
    r = await api.client.post(f"{base}/{game.id}/rematch/decline", headers=white)
    schema.check("MatchBody", r.json())

    finished = (await api.client.get(f"{base}/{game.id}")).json()
    assert finished["status"] == "finished"
    schema.check("MatchState", finished)
    log = (await api.client.get(f"{base}/{game.id}/actions")).json()
    schema.check("LogEntry", log, array=True)
    kinds = {entry["action"]["type"] for entry in log}
    assert {"join", "setup", "draw_offer", "rematch_offer", "rematch_withdraw"} <= kinds, kinds
    states = (await api.client.get(f"{base}/{game.id}/states", params={"from": 1, "to": 40})).json()
    schema.check("StateHistory", states)
    schema.check("MatchPage", (await api.client.get(base, params={"limit": 5})).json())


async def test_the_state_schema_names_the_fields_docs_api_md_lists(client: httpx.AsyncClient) -> None:
    """docs/api.md's Read table and MatchState name the same fields, no more, no fewer."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    section = text.split("### Read", 1)[1].split("\n### ", 1)[0]
    documented = {name for row in section.splitlines() if row.startswith("| `")
                  for name in re.findall(r"`(\w+)`", row.split("|")[1])}
    schema = await _schema(client)
    assert documented == set(schema.components["schemas"]["MatchState"]["properties"])


async def test_the_example_is_a_state_the_server_makes(api: Api) -> None:
    """The description's MatchState example is White's setup at version 1 of a joined
    real-time match, as the server makes it (what the deal and the moment change aside)."""
    game = await api.start(time_control={"type": "realtime", "minutes": 10, "increment": 5})
    real = await api.state(game)
    dealt = {"id", "tower", "chaos", "seed_commitment", "created_at", "server_time", "clock", "players", "position"}
    assert set(real) == set(MATCH_EXAMPLE)
    assert {k: v for k, v in real.items() if k not in dealt} == {
        k: v for k, v in MATCH_EXAMPLE.items() if k not in dealt}
    assert {k: v for k, v in real["clock"].items() if k != "setup"} == {
        k: v for k, v in MATCH_EXAMPLE["clock"].items() if k != "setup"}
    assert [c["floor"] for c in real["tower"]] == [c["floor"] for c in MATCH_EXAMPLE["tower"]]
    # The position text differs only in its tower field (the seventh), which names the dealt mages.
    fields, example = real["position"].split(" "), MATCH_EXAMPLE["position"].split(" ")
    assert fields[:6] + fields[7:] == example[:6] + example[7:]
    assert real["players"]["black"] == MATCH_EXAMPLE["players"]["black"]
