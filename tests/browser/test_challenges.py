"""Challenges on the pages (issue 20), in real Chromium, at a desk's width and a
phone's: a challenge sent from a profile reaches the challenged player as a
toast on another page; accepted, both pages land on the match; the header's
count follows the opponent's move; declined with a reason, the challenger reads
why; a guest is asked to sign in to challenge."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import ROW, Contexts
from .test_accounts import WIDTHS, fits, fresh_name, phone_or_desk, sign_up


def signed_up(contexts: Contexts, width: int, prefix: str, where: str = "/learn") -> tuple[Any, str]:
    page = phone_or_desk(contexts, width)
    name = fresh_name(prefix)
    page.goto(f"/signup?next={where}")
    sign_up(page, name)
    page.wait_for_url(f"**{where}")
    return page, name


def challenge_from_profile(page: Any, name: str, time: str = "10+5", colour: str = "white") -> None:
    page.goto(f"/@/{name}")
    page.get_by_label("Time control").select_option(label=time)
    page.get_by_label("Your colour").select_option(colour)
    page.get_by_role("button", name=f"Challenge {name}").click()
    expect(page.get_by_role("group", name=f"Your challenge to {name}")).to_be_visible()


def awaiting(page: Any, count: int) -> None:
    expect(page.get_by_role("link", name=f"Matches awaiting your move: {count}")).to_be_visible()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_challenge_sent_seen_accepted_and_both_pages_on_the_match(contexts: Contexts, width: int) -> None:
    ada, ada_name = signed_up(contexts, width, "Ada", "/")
    bo, bo_name = signed_up(contexts, width, "Bo", "/learn")  # on another page than a profile
    awaiting(bo, 0)
    challenge_from_profile(ada, bo_name, time="1 day per move", colour="white")

    toast = bo.get_by_role("group", name=f"Challenge from {ada_name}")
    expect(toast).to_contain_text("1 day a move")
    expect(toast).to_contain_text("you play Black")
    expect(bo.get_by_role("button", name="Challenges for you: 1")).to_be_visible()
    fits(bo)
    toast.get_by_role("button", name="Accept").click()

    bo.wait_for_url("**/matches/*")
    ada.wait_for_url("**/matches/*")  # the challenger's page too
    match_id = bo.url.rsplit("/", 1)[1]
    assert ada.url.rsplit("/", 1)[1] == match_id
    awaiting(ada, 1)  # White sets up first
    awaiting(bo, 0)

    # Bo, on the home page, turns the turn notifications on.
    bo.context.grant_permissions(["notifications"])
    bo.goto("/")
    mine = bo.get_by_role("region", name="Your matches")
    expect(mine.get_by_role("listitem").first).to_contain_text(f"vs {ada_name}")
    expect(mine.get_by_role("listitem").first).not_to_contain_text("Your move")
    mine.get_by_role("button", name="Notify me when it is my move in a correspondence match").click()
    expect(mine.get_by_role("button", name="Stop notifying me")).to_be_visible()

    # The opponent moves (White's setup, sent as the page sends its calls): Bo's count changes at once.
    done = ada.evaluate("""async ([id, row]) => {
        const csrf = document.querySelector('meta[name="csrf-token"]').content;
        const r = await fetch(`/api/v1/matches/${id}/actions`, {method: "POST",
            headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
            body: JSON.stringify({action: {type: "setup", backrow: row}, version: 1})});
        return r.status;
    }""", [match_id, ROW])
    assert done == 200
    awaiting(bo, 1)
    awaiting(ada, 0)
    expect(mine.get_by_role("listitem").first).to_contain_text("Your move")
    expect(mine.get_by_role("listitem").first).to_contain_text("left to set up")
    assert bo.evaluate("() => window.magery.turns.notifications") == [match_id]
    fits(bo)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_declined_challenge_tells_the_challenger_why(contexts: Contexts, width: int) -> None:
    ada, ada_name = signed_up(contexts, width, "Ada", "/")
    bo, bo_name = signed_up(contexts, width, "Bo", "/")
    challenge_from_profile(ada, bo_name)
    toast = bo.get_by_role("group", name=f"Challenge from {ada_name}")
    toast.get_by_label("Reason to decline").select_option(label="Too fast")
    toast.get_by_role("button", name="Decline").click()
    expect(toast).to_have_count(0)
    told = ada.get_by_role("group", name=f"Your challenge to {bo_name}")
    expect(told).to_contain_text(f"{bo_name} finds this time control too fast")

    guest = phone_or_desk(contexts, width)
    guest.goto(f"/@/{bo_name}")
    expect(guest.get_by_role("link", name="Sign in to challenge")).to_be_visible()
    expect(guest.get_by_role("button", name=f"Challenge {bo_name}")).to_have_count(0)
    ada.goto(f"/@/{ada_name}")  # nobody challenges themself
    expect(ada.get_by_role("button", name=f"Challenge {ada_name}")).to_have_count(0)
