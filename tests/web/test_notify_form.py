"""The account page's grid of notifications without JavaScript: a row per kind
of notice, a labelled box per channel; the form post saves the cells it names
(and only those) into the preferences the API reads; a post without the
session's CSRF token changes nothing; the page keeps one status region."""

from __future__ import annotations

import re

import httpx

from app.notify.kinds import DEFAULTS, KINDS
from app.web.notify_grid import KIND_WORDS
from tests.web.accounts_helpers import csrf_of, sign_up

PREFS = "/api/v1/account/notification-preferences"


async def stored(client: httpx.AsyncClient) -> dict[str, dict[str, bool]]:
    return (await client.get(PREFS)).json()["preferences"]  # type: ignore[no-any-return]


def boxes(page: str) -> dict[str, bool]:
    """{kind.channel: ticked} of the grid's enabled boxes."""
    found = re.findall(r'<input type="checkbox" name="([a-z_]+\.[a-z]+)"([^>]*)>', page)
    return {name: " checked" in rest for name, rest in found if "disabled" not in rest}


async def test_every_kind_has_a_row_with_labelled_boxes(client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ada")
    page = (await client.get("/account")).text
    assert set(KIND_WORDS) == set(KINDS)
    for kind in KINDS:
        assert f'<th scope="row" id="notify-row-{kind}">{KIND_WORDS[kind]}</th>' in page
        for channel, phrase in (("inbox", "in the bell"), ("push", "by push")):
            assert f'name="cells" value="{kind}.{channel}"' in page
            assert f'<span class="visually-hidden">{KIND_WORDS[kind]}: {phrase}</span>' in page
    assert boxes(page) == {f"{k}.{c}": DEFAULTS[(k, c)] for k in KINDS for c in ("inbox", "push")}
    assert page.count('role="status"') == 1


async def test_the_form_saves_the_cells_it_names(client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ada")
    csrf = await csrf_of(client)
    shown = ["your_turn.inbox", "your_turn.push", "match_ended.push", "challenge_declined.inbox"]
    # Ticked: your_turn by push, match_ended by push; the others named are off.
    r = await client.post("/account/notifications", data={"csrf_token": csrf, "cells": shown,
                                                          "your_turn.push": "on", "match_ended.push": "on",
                                                          "challenge.push": "on"})  # not named in cells: ignored
    assert r.status_code == 303 and r.headers["location"] == "/account?notifications=saved#notify-title"
    got = await stored(client)
    assert got["your_turn"] == {"inbox": False, "push": True, "email": False}
    assert got["match_ended"]["push"] is True and got["challenge_declined"]["inbox"] is False
    assert got["challenge"]["push"] is DEFAULTS[("challenge", "push")]  # unnamed: as it was
    assert got["rematch_offered"] == {c: DEFAULTS[("rematch_offered", c)] for c in ("inbox", "push", "email")}
    page = (await client.get(r.headers["location"])).text
    assert '<p class="note" id="account-said" role="status">Your notification choices are saved.</p>' in page
    assert boxes(page)["your_turn.inbox"] is False and boxes(page)["match_ended.push"] is True


async def test_a_forged_or_odd_post_changes_nothing(client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ada")
    before = await stored(client)
    r = await client.post("/account/notifications", data={"csrf_token": "forged", "cells": ["your_turn.inbox"]})
    assert r.status_code == 403 and "This form had expired" in r.text
    r = await client.post("/account/notifications", data={"csrf_token": await csrf_of(client),
                                                          "cells": ["no_kind.push", "your_turn.fax", "x", ""]})
    assert r.status_code == 303
    assert await stored(client) == before


async def test_signed_out_the_post_goes_to_sign_in(client: httpx.AsyncClient) -> None:
    r = await client.post("/account/notifications", data={"cells": ["your_turn.inbox"]})
    assert r.status_code == 303 and r.headers["location"].startswith("/login")


async def test_the_page_has_one_status_region_when_a_token_is_shown(client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ada")
    made = await client.post("/account/tokens", data={"name": "bot", "scopes": "play",
                                                      "csrf_token": await csrf_of(client)})
    assert made.status_code == 200 and 'id="new-token"' in made.text
    assert made.text.count('role="status"') == 1
