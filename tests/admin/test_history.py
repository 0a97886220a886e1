"""The history's filters, sorts, cursor pages, lookup by id and CSV, against a
known set of matches (tests/admin/known.py)."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from tests.admin.conftest import AdminClient
from tests.admin.known import Known, known_set
from tests.conftest import Api

ALL = ("resigned", "agreed", "playing", "bot", "waiting", "called_off", "judged", "bot_lost")


@pytest.fixture
async def known(api: Api, service: Any, admin: AdminClient) -> Known:
    return await known_set(api, service, admin)


async def listed(admin: AdminClient, **params: Any) -> list[dict[str, Any]]:
    r = await admin.get("/admin/api/matches", params=params)
    assert r.status_code == 200, r.text
    return r.json()["matches"]


async def names(admin: AdminClient, known: Known, **params: Any) -> set[str]:
    return {known.name_of(m["id"]) for m in await listed(admin, **params)}


async def test_each_filter_finds_exactly_its_matches(admin: AdminClient, known: Known) -> None:
    cases: list[tuple[dict[str, Any], set[str]]] = [
        ({}, set(ALL)),
        ({"status": "finished"}, {"resigned", "agreed", "called_off", "judged", "bot_lost"}),
        ({"status": "active"}, {"playing", "bot"}),
        ({"status": "waiting"}, {"waiting"}),
        ({"variant": "rotating"}, {"playing"}),
        ({"variant": "ultimate_archmage"}, {"judged"}),
        ({"variant": "standard"}, {"resigned", "agreed", "waiting", "called_off", "bot_lost"}),
        ({"from": known.days["playing"], "to": known.days["waiting"]}, {"playing", "bot", "waiting"}),
        ({"from": known.days["judged"]}, {"judged", "bot_lost"}),
        ({"to": known.days["resigned"]}, {"resigned", "agreed"}),
        ({"player": "ada"}, {"resigned", "playing", "bot", "judged"}),
        ({"player": "Fay"}, {"called_off", "judged"}),
        ({"player": "nobody"}, set()),
        ({"result": "white"}, {"judged"}),
        ({"result": "black"}, {"resigned", "bot_lost"}),
        ({"result": "draw"}, {"agreed"}),
        ({"reason": "resigned"}, {"resigned", "bot_lost"}),
        ({"reason": "agreement"}, {"agreed"}),
        ({"reason": "aborted"}, {"called_off"}),
        ({"reason": "adjudicated"}, {"judged"}),
        ({"opponent": "bot"}, {"bot", "bot_lost"}),
        ({"opponent": "human"}, set(ALL) - {"bot", "bot_lost"}),
        ({"player": "Ada", "status": "active", "opponent": "human"}, {"playing"}),
        ({"id": known.games["agreed"].id}, {"agreed"}),
    ]
    for params, expected in cases:
        assert await names(admin, known, **params) == expected, params


async def test_rows_say_who_played_and_how_it_ended(admin: AdminClient, known: Known) -> None:
    [row] = await listed(admin, id=known.games["bot_lost"].id)
    assert row["status"] == "finished" and row["variant"] == "standard"
    assert row["players"]["white"] == {"name": "Gus", "bot": None, "account": None, "rating": None}  # a guest: no account
    assert row["players"]["black"]["bot"] == "random"
    assert row["result"] == {"winner": "black", "reason": "resigned"}
    assert row["finished_at"] and row["version"] > 2
    assert "seed" not in row and "state" not in row


async def test_sorts_and_cursor_pages_walk_every_match_once(admin: AdminClient, known: Known) -> None:
    newest = [m["id"] for m in await listed(admin)]
    assert len(newest) == len(ALL)
    created = [m["created_at"] for m in await listed(admin)]
    assert created == sorted(created, reverse=True)
    oldest = [m["id"] for m in await listed(admin, sort="oldest")]
    assert oldest == newest[::-1]
    finished = await listed(admin, sort="finished")
    assert {known.name_of(m["id"]) for m in finished} == {"resigned", "agreed", "called_off", "judged", "bot_lost"}
    ends = [m["finished_at"] for m in finished]
    assert ends == sorted(ends, reverse=True)
    for sort, whole in (("newest", newest), ("oldest", oldest), ("finished", [m["id"] for m in finished])):
        seen: list[str] = []
        cursor = None
        for _ in range(10):
            params = {"limit": 3, "sort": sort, **({"cursor": cursor} if cursor else {})}
            r = await admin.get("/admin/api/matches", params=params)
            assert r.status_code == 200, r.text
            body = r.json()
            assert len(body["matches"]) <= 3
            seen += [m["id"] for m in body["matches"]]
            cursor = body["next_cursor"]
            if cursor is None:
                break
        assert seen == whole, sort
    # Pages keep their filter.
    r = await admin.get("/admin/api/matches", params={"limit": 1, "player": "Ada"})
    first = r.json()
    second = await listed(admin, limit=5, player="Ada", cursor=first["next_cursor"])
    assert len(second) == 3 and first["matches"][0]["id"] not in {m["id"] for m in second}


@pytest.mark.parametrize("params, word", [
    ({"status": "over"}, "status"), ({"variant": "chess"}, "variant"), ({"from": "yesterday"}, "from"),
    ({"from": "2026-02-02", "to": "2026-02-01"}, "from"), ({"result": "win"}, "result"),
    ({"reason": "boredom"}, "reason"), ({"opponent": "alien"}, "opponent"), ({"limit": "0"}, "limit"),
    ({"limit": "many"}, "limit"), ({"cursor": "abc"}, "cursor"), ({"sort": "random"}, "sort"),
    ({"colour": "white"}, "colour"), ({"id": "no\u0000pe"}, "id holds a NUL"),
])
async def test_bad_filters_get_a_clear_400(admin: AdminClient, params: dict[str, str], word: str) -> None:
    r = await admin.get("/admin/api/matches", params=params)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_request" and word in r.json()["detail"]


async def test_a_cursor_of_one_order_is_refused_in_another(admin: AdminClient, known: Known) -> None:
    cursor = (await admin.get("/admin/api/matches", params={"limit": 1})).json()["next_cursor"]
    r = await admin.get("/admin/api/matches", params={"limit": 1, "sort": "oldest", "cursor": cursor})
    assert r.status_code == 400 and "cursor" in r.json()["detail"]


async def test_the_csv_streams_the_same_filtered_history(admin: AdminClient, known: Known) -> None:
    r = await admin.get("/admin/api/matches.csv", params={"player": "Ada", "sort": "oldest"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert "attachment" in r.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert [row["id"] for row in rows] == [m["id"] for m in await listed(admin, player="Ada", sort="oldest")]
    judged = next(row for row in rows if row["id"] == known.games["judged"].id)
    assert judged["winner"] == "white" and judged["reason"] == "adjudicated" and judged["white"] == "Fay"
    everything = list(csv.DictReader(io.StringIO((await admin.get("/admin/api/matches.csv")).text)))
    assert len(everything) == len(ALL)


async def test_the_history_page_filters_and_finds_by_id(admin: AdminClient, known: Known) -> None:
    r = await admin.get("/admin", params={"variant": "rotating", "status": ""})
    assert r.status_code == 200
    assert known.games["playing"].id in r.text and known.games["resigned"].id not in r.text
    r = await admin.get("/admin", params={"id": known.games["judged"].id})
    assert r.status_code == 303 and r.headers["location"] == f"/admin/matches/{known.games['judged'].id}"
    r = await admin.get("/admin", params={"reason": "boredom"})
    assert r.status_code == 400 and "reason" in r.text
