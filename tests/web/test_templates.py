"""No template shows its own comments: a comment whose `{#` was lost printed its
last lines and `#}` on every match page, under the chat (found in a screenshot)."""

from __future__ import annotations

from pathlib import Path

import httpx

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_every_template_comment_opens_and_closes() -> None:
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text()
        assert text.count("{#") == text.count("#}"), f"{path.name}: a comment's {{# or #}} is missing"


async def test_the_pages_show_no_template_comment(client: httpx.AsyncClient) -> None:
    made = (await client.post("/api/v1/matches", json={})).json()
    for url in ("/", "/learn", f"/matches/{made['match']['id']}"):
        page = await client.get(url)
        assert page.status_code == 200, url
        assert "#}" not in page.text and "{#" not in page.text, url
