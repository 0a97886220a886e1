"""Sounds, notifications and toasts on the match page (issue 16). The tests read
the page's own record (window.mageryAlerts): which sounds were asked for by
name, which notifications shown, which toasts raised; never the audio."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .conftest import ROW, Contexts, Server, wait_ready, wait_version


def two_seats(server: Server, **options: Any) -> tuple[str, dict[str, str]]:
    made = server.call("POST", "/matches", {"seat": "white", "name": "Ada", "options": options})
    match_id = made["match"]["id"]
    joined = server.call("POST", f"/matches/{match_id}/join", {"name": "Bo"})
    return match_id, {"white": made["token"], "black": joined["token"]}


def record(page: Any, kind: str) -> list[str]:
    return list(page.evaluate("k => window.mageryAlerts[k]", kind))


def wait_sounds(page: Any, count: int) -> list[str]:
    page.wait_for_function("n => window.mageryAlerts.sounds.length >= n", arg=count)
    return record(page, "sounds")


def test_sounds_for_the_opponent_your_turn_a_draw_offer_and_the_end_and_mute_is_remembered(
    contexts: Contexts,
) -> None:
    server = contexts.server
    match_id, tokens = two_seats(server)
    ada = contexts.page()
    ada.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
    wait_ready(ada)
    server.act(match_id, tokens["white"], {"type": "setup", "backrow": ROW})
    wait_version(ada, 2)
    assert record(ada, "sounds") == []  # her own action, made elsewhere: nothing to hear
    server.act(match_id, tokens["black"], {"type": "setup", "backrow": ROW})
    assert wait_sounds(ada, 2) == ["opponent", "turn"]
    server.call("POST", f"/matches/{match_id}/draw", {"offer": True}, token=tokens["black"])
    assert wait_sounds(ada, 3)[-1] == "draw-offer"
    expect(ada.locator(".toast", has_text="Black offers a draw.")).to_be_visible()
    server.call("POST", f"/matches/{match_id}/resign", token=tokens["black"])
    assert wait_sounds(ada, 4)[-1] == "end"
    # The end's toast says the result to her, not only "The match is over."
    expect(ada.locator(".toast", has_text="You won — Black resigned.")).to_be_visible()

    # The speaker is named by what pressing it does: "Mute", then "Unmute".
    mute = ada.get_by_role("button", name="Mute", exact=True)
    mute.click()
    expect(ada.get_by_role("button", name="Unmute", exact=True)).to_be_visible()
    ada.reload()
    wait_ready(ada)
    expect(ada.get_by_role("button", name="Unmute", exact=True)).to_be_visible()
    version = server.match(match_id)["version"]
    server.call("POST", f"/matches/{match_id}/rematch", token=tokens["black"])
    wait_version(ada, version + 1)
    expect(ada.locator(".toast", has_text="Black offers a rematch.")).to_be_visible()
    assert record(ada, "sounds") == []  # muted: the offer is shown, not heard
    ada.get_by_role("button", name="Unmute", exact=True).click()
    expect(ada.get_by_role("button", name="Mute", exact=True)).to_be_visible()


def test_low_time_sounds_once(contexts: Contexts) -> None:
    server = contexts.server
    # 18 s each: under the 20 s mark as soon as the first round starts the clock.
    match_id, tokens = two_seats(server, time_control={"type": "realtime", "minutes": 0.3, "increment": 0})
    ada = contexts.page()
    ada.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
    wait_ready(ada)
    server.act(match_id, tokens["white"], {"type": "setup", "backrow": ROW})
    server.act(match_id, tokens["black"], {"type": "setup", "backrow": ROW})
    ada.wait_for_function("() => window.mageryAlerts.sounds.includes('low-time')")
    expect(ada.locator(".toast", has_text="Your time is running low.")).to_be_visible()
    assert record(ada, "sounds").count("low-time") == 1


HIDDEN = """
Object.defineProperty(Document.prototype, "hidden", {get() { return Boolean(window.__pageHidden); }});
"""


def test_a_notification_when_your_turn_comes_while_the_tab_is_hidden(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = two_seats(server)
    ada = contexts.page(permissions=["notifications"])
    ada.context.add_init_script(HIDDEN)
    ada.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
    wait_ready(ada)
    expect(ada.get_by_role("button", name="Notify me on my turn")).to_be_hidden()  # allowed already
    server.act(match_id, tokens["white"], {"type": "setup", "backrow": ROW})
    server.act(match_id, tokens["black"], {"type": "setup", "backrow": ROW})
    wait_sounds(ada, 2)
    assert record(ada, "notifications") == []  # in view: the page itself says it
    ada.evaluate("() => { window.__pageHidden = true; }")
    server.act(match_id, tokens["white"], {"type": "pass"})
    server.act(match_id, tokens["black"], {"type": "pass"})
    ada.wait_for_function("() => window.mageryAlerts.notifications.length >= 1")
    assert record(ada, "notifications")[0] == "Your turn"


def test_the_notification_switch_is_offered_until_allowed(contexts: Contexts) -> None:
    match_id, tokens = two_seats(contexts.server)
    ada = contexts.page()
    ada.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
    wait_ready(ada)
    expect(ada.get_by_role("button", name="Notify me on my turn")).to_be_visible()


def test_a_toast_is_in_view_however_far_the_page_is_scrolled(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = two_seats(server)
    server.act(match_id, tokens["white"], {"type": "setup", "backrow": ROW})
    server.act(match_id, tokens["black"], {"type": "setup", "backrow": ROW})
    ada = contexts.page(width=360, height=640)
    ada.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
    wait_ready(ada)
    ada.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    assert ada.evaluate("() => window.scrollY") > 300  # far below the players and the status
    server.call("POST", f"/matches/{match_id}/draw", {"offer": True}, token=tokens["black"])
    toast = ada.locator(".toast", has_text="Black offers a draw.")
    expect(toast).to_be_in_viewport()
    box = toast.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 640
