"""Issue 17, item 8: admin inputs that were 500s are 400s that say what is
wrong, on the page, the JSON and the CSV alike."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.admin.conftest import AdminClient, login_token

CASES = [
    # (pages, query, the words the refusal must hold)
    (("/admin", "/admin/api/matches", "/admin/api/matches.csv"), "player=a%00b", "player holds a NUL"),
    (("/admin", "/admin/api/matches", "/admin/api/matches.csv"), "to=9999-12-31", "to is a day from"),
    (("/admin", "/admin/api/matches", "/admin/api/matches.csv"), "from=0001-01-01", "from is a day from"),
    (("/admin/figures", "/admin/api/stats"), "to=0001-01-01", "to is a day from"),
    (("/admin/figures", "/admin/api/stats"), "from=9999-12-01", "from is a day from"),
    (("/admin/figures", "/admin/api/stats"), "from=a%00b", "from holds a NUL"),
    (("/admin/audit", "/admin/api/audit"), "before=2147483648", "before is an entry's number"),
    (("/admin/audit", "/admin/api/audit"), "kind=%ED%A0%80x", "kind is one of"),
    # The players' accounts (issue 19): the history's filter by account, and the accounts' list.
    (("/admin", "/admin/api/matches", "/admin/api/matches.csv"), "account=a%00b", "account holds a NUL"),
    (("/admin", "/admin/api/matches", "/admin/api/matches.csv"), "account=a%20b", "account is an account's name"),
    (("/admin", "/admin/api/matches", "/admin/api/matches.csv"), "account=" + "a" * 21, "account is an account's name"),
    (("/admin", "/admin/api/matches", "/admin/api/matches.csv"), "account=%ED%A0%80x", "account is an account's name"),
    (("/admin/accounts", "/admin/api/accounts"), "q=a%25b", "q is the whole or a part of a name"),
    (("/admin/accounts", "/admin/api/accounts"), "q=" + "a" * 21, "q is the whole or a part of a name"),
    (("/admin/accounts", "/admin/api/accounts"), "q=%ED%A0%80x", "q is the whole or a part of a name"),
    (("/admin/accounts", "/admin/api/accounts"), "q=a%00b", "q holds a NUL"),
    (("/admin/accounts", "/admin/api/accounts"), "after=x%27--", "after is the name a page ended on"),
    (("/admin/accounts", "/admin/api/accounts"), "limit=0", "limit is from 1 to 200"),
    (("/admin/accounts", "/admin/api/accounts"), "limit=1e3", "limit is a whole number"),
    (("/admin/accounts", "/admin/api/accounts"), "sort=name", "unknown parameter 'sort'"),
]


@pytest.mark.parametrize(("urls", "query", "words"), CASES, ids=[c[1] for c in CASES])
async def test_an_admin_input_that_was_a_500_is_a_clear_400(admin: AdminClient, urls: tuple[str, ...],
                                                             query: str, words: str) -> None:
    for url in urls:
        r = await admin.get(f"{url}?{query}")
        assert r.status_code == 400, (url, r.status_code, r.text[:300])
        if "/api/" in url:
            assert r.json()["error"] == "bad_request" and words in r.json()["detail"], (url, r.text)
        else:
            assert words in r.text.replace("&#39;", "'"), (url, r.text[-2000:])


async def test_a_username_with_a_nul_is_a_clear_400(app: Any, client: httpx.AsyncClient) -> None:
    token = login_token((await client.get("/admin/login")).text)
    r = await client.post("/admin/login", data={"username": "ok\x00nul", "password": "whatever it is",
                                                "csrf_token": token})
    assert r.status_code == 400 and "A username is 2 to 20 letters" in r.text
