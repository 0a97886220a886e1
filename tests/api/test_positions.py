"""Issue 21: a casual match started from a position text, and refusals of
texts that cannot start one (each naming what is wrong, never a 500)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from app.matches import MatchService, store
from app.rules import from_text, public_text

from ..conftest import Api, Game

# notation.md's mid-game position: round 4 of a rotating match, Black to move.
MID = ("ed1m1cdf/4mfs1/1s3sDS/7C/4S2M/1U1FBf2/U1c5/BEb2EF1 ab w 4 21211200/11100132 00000011/00000000 "
       "..........e.|se.,mg.,fm.,me. -/- wb - e7 b 2* rm,al,dm,co/il,sh,en doc:rotating:18 rotating:10 -")
# ... and the position after Black's `remove oracle null` there (the round ends, the tower rotates).
AFTER = ("ed1m1cdf/4mfs1/1s3sDS/7C/4S2M/1U1FBf2/U1c5/BEb2EF1 dw w 5 21211200/12100132 00000011/00000000 "
         "............|rm.,se.,mg.,fm. -/- - - - - 0 al,dm,co/il,sh,en,me doc:rotating:18 rotating:10 -")


async def create(api: Api, position: str, **body: Any) -> Any:
    return await api.client.post(api.base, json={"position": position, "seat": "white", **body})


async def test_a_match_starts_from_the_position_and_its_log_replays_from_it(
        api: Api, service: MatchService) -> None:
    r = await create(api, MID)
    assert r.status_code == 201, r.text
    body = r.json()
    game = await api.join(Game(body["match"]["id"], {"white": body["token"]}, body["match"]))
    match = game.match
    assert (match["round"], match["phase"], match["to_move"]) == (4, "action", "black")
    # The options keep the start whole (public: its creator wrote it), marked custom.
    assert match["options"]["variant"] == "rotating"
    assert match["options"]["position"] == MID.replace("rotating:10 -", "rotating:10:custom -")
    # A custom match: its seed is public, and the commitment is the seed's hash as ever.
    assert match["custom"] is True and match["seed"] == "doc:rotating:18"
    assert match["seed_commitment"] == hashlib.sha256(b"doc:rotating:18").hexdigest()
    assert match["position"].split(" ")[13:15] == ["?", "doc:rotating:18"]
    legal = await api.legal(game, "black")
    assert sorted(map(str, legal["actions"])) == sorted(map(str, [
        {"type": "remove", "mage": "oracle", "power": None}, {"type": "remove", "mage": "oracle", "power": {}}]))
    await api.act(game, "black", {"type": "remove", "mage": "oracle", "power": None})
    rec = await service.keeper.get(game.id, fresh=True)
    expected = from_text(AFTER.replace("rotating:10 -", "rotating:10:custom -"))
    assert rec.state == expected
    # The replay's states start from the position, as the log rebuilt from scratch does.
    states = (await api.client.get(f"{api.base}/{game.id}/states")).json()["states"]
    assert states[-1]["match"]["position"] == public_text(expected)
    await api.client.post(f"{api.base}/{game.id}/resign", headers=game.auth("white"))
    replayed, stored = await store.replay_match(service.keeper.engine, game.id)  # the log, from scratch
    assert replayed == stored and replayed.round == 5 and replayed.over
    # Playing again starts from the same position, with its seed.
    await api.client.post(f"{api.base}/{game.id}/rematch", json={}, headers=game.auth("white"))
    r = await api.client.post(f"{api.base}/{game.id}/rematch", json={}, headers=game.auth("black"))
    again = await service.keeper.get(r.json()["match"]["rematch"]["match_id"], fresh=True)
    assert again.state == from_text(match["options"]["position"]) and again.seed == "doc:rotating:18"


REFUSED = [
    (MID.rsplit(" ", 1)[0], "17 fields"),
    (MID.replace("rm,al,dm,co/il,sh,en", "?"), "hides the deck"),
    (MID.replace("ab w 4", "qb w 4"), "turn field"),
    (MID.replace("21211200/", "31211200/"), "white owns 4 dragon"),
    (MID.replace("rm,al,dm,co/", "rm,al,dm/"), "conjurer is in 0 places"),
    (MID.replace("ab w", "xb w").replace("rotating:10 -", "rotating:10 w:resigned"), "over"),
    (MID.replace("doc:rotating:18", "%01"), "control character"),
    ("\u009f" + MID, "control character"),
    (MID.replace("ab w 4", "ab w \u00b24"), "round field"),  # a digit to str.isdigit(), not to int()
    (MID.replace("ab w 4", "ab w 123456789012345678901234567890"), "counts from 1 to"),
]


async def test_a_text_that_is_no_playable_position_is_refused_with_the_reason(api: Api) -> None:
    for position, says in REFUSED:  # one app for them all: the suite is slow enough
        r = await create(api, position)
        assert r.status_code == 422 and r.json()["error"] == "illegal_position", r.text
        assert says in r.json()["detail"], (says, r.text)
    assert (await api.client.get(api.base)).json()["matches"] == []  # nothing was made


async def test_rated_seed_chaos_and_a_contrary_variant_are_refused(api: Api, service: MatchService) -> None:
    for body, says in (({"options": {"seed": "x"}}, "options.seed"),
                       ({"options": {"chaos": ["seer"]}}, "options.seed and options.chaos"),
                       ({"options": {"variant": "standard"}}, "options.variant"),
                       ({"options": {"no_progress_rounds": 3}}, "options.no_progress_rounds")):
        r = await create(api, MID, **body)
        assert r.status_code == 422 and says in r.json()["detail"], r.text
    ok = await create(api, MID, options={"variant": "rotating"})  # agreeing is fine
    assert ok.status_code == 201, ok.text
    from app.kernel.errors import BadRequest

    with pytest.raises(BadRequest, match="casual"):
        await service.lobby.create({"position": MID}, seat="white", rated=True, account_id=1)


async def test_a_computer_to_move_in_the_position_plays_from_it(api: Api) -> None:
    from tests.waiting import until

    r = await create(api, MID, opponent="bot:random")  # the bot holds Black, to move
    assert r.status_code == 201, r.text
    match_id = r.json()["match"]["id"]

    async def moved() -> bool:
        return (await api.client.get(f"{api.base}/{match_id}")).json()["version"] >= 1

    await until(moved, "the bot played from the position")
    log = (await api.client.get(f"{api.base}/{match_id}/actions")).json()
    assert log[0]["player"] == "black" and log[0]["action"]["mage"] == "oracle"
