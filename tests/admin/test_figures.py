"""The figures against the known set of matches: counts per day, now, win
rates, reasons, lengths, bots; each finished match counted once, also when
figures are asked for again or rebuilt; the SVG charts on the page."""

from __future__ import annotations

from typing import Any

import pytest

from app.admin import figures
from tests.admin.conftest import AdminClient
from tests.admin.known import Known, known_set
from tests.conftest import Api


@pytest.fixture
async def known(api: Api, service: Any, admin: AdminClient) -> Known:
    return await known_set(api, service, admin)


async def stats(admin: AdminClient, known: Known) -> dict[str, Any]:
    r = await admin.get("/admin/api/stats", params={"from": known.days["resigned"], "to": known.days["judged"]})
    assert r.status_code == 200, r.text
    return r.json()


async def test_the_figures_of_the_known_set(admin: AdminClient, known: Known) -> None:
    s = await stats(admin, known)
    assert s["from"] == known.days["resigned"] and s["to"] == known.days["judged"]
    assert s["active_now"] == 2 and s["waiting_now"] == 1 and s["finished"] == 5
    assert [(d["finished"], d["against_bots"]) for d in s["per_day"]] == [(2, 0), (0, 0), (0, 0), (1, 0), (2, 1)]
    # Played (not aborted): Black won twice, White once, one draw.
    assert s["win_rate"] == {"played": 4, "white": 0.25, "black": 0.5, "draw": 0.25}
    assert s["by_variant"]["standard"] == {"finished": 4, "played": 3, "white": 0.0, "black": 0.6667, "draw": 0.3333}
    assert s["by_variant"]["ultimate_archmage"]["white"] == 1.0
    assert s["by_variant"]["rotating"] == {"finished": 0, "played": 0, "white": None, "black": None, "draw": None}
    assert {k: v for k, v in s["reasons"].items() if v} == {
        "resigned": 2, "agreement": 1, "aborted": 1, "adjudicated": 1}
    assert s["against_bots"] == {"matches": 1, "share": 0.2}
    assert s["rounds"]["median"] == 1 and sum(b["matches"] for b in s["rounds"]["histogram"]) == 5
    assert s["actions"]["histogram"] == [{"from": 0, "to": 9, "matches": 5}]
    assert s["median_seconds_per_action"] is not None and s["median_seconds_per_action"] >= 0
    # Only the days asked for.
    r = await admin.get("/admin/api/stats", params={"from": known.days["judged"], "to": known.days["judged"]})
    assert r.json()["finished"] == 2 and r.json()["against_bots"]["share"] == 0.5


async def test_each_match_is_counted_once_and_new_ends_are_added(
    app: Any, admin: AdminClient, api: Api, known: Known,
) -> None:
    first = await stats(admin, known)
    assert await stats(admin, known) == first  # asked again: nothing counted twice
    assert await figures.catch_up(app.state.parts.engine) == 0
    # A match that ends now is counted at the next look (on its own day).
    assert (await admin.moderate(known.games["playing"].id, "black", "time's up")).status_code == 200
    day = (await api.client.get(f"/api/v1/matches/{known.games['playing'].id}")).json()
    assert day["status"] == "finished"
    later = (await admin.get("/admin/api/stats", params={"from": known.days["resigned"], "to": "2100-01-01"}))
    assert later.status_code == 400  # too many days at once
    wide = await admin.get("/admin/api/stats", params={"from": known.days["resigned"], "to": known.days["judged"]})
    whole = wide.json()["finished"]
    assert await figures.rebuild(app.state.parts.engine) == 6
    again = await stats(admin, known)
    assert again["finished"] == whole and again["active_now"] == 1
    assert again["reasons"]["adjudicated"] == first["reasons"]["adjudicated"] + (whole - first["finished"])


@pytest.mark.parametrize("params, word", [
    ({"from": "2026-13-01"}, "from"), ({"to": "soon"}, "to"), ({"from": "2026-02-02", "to": "2026-02-01"}, "after"),
    ({"days": "3"}, "days"),
])
async def test_bad_days_get_a_clear_400(admin: AdminClient, params: dict[str, str], word: str) -> None:
    r = await admin.get("/admin/api/stats", params=params)
    assert r.status_code == 400 and word in r.json()["detail"]


async def test_the_figures_page_draws_svg_charts(admin: AdminClient, known: Known) -> None:
    r = await admin.get("/admin/figures", params={"from": known.days["resigned"], "to": known.days["judged"]})
    assert r.status_code == 200
    assert r.text.count('<svg class="chart"') == 5
    for text in ("Matches finished per day", "Results by colour and variant", "Ending reasons",
                 "Length in rounds", "Length in moves", "white wins", "adjudicated", 'role="img"'):
        assert text in r.text
    assert "<script" not in r.text.split("</header>")[1]
    default = await admin.get("/admin/api/stats")
    assert default.status_code == 200 and len(default.json()["per_day"]) == 30


async def test_month_sums_and_day_sums_add_up_alike_over_any_range(app: Any) -> None:
    """Ranges that start and end inside months, on their edges, or inside one
    month: the figures equal the sums of the summaries themselves."""
    import random
    from datetime import UTC, date, datetime, timedelta

    rng = random.Random(4)
    start = datetime(2026, 1, 20, 12, tzinfo=UTC)
    made = [figures.Summary(f"m{i}", start + timedelta(hours=7 * i), rng.choice(("standard", "rotating")),
                            rng.random() < 0.3, rng.choice((None, "white", "black")),
                            rng.choice(("resigned", "aborted", "eliminated")), rng.randint(1, 30),
                            rng.randint(0, 200), {str(rng.randint(0, 20)): 1}) for i in range(400)]
    async with app.state.parts.engine.begin() as conn:
        await figures._lock_mark(conn)
        await figures.add_to_sums(conn, made)
    for first, last in ((date(2026, 1, 20), date(2026, 5, 1)), (date(2026, 2, 1), date(2026, 3, 31)),
                        (date(2026, 1, 31), date(2026, 3, 1)), (date(2026, 2, 10), date(2026, 2, 20)),
                        (date(2026, 3, 1), date(2026, 3, 31)), (date(2025, 12, 1), date(2026, 12, 31))):
        s = await figures.stats(app.state.parts.engine, first, last)
        inside = [m for m in made if first <= m.day <= last]
        assert s["finished"] == len(inside), (first, last)
        assert s["reasons"]["aborted"] == sum(m.reason == "aborted" for m in inside)
        assert sum(d["against_bots"] for d in s["per_day"]) == sum(m.against_bot for m in inside)
        played = [m for m in inside if m.reason != "aborted"]
        assert s["win_rate"]["played"] == len(played)
        assert sum(b["matches"] for b in s["actions"]["histogram"]) == len(inside)
