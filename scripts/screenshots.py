"""Takes the screenshots of docs/screenshots/ in Debian's chromium.

    .venv/bin/python scripts/screenshots.py

Starts its own server on a free port with a fresh SQLite file, plays a few
rounds through the API (random legal actions, a fixed seed), and photographs
the home page, a match in its decision and action phases, the end with its
replay, an archmage match's private chambers, the phone layout (and a 360 px
phone during a setup and an action), a 1366x900 desktop's first screen, the
Learn page, a guided first match and a chamber's explanation on hover.
"""

from __future__ import annotations

import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import ROW, Server, run_server  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


def play(server: Server, match_id: str, tokens: dict[str, str], rng: random.Random, until: Any) -> dict[str, Any]:
    """Random legal actions by whoever is to move, until `until(state)`."""
    state = server.match(match_id)
    while not until(state):
        colour = state["to_move"]
        legal = server.legal(match_id, tokens[colour])
        if legal["setup"]:
            row = list(ROW)
            rng.shuffle(row)
            action = {"type": "setup", "backrow": row}
        else:
            # Prefer using powers to declining them, and placing to passing: a livelier picture.
            choices = [a for a in legal["actions"] if a.get("power", 1) is not None and a["type"] != "pass"]
            action = rng.choice(choices or legal["actions"])
        state = server.act(match_id, tokens[colour], action)
    return state


def start(server: Server, white: str, black: str, **options: Any) -> tuple[str, dict[str, str]]:
    made = server.call("POST", "/matches", {"seat": "white", "name": white, "options": options})
    joined = server.call("POST", f"/matches/{made['match']['id']}/join", {"name": black})
    return made["match"]["id"], {"white": made["token"], "black": joined["token"]}


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    rng = random.Random(4)
    with tempfile.TemporaryDirectory() as folder, run_server(Path(folder)) as server:
        shoot(server, rng, sync_playwright)


def shoot(server: Server, rng: random.Random, sync_playwright: Any) -> None:
    # A match well under way, on a real-time clock, and others for the lists.
    match_id, tokens = start(server, "Ada", "Grace", time_control={"type": "realtime", "minutes": 10, "increment": 5})
    play(server, match_id, tokens, rng, lambda s: s["round"] >= 4 and s["phase"] == "decision"
         and s["to_move"] == "white" and sum(1 for c in s["tower"] if c["occupant"]) >= 3)
    other, other_tokens = start(server, "Bo", "Kay", variant="rotating")
    play(server, other, other_tokens, rng, lambda s: s["version"] >= 30)
    done, done_tokens = start(server, "Lin", "Sam")
    play(server, done, done_tokens, rng, lambda s: s["version"] >= 40)
    server.call("POST", f"/matches/{done}/resign", token=done_tokens["black"])
    server.call("POST", "/matches", {"seat": "black", "name": "Noor", "options": {"variant": "archmage"}})
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page(viewport={"width": 1280, "height": 860}, base_url=server.base)
        # Grace is at her board too (so her seat shows as connected).
        grace = browser.new_page(base_url=server.base)
        grace.goto(f"/matches/{match_id}#seat=black.{tokens['black']}")
        page.goto("/")
        page.wait_for_timeout(400)
        page.evaluate("() => window.scrollTo(0, 0)")  # the sticky side column at its place
        page.screenshot(path=OUT / "home.png", full_page=True)

        page.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
        page.wait_for_function("() => 'legalVersion' in document.documentElement.dataset")
        page.get_by_role("button", name=re.compile("^Dragon:")).click()
        page.wait_for_timeout(200)
        page.evaluate("() => window.scrollTo(0, 0)")  # the sticky side column at its place
        page.screenshot(path=OUT / "match-decision.png", full_page=True)

        state = play(server, match_id, tokens, rng, lambda s: s["phase"] == "action" and s["to_move"] == "white")
        page.wait_for_function("v => document.documentElement.dataset.version === String(v)"
                               " && document.documentElement.dataset.legalVersion === String(v)", arg=state["version"])
        legal = server.legal(match_id, tokens["white"])["actions"]
        moving = [a for a in legal if isinstance(a.get("power"), dict) and "move" in a["power"]]
        pick = (moving or legal)[0]
        name = page.locator(f'button.chamber[data-mage="{pick["mage"]}"]').first.text_content()
        page.get_by_role("button", name=re.compile(f"^{re.escape(name)},")).click()
        if moving:
            page.get_by_role("button", name=re.compile(f"^{pick['power']['move'][0]},")).click()
        page.wait_for_timeout(200)
        page.evaluate("() => window.scrollTo(0, 0)")  # the sticky side column at its place
        page.screenshot(path=OUT / "match-action.png", full_page=True)

        page.goto(f"/matches/{done}")
        page.locator("#log li[data-version]").first.wait_for()
        page.wait_for_timeout(600)
        page.get_by_role("button", name="Previous version").click()
        page.wait_for_timeout(300)
        page.evaluate("() => window.scrollTo(0, 0)")  # the sticky side column at its place
        page.screenshot(path=OUT / "end.png", full_page=True)

        # The end as its winner sees it, the loser having offered to play again.
        server.call("POST", f"/matches/{done}/rematch", token=done_tokens["black"])
        page.goto("about:blank")  # the same address with a new fragment would not load again
        page.goto(f"/matches/{done}#seat=white.{done_tokens['white']}")
        page.get_by_role("button", name="Accept rematch").wait_for()
        page.wait_for_timeout(600)
        page.screenshot(path=OUT / "end-rematch.png", full_page=True)

        arch, arch_tokens = start(server, "Noor", "Ravi", variant="ultimate_archmage")
        play(server, arch, arch_tokens, rng, lambda s: s["phase"] == "action")
        page.goto(f"/matches/{arch}")
        page.wait_for_timeout(500)
        page.locator(".tower-col").screenshot(path=OUT / "archmage-tower.png")

        phone = browser.new_page(viewport={"width": 412, "height": 915}, is_mobile=True, has_touch=True,
                                 device_scale_factor=1, base_url=server.base)
        grace.close()
        phone.goto(f"/matches/{match_id}#seat=black.{tokens['black']}")
        phone.wait_for_timeout(600)
        phone.evaluate("() => window.scrollTo(0, 0)")  # the sticky side column at its place
        phone.screenshot(path=OUT / "phone.png", full_page=True)

        # A 360 px phone during a setup and during an action: the arena, the turn panel,
        # then the reserves and the tower (issue 16); and what a 1366x900 desktop shows
        # without scrolling in the decision phase (the reserve and the turn panel).
        fresh, fresh_tokens = start(server, "Mia", "Tom")
        small = browser.new_page(viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True,
                                 device_scale_factor=1, base_url=server.base)
        small.goto(f"/matches/{fresh}#seat=white.{fresh_tokens['white']}")
        small.wait_for_function("() => 'legalVersion' in document.documentElement.dataset")
        small.evaluate("() => window.scrollTo(0, 0)")  # the sticky side column at its place
        small.screenshot(path=OUT / "phone-setup.png", full_page=True)
        desk = browser.new_page(viewport={"width": 1366, "height": 900}, base_url=server.base)
        state = play(server, fresh, fresh_tokens, rng, lambda s: s["phase"] == "decision" and s["to_move"] == "black")
        desk.goto(f"/matches/{fresh}#seat=black.{fresh_tokens['black']}")
        desk.wait_for_function("v => document.documentElement.dataset.legalVersion === String(v)", arg=state["version"])
        desk.screenshot(path=OUT / "desktop-decision.png")
        state = play(server, fresh, fresh_tokens, rng, lambda s: s["phase"] == "action" and s["to_move"] == "white")
        small.wait_for_function("v => document.documentElement.dataset.version === String(v)"
                                " && document.documentElement.dataset.legalVersion === String(v)", arg=state["version"])
        legal = server.legal(fresh, fresh_tokens["white"])["actions"]
        pick = next((a for a in legal if isinstance(a.get("power"), dict) and "move" in a["power"]), legal[0])
        name = small.locator(f'button.chamber[data-mage="{pick["mage"]}"]').first.text_content()
        small.get_by_role("button", name=re.compile(f"^{re.escape(name)},")).click()
        small.wait_for_timeout(200)
        small.evaluate("() => window.scrollTo(0, 0)")  # the sticky side column at its place
        small.screenshot(path=OUT / "phone-action.png", full_page=True)
        shoot_learning(browser, server)
        browser.close()
    print("written:", ", ".join(sorted(p.name for p in OUT.glob("*.png"))))


def shoot_learning(browser: Any, server: Server) -> None:
    """The Learn page with the dragon chosen in the explorer, a guided first
    match at its decision phase, and a chamber's explanation on hover."""
    page = browser.new_page(viewport={"width": 1280, "height": 860}, base_url=server.base)
    page.goto("/learn")
    page.get_by_role("button", name="Dragon", exact=True).click()
    page.wait_for_timeout(200)
    page.screenshot(path=OUT / "learn.png", full_page=True)
    page.locator(".guided-start[data-ready]").first.wait_for()
    page.get_by_role("button", name="Play a guided first match").first.click()
    page.wait_for_url(re.compile(r"/matches/"))
    page.get_by_role("button", name="Confirm setup").click()
    page.wait_for_function("() => document.getElementById('guide-step').dataset.step === 'decision'")
    page.get_by_role("button", name=re.compile("^Oracle,")).click()
    page.mouse.move(1, 1)  # off the chamber: its hover explanation would cover the tower
    page.wait_for_timeout(200)
    page.screenshot(path=OUT / "guided.png")
    page.get_by_role("button", name="Cancel").click()
    page.get_by_role("button", name=re.compile("^Necromancer,")).hover()
    page.wait_for_timeout(200)
    page.screenshot(path=OUT / "explain.png", clip={"x": 0, "y": 0, "width": 1280, "height": 860})
    page.close()


if __name__ == "__main__":
    main()
