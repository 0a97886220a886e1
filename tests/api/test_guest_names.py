"""A guest never wears an account's name, and a name or a chat line cannot
hide what it is (issue 31, break 4): a guest's name folded (NFKC, Unicode's
confusables skeleton, case) alike to an account's is refused, naming the
account; a name with an invisible character inside or a pile of combining
marks is refused naming the character; a chat line with a direction override
or made only of invisible characters is refused, saying which."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .members import Member, member
from .test_account_play import BASE, made

LOOK_ALIKES = ["Ada", "ada", "ADA", "\u0410da", "Ad\u0430", "\uff21\uff44\uff41", "\U0001d400da"]


@pytest.mark.parametrize("name", LOOK_ALIKES)
async def test_a_guest_name_that_folds_to_an_accounts_is_refused(
        client: httpx.AsyncClient, ada: Member, name: str) -> None:
    r = await client.post(BASE, json={"seat": "white", "name": name})
    assert r.status_code == 409 and r.json()["error"] == "name_taken", r.text
    assert "looks like the account 'Ada'" in r.json()["detail"] and "sign in as Ada" in r.json()["detail"]
    open_match = await made(client, ada)  # the account itself plays under its name
    r = await client.post(f"{BASE}/{open_match['id']}/join", json={"name": name})
    assert r.status_code == 409 and "looks like the account 'Ada'" in r.json()["detail"], r.text


async def test_a_computer_levels_name_and_a_names_fold_are_an_accounts_too(client: httpx.AsyncClient,
                                                                            ada: Member) -> None:
    r = await client.post(BASE, json={"seat": "white", "name": "RAND0M"})  # a zero for the O
    assert r.status_code == 409 and "'Random'" in r.json()["detail"], r.text
    for name in ("Grace", "Adam", "Ada Lovelace", "anonymous"):  # names of nobody's: taken as they are
        r = await client.post(BASE, json={"seat": "white", "name": name})
        assert r.status_code == 201 and r.json()["match"]["players"]["white"]["name"] == name, r.text
        assert r.json()["match"]["players"]["white"]["account"] is None  # shown as a guest's


async def test_a_capital_i_and_a_small_l_meet_whatever_the_case(app: Any, client: httpx.AsyncClient) -> None:
    """A capital I looks like a small l and a small i does not, so folding the case
    first or the look-alikes first must not matter: "MIKA", "MlKA" and "Mika"
    are all Mika; "AIex" (a capital i) is Alex."""
    await member(app, "Mika")
    await member(app, "Alex")
    for name, account in (("MIKA", "Mika"), ("MlKA", "Mika"), ("M1ka", "Mika"), ("AIex", "Alex"), ("ALEX", "Alex")):
        r = await client.post(BASE, json={"seat": "white", "name": name})
        assert r.status_code == 409 and f"looks like the account '{account}'" in r.json()["detail"], (name, r.text)


@pytest.mark.parametrize(("name", "said"), [
    ("Ad\u200ba", "blank or invisible character (\\u200b) at character 3"),
    ("Ad\u2060a", "blank or invisible character (\\u2060) at character 3"),
    ("Ad\u200da", "invisible format character (\\u200d) at character 3"),
    ("a" + "\u0301" * 39, "more than 3 combining marks"),
    ("Zo\u0308\u0308\u0308\u0308e", "more than 3 combining marks"),
])
async def test_a_name_hiding_characters_is_refused_naming_them(client: httpx.AsyncClient, name: str,
                                                               said: str) -> None:
    r = await client.post(BASE, json={"seat": "white", "name": name})
    assert r.status_code == 400 and said in r.json()["detail"], r.text


@pytest.mark.parametrize(("line", "said"), [
    ("gg \u202eez", "direction override (\\u202e at character 4)"),
    ("\u2066hello", "direction override (\\u2066 at character 1)"),
    ("\u200b\u200b\u200b", "only of invisible characters"),
    ("\u3164 \u2800", "only of invisible characters"),
])
async def test_a_chat_line_that_reorders_or_shows_nothing_is_refused(
        app: Any, client: httpx.AsyncClient, ada: Member, line: str, said: str) -> None:
    game = await made(client, ada, await member(app, "Bea"))
    r = await client.post(f"{BASE}/{game['id']}/chat", json={"text": line, "room": "players"}, headers=ada.token())
    assert r.status_code == 400 and r.json()["error"] == "bad_chat_line" and said in r.json()["detail"], r.text
    r = await client.post(f"{BASE}/{game['id']}/chat", json={"text": "gg ez", "room": "players"}, headers=ada.token())
    assert r.status_code == 201, r.text


async def test_a_guest_waiting_in_a_pool_never_wears_an_accounts_name(client: httpx.AsyncClient,
                                                                      ada: Member) -> None:
    r = await client.post("/api/v1/pools/standard:10+5/join", json={"name": "\u0410DA"})
    assert r.status_code == 409 and "looks like the account 'Ada'" in r.json()["detail"], r.text
    r = await client.post("/api/v1/pools/standard:10+5/join", json={"name": "Grace"})
    assert r.status_code == 200, r.text
