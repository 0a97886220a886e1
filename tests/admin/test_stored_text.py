"""Issue 17, item 4: every text a client or an admin writes is valid text when
stored. A lone surrogate or a NUL anywhere in a field that is stored (or that
an admin's query quotes into the audit log) is refused with a 400 that names
the field, is never stored, and is never a 500: a moderation reason with
"\\ud83d" once made a match's pages, the audit log and the figures answer 500
for good.

A property test per gateway: hypothesis puts the flaw anywhere in otherwise
ordinary text.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from app.db.admin_models import admin_audit
from app.db.models import actions, matches, seats
from tests.admin.conftest import AdminClient, login_token
from tests.conftest import Api

FLAWS = ["\x00", "\ud800", "\udbff", "\udc00", "\udfff", "\ud83d"]
# Ordinary text around the flaw: printable, no surrogates, no controls.
PLAIN = st.text(st.characters(min_codepoint=0x20, exclude_categories=("Cs", "Cc")), max_size=12)
FLAWED = st.tuples(PLAIN, st.sampled_from(FLAWS), PLAIN).map("".join)
EXAMPLES = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
JSON = {"content-type": "application/json"}


def _body(value: Any) -> bytes:
    """JSON as a client may write it: lone surrogates as \\u escapes."""
    return json.dumps(value).encode()


async def _rows(app: Any) -> tuple[int, int, int, int]:
    async with app.state.parts.engine.connect() as conn:
        return tuple([int((await conn.execute(select(func.count()).select_from(t))).scalar_one())  # type: ignore[return-value]
                      for t in (matches, seats, actions, admin_audit)])


def _refused(r: Any, field: str) -> None:
    assert r.status_code == 400, (r.status_code, r.text)
    assert field in (r.json()["detail"] if r.headers["content-type"].startswith("application/json") else r.text)


@EXAMPLES
@given(name=FLAWED)
async def test_a_new_players_name(app: Any, api: Api, name: str) -> None:
    before = await _rows(app)
    r = await api.client.post(api.base, content=_body({"name": name}), headers=JSON)
    _refused(r, "name")
    assert await _rows(app) == before


@EXAMPLES
@given(name=FLAWED)
async def test_a_joining_players_name(app: Any, api: Api, name: str) -> None:
    game = await api.create()
    before = await _rows(app)
    r = await api.client.post(f"{api.base}/{game.id}/join", content=_body({"name": name}), headers=JSON)
    _refused(r, "name")
    assert await _rows(app) == before and (await api.state(game))["status"] == "waiting"


@EXAMPLES
@given(seed=FLAWED)
async def test_a_chosen_seed(app: Any, api: Api, seed: str) -> None:
    before = await _rows(app)
    r = await api.client.post(api.base, content=_body({"options": {"seed": seed}}), headers=JSON)
    _refused(r, "seed")
    assert await _rows(app) == before


@EXAMPLES
@given(client_id=FLAWED)
async def test_an_actions_id(app: Any, api: Api, client_id: str) -> None:
    game = await api.start()
    before = await _rows(app)
    body = {"action": {"type": "setup", "backrow": ["construct", "fey", "elemental", "dragon", "undead", "beast",
                                                    "spirit", "myrmidon"]}, "version": game.version, "id": client_id}
    r = await api.client.post(f"{api.base}/{game.id}/actions", content=_body(body),
                              headers={**JSON, **game.auth("white")})
    _refused(r, "id")
    assert await _rows(app) == before


@EXAMPLES
@given(reason=FLAWED)
async def test_a_moderation_reason(app: Any, api: Api, admin: AdminClient, reason: str) -> None:
    game = await api.start()
    before = await _rows(app)
    r = await admin.http.post(f"/admin/api/matches/{game.id}/moderate",
                              content=_body({"verdict": "abort", "reason": reason}),
                              headers={**JSON, "X-CSRF-Token": admin.csrf})
    _refused(r, "reason")
    assert await _rows(app) == before and (await api.state(game))["status"] == "active"


def _form(fields: dict[str, str]) -> bytes:
    """A form body as a browser would send it, a lone surrogate written as its
    (ill-formed) UTF-8 bytes."""
    return "&".join(f"{k}={quote(v.encode('utf-8', 'surrogatepass'))}" for k, v in fields.items()).encode()


FORM = {"content-type": "application/x-www-form-urlencoded"}


@EXAMPLES
@given(reason=FLAWED)
async def test_a_moderation_reason_from_the_page(app: Any, api: Api, admin: AdminClient, reason: str) -> None:
    game = await api.start()
    before = await _rows(app)
    r = await admin.http.post(f"/admin/matches/{game.id}/moderate", headers=FORM,
                              content=_form({"verdict": "abort", "reason": reason, "csrf_token": admin.csrf}))
    assert r.status_code in (303, 400), r.text
    if r.status_code == 400:  # refused, naming the field
        assert "reason" in r.text and await _rows(app) == before
    else:  # or the form's decoding replaced the broken bytes: what is stored is valid text
        assert "\x00" not in reason
        log = (await api.client.get(f"{api.base}/{game.id}/actions")).json()
        log[-1]["action"]["note"].encode("utf-8")
    assert (await admin.get(f"/admin/matches/{game.id}")).status_code == 200
    assert (await admin.get("/admin/audit")).status_code == 200


@EXAMPLES
@given(name=FLAWED)
async def test_a_sign_in_username(app: Any, client: Any, name: str) -> None:
    before = await _rows(app)
    token = login_token((await client.get("/admin/login")).text)
    r = await client.post("/admin/login", headers=FORM,
                          content=_form({"username": name, "password": "whatever it is", "csrf_token": token}))
    assert r.status_code == 400 and "username" in r.text.lower(), r.text
    assert await _rows(app) == before


@EXAMPLES
@given(player=FLAWED)
async def test_the_histories_player_filter(app: Any, admin: AdminClient, player: str) -> None:
    query = "player=" + quote(player.encode("utf-8", "surrogatepass"))
    before = await _rows(app)
    for url in ("/admin", "/admin/api/matches", "/admin/api/matches.csv"):
        r = await admin.get(f"{url}?{query}")
        assert r.status_code == 400 or ("\x00" not in player and r.status_code == 200), (url, r.status_code)
        if r.status_code == 400:
            assert "player" in r.text
    after = await _rows(app)
    assert after[:3] == before[:3]
    async with app.state.parts.engine.connect() as conn:
        details = (await conn.execute(select(admin_audit.c.detail))).scalars().all()
    for detail in details:  # whatever an export recorded is valid text
        json.dumps(detail, ensure_ascii=False).encode("utf-8")
    assert (await admin.get("/admin/audit")).status_code == 200
