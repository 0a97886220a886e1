"""R20: while a match runs, no response of any endpoint holds the seed or the
order of the chaos deck; once it is over the seed is revealed and checks out."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import httpx
import pytest

from app.matches import MatchService
from app.rules import shuffle
from app.rules.mages import CHAOS_MAGES, MAGE_CODES, MAGES

from ..conftest import ROW, Api, Game


class Recorder:
    """Every response the client receives, body and headers as text."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.texts: list[tuple[str, str]] = []
        self._send = client.send

        async def send(request: httpx.Request, **kw: Any) -> httpx.Response:
            response = await self._send(request, **kw)
            await response.aread()
            self.texts.append((f"{request.method} {request.url.path}", response.text + repr(response.headers)))
            return response

        client.send = send  # type: ignore[method-assign]


async def _secrets(service: MatchService, game: Game) -> tuple[str, list[str]]:
    rec = await service.keeper.get(game.id, fresh=True)  # noqa: SLF001 - the test looks behind the API on purpose
    return rec.seed, [MAGES[m] for m in rec.state.deck]


def _lists(value: Any) -> list[list[Any]]:
    out = []
    if isinstance(value, list):
        out.append(value)
        for v in value:
            out += _lists(v)
    elif isinstance(value, dict):
        for v in value.values():
            out += _lists(v)
    return out


def _positions(value: Any) -> list[str]:
    if isinstance(value, list):
        return [p for v in value for p in _positions(v)]
    if isinstance(value, dict):
        own = [value["position"]] if isinstance(value.get("position"), str) else []
        return own + [p for v in value.values() for p in _positions(v)]
    return []


def _assert_no_secret(texts: list[tuple[str, str]], seed: str, deck: list[str]) -> None:
    canonical = [MAGES[m] for m in CHAOS_MAGES if MAGES[m] in deck]
    codes = ",".join(MAGE_CODES[MAGES.index(name)] for name in deck)
    positions = 0
    for where, text in texts:
        assert seed not in text, f"the seed leaked in {where}"
        assert not codes or codes not in text, f"the deck order, in the position's codes, leaked in {where}"
        try:
            body = json.loads(text[: text.rindex("Headers(")])
        except ValueError:
            body = None
        for position in _positions(body):  # the position text masks both (issue 21)
            positions += 1
            assert position.split(" ")[13:15] == ["?", "?"], f"{where}: {position}"
        # The deck order: no list in any answer lists the undealt cards in deck order
        # (unless that order happens to be the canonical one every state uses).
        if deck != canonical:
            try:
                body = json.loads(text[: text.rindex("Headers(")])
            except ValueError:
                continue
            for items in _lists(body):
                names = [x for x in items if isinstance(x, str) and x in deck]
                assert names != deck, f"the deck order leaked in {where}: {items}"
            joined = '", "'.join(deck)
            assert joined not in text and '","'.join(deck) not in text, f"deck order in {where}"
    assert positions > 0  # the states answered carry a position


async def _every_endpoint(api: Api, game: Game) -> None:
    base = f"/api/v1/matches/{game.id}"
    await api.state(game)
    await api.client.get("/api/v1/matches")
    await api.client.get("/api/v1/matches", params={"status": "active"})
    await api.client.get(f"{base}/actions")
    for colour in ("white", "black"):
        await api.client.get(f"{base}/legal", headers=game.auth(colour))


@pytest.mark.parametrize("variant", ["standard", "rotating", "archmage", "ultimate_archmage"])
async def test_no_endpoint_reveals_the_seed_or_deck_while_running(
        api: Api, service: MatchService, variant: str) -> None:
    recorder = Recorder(api.client)
    rng = random.Random(variant)
    game = await api.create(variant=variant, no_progress_rounds=0)
    seed, deck = await _secrets(service, game)
    assert len(seed) >= 32  # 128 bits of hex at least
    assert game.match["seed"] is None and game.match["custom"] is False
    assert game.match["seed_commitment"] == hashlib.sha256(seed.encode()).hexdigest()
    await api.join(game)
    await _every_endpoint(api, game)
    await api.setups(game)
    draw = f"/api/v1/matches/{game.id}/draw"
    await api.client.post(draw, json={"offer": True}, headers=game.auth("white"))
    await api.client.post(draw, json={"offer": False}, headers=game.auth("black"))
    await api.state(game)
    # Play a few rounds at random (the rotating deck draws new cards at each round's end).
    for _ in range(60):
        colour = game.match["to_move"]
        legal = await api.legal(game, colour)
        await api.act(game, colour, rng.choice(legal["actions"]))
        if game.match["status"] == "finished":
            break
    if game.match["status"] == "active":
        await _every_endpoint(api, game)
        # A stale and an illegal action answer errors: they hold no secret either.
        await api.post(game, "white", {"type": "pass"}, version=0)
        await api.post(game, game.match["to_move"], {"type": "setup", "backrow": ROW})
    _assert_no_secret(recorder.texts, seed, deck)
    assert len(recorder.texts) > 20
    # The end reveals it: resign (or the match ended already).
    if game.match["status"] == "active":
        r = await api.client.post(f"/api/v1/matches/{game.id}/resign", headers=game.auth("white"))
        assert seed in r.text
    final = await api.state(game)
    assert final["seed"] == seed
    assert hashlib.sha256(final["seed"].encode()).hexdigest() == final["seed_commitment"]
    log = (await api.client.get(f"/api/v1/matches/{game.id}/actions")).text
    assert seed not in log  # the log never carries it: it is in the state


async def test_the_revealed_seed_reproduces_the_deal(api: Api, service: MatchService) -> None:
    game = await api.start()
    r = await api.client.post(f"/api/v1/matches/{game.id}/resign", headers=game.auth("black"))
    match = r.json()["match"]
    dealt = [t["mage"] for t in match["tower"] if t["floor"] >= 13]
    order = [MAGES[m] for m in shuffle(CHAOS_MAGES, match["seed"], "deck")]
    assert order[:4] == dealt


@pytest.mark.parametrize("how", ["resign", "draw", "abort"])
async def test_the_seed_appears_once_the_match_is_over(api: Api, service: MatchService, how: str) -> None:
    recorder = Recorder(api.client)
    game = await api.start()
    seed, _ = await _secrets(service, game)
    if how == "resign":
        await api.setups(game)
        r = await api.client.post(f"/api/v1/matches/{game.id}/resign", headers=game.auth("white"))
    elif how == "draw":
        await api.setups(game)
        await api.client.post(f"/api/v1/matches/{game.id}/draw", json={"offer": True}, headers=game.auth("white"))
        r = await api.client.post(f"/api/v1/matches/{game.id}/draw", json={"offer": True},
                                  headers=game.auth("black"))
    else:
        r = await api.client.post(f"/api/v1/matches/{game.id}/abort", headers=game.auth("white"))
    assert r.status_code == 200
    assert all(seed not in text for _, text in recorder.texts[:-1])
    assert r.json()["match"]["seed"] == seed
    listed = (await api.client.get("/api/v1/matches", params={"status": "finished"})).json()["matches"]
    assert [m["seed"] for m in listed] == [seed]


async def test_a_custom_match_shows_its_seed_from_the_start(api: Api) -> None:
    game = await api.create(seed="open-seed", chaos=["dream_lord", "seer"])
    assert game.match["custom"] is True and game.match["seed"] == "open-seed"
    chosen = await api.create(chaos=["conjurer"])
    assert chosen.match["custom"] is True and chosen.match["seed"] is not None
    assert chosen.match["tower"][12]["mage"] == "conjurer"


async def test_commitments_differ_between_matches(api: Api) -> None:
    games = [await api.create() for _ in range(5)]
    assert len({g.match["seed_commitment"] for g in games}) == 5


async def test_every_seat_and_watcher_reads_the_same_masked_position(api: Api) -> None:
    game = await api.start()
    await api.setups(game)
    answers = [(await api.client.get(f"/api/v1/matches/{game.id}", headers=headers)).json()["position"]
               for headers in (game.auth("white"), game.auth("black"), {})]
    assert len(set(answers)) == 1
    fields = answers[0].split(" ")
    assert len(fields) == 17 and fields[1] == "dw" and fields[13:15] == ["?", "?"]
