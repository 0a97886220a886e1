"""An open challenge on the pages, in real Chromium at a phone's size (390×844)
and a laptop's (1366×768): made from one's own profile ("Anyone with the
link"), its page shows the link and a copy button to its challenger, the terms
and "Sign in to accept" to a guest, and an Accept button to another signed-in
player, which takes them to the match."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Contexts
from .test_accounts import fits, fresh_name, sign_up

SIZES = [pytest.param((390, 844), id="phone"), pytest.param((1366, 768), id="laptop")]
SHOTS = Path("/tmp/open-challenge-shots")


def opened(contexts: Contexts, size: tuple[int, int]) -> Any:
    width, height = size
    phone = width <= 400
    return contexts.page(width=width, height=height, is_mobile=phone, has_touch=phone)


def signed_up(page: Any, prefix: str, where: str) -> str:
    name = fresh_name(prefix)
    page.goto(f"/signup?next={where}")
    sign_up(page, name)
    page.wait_for_url(f"**{where}")
    return name


@pytest.mark.parametrize("size", SIZES)
def test_an_open_challenge_by_its_link(contexts: Contexts, size: tuple[int, int]) -> None:
    ada = opened(contexts, size)
    ada.context.grant_permissions(["clipboard-read", "clipboard-write"])
    ada_name = signed_up(ada, "Ada", "/learn")
    ada.goto(f"/@/{ada_name}")
    form = ada.locator("#challenge-form")
    expect(form.get_by_label("Who")).to_have_value("open")  # one's own profile: only a link
    form.get_by_label("Time control").select_option(label="5+3")
    form.get_by_label("No-progress rounds (R16)").fill("12")
    form.get_by_role("button", name="Make a challenge link").click()
    ada.wait_for_url("**/challenges/*")
    challenge_id = ada.url.rsplit("/", 1)[1]
    link = ada.get_by_label("The challenge's link")
    expect(link).to_have_value(ada.url)
    ada.get_by_role("button", name="Copy link").click()
    expect(ada.locator("#challenge-copied")).not_to_be_empty()
    expect(ada.get_by_role("button", name="Accept")).to_have_count(0)  # never one's own
    fits(ada)
    SHOTS.mkdir(exist_ok=True)
    ada.screenshot(path=str(SHOTS / f"challenger-{size[0]}.png"), full_page=True)

    guest = opened(contexts, size)
    guest.goto(f"/challenges/{challenge_id}")
    expect(guest.get_by_role("heading", name=f"Open challenge from {ada_name}")).to_be_visible()
    terms = guest.locator("dl.terms")
    expect(terms).to_contain_text("5+3")
    expect(terms).to_contain_text("12")
    expect(guest.get_by_role("button", name="Accept")).to_have_count(0)
    guest.get_by_role("link", name="Sign in to accept").click()
    guest.wait_for_url(re.compile(r"/login\?next=%2Fchallenges%2F|/login\?next=/challenges/"))

    bo = opened(contexts, size)
    signed_up(bo, "Bo", f"/challenges/{challenge_id}")
    fits(bo)
    bo.screenshot(path=str(SHOTS / f"accepter-{size[0]}.png"), full_page=True)
    bo.get_by_role("button", name="Accept").click()
    bo.wait_for_url("**/matches/*")
    expect(bo.locator("html")).to_have_attribute("data-seat", re.compile("^(white|black)$"))  # a random colour


    guest.goto(f"/challenges/{challenge_id}")
    expect(guest.locator("#challenge-over")).to_contain_text("accepted")
