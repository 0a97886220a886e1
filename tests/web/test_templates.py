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


async def test_a_match_against_the_computer_is_drawn_with_no_chat(client: httpx.AsyncClient) -> None:
    """Refused by the server's page itself, not only hidden by the script."""
    against = (await client.post("/api/v1/matches", json={"opponent": "bot:random"})).json()
    page = await client.get(f"/matches/{against['match']['id']}")
    assert page.status_code == 200
    assert 'id="chat"' not in page.text and 'id="chat-form"' not in page.text
    friendly = (await client.post("/api/v1/matches", json={})).json()
    assert 'id="chat-form"' in (await client.get(f"/matches/{friendly['match']['id']}")).text
