"""The Learn page's words and its explorer board, as the server draws them."""

from __future__ import annotations

import re

import httpx


async def test_learn_says_what_a_greater_minion_is_before_using_the_words_and_labels_its_board(
        client: httpx.AsyncClient) -> None:
    page = (await client.get("/learn")).text
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.split('id="main"', 1)[1]))
    explained = text.find("the greater minions are the Dragon, Elemental, Construct")
    assert 0 <= explained < text.find("greater minions are dead")
    explorer = page.split('id="explorer"', 1)[1].split("</div>", 1)[0]
    assert re.findall(r'class="mark rank"[^>]*>(\d)<', explorer) == list("87654321")
    assert re.findall(r'class="mark file"[^>]*>([a-h])<', explorer) == list("abcdefgh")
