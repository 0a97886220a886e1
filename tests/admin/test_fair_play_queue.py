"""The admins' fair-play queue (/admin/fair-play): the cases the rating rules
raised, with their evidence and no address; "Mark as cleared"; and "Close for
cheating", which gives the cheater's victims back what they lost (at most 150
points each, in the audit log and on their profiles). On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import httpx

from app.accounts import ratings_of
from app.accounts.refunds import MOST
from tests.accounts.played import member, rated_match
from tests.admin.conftest import AdminClient


async def _farmed(app: Any) -> tuple[Any, Any, list[str]]:
    """Main beat Second five times quickly: two boosting cases."""
    parts = app.state.parts
    main, second = await member(parts.accounts, "Main"), await member(parts.accounts, "Second")
    made = [await rated_match(parts.service, main, second) for _ in range(5)]
    return main, second, made


async def test_the_queue_shows_each_case_with_its_evidence_and_clears(app: Any, admin: AdminClient,
                                                                      client: httpx.AsyncClient) -> None:
    _, _, made = await _farmed(app)
    page = await admin.get("/admin/fair-play")
    assert page.status_code == 200
    text = page.text
    assert "boosting" in text and "Main" in text and "Second" in text and "2 cases" in text
    assert made[-1] in text and made[3] in text and made[0] not in text  # the matches that raised it
    assert "no rating moved" in text and "10.9.0.1" not in text  # evidence, never an address
    # Without the session's CSRF token nothing changes.
    refused = await admin.post("/admin/fair-play/clear", data={"kind": "boosting", "account": "Main",
                                                               "other": "Second"})
    assert refused.status_code == 403
    done = await admin.post("/admin/fair-play/clear", data={"kind": "boosting", "account": "Main",
                                                            "other": "Second", "csrf_token": admin.csrf})
    assert done.status_code == 303 and "Cleared+2+cases" in done.headers["location"]
    assert "boosting" not in (await admin.get("/admin/fair-play")).text.split("<h1>")[1].split("Cleared cases")[1]
    cleared = (await admin.get("/admin/fair-play?cleared=1")).text
    assert "boosting" in cleared and "cleared by root" in cleared
    audit = (await admin.get("/admin/audit")).text
    assert "fair_play_cleared" in audit
    # Only an admin sees the queue.
    assert (await client.get("/admin/fair-play")).status_code in (303, 401, 403)


async def test_closing_for_cheating_refunds_the_victims(app: Any, admin: AdminClient) -> None:
    parts = app.state.parts
    cheat = await member(parts.accounts, "Cheat")
    victims = [await member(parts.accounts, f"Victim{i}") for i in range(3)]
    before = {}
    for victim in victims:  # each loses once to the cheater, rated
        before[victim.id] = 1500.0
        await rated_match(parts.service, cheat, victim)
    lost = {v.id: before[v.id] - (await ratings_of(parts.service.engine, v.id))["standard"].rating for v in victims}
    assert all(points > 0 for points in lost.values())
    await parts.accounts.sign_up("Innocent", "correct horse battery", "10.9.9.9")
    done = await admin.post("/admin/fair-play/close", data={"account": "Cheat", "reason": "engine use",
                                                            "csrf_token": admin.csrf})
    assert done.status_code == 303 and "got+back" in done.headers["location"]
    assert (await parts.accounts.by_name("Cheat")).closed
    for victim in victims:
        now = (await ratings_of(parts.service.engine, victim.id))["standard"].rating
        assert abs(now - (1500.0 - lost[victim.id] + min(round(lost[victim.id]), MOST))) < 1e-6, victim.name
        profile = await admin.http.get(f"/@/{victim.name}")
        assert "Refund" in profile.text and f"+{min(round(lost[victim.id]), MOST)}" in profile.text
    assert "rating_refunded" in (await admin.get("/admin/audit")).text
