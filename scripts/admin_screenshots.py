"""Takes the admin dashboard's screenshots, docs/screenshots/admin-*.png, in
Debian's chromium:

    .venv/bin/python scripts/admin_screenshots.py

Starts its own server on a free port with a fresh SQLite file, makes an admin
with `python -m app.accounts add-admin`, plays a few matches through the API (random
legal actions, a fixed seed; see scripts/screenshots.py), and photographs the
sign-in page, the history, a match with its replay board and the figures; then
makes players' accounts seated in those matches, with rated matches between them
(tests/browser/players.py), and photographs the accounts' list, an account's
page, the fair-play queue, and on a phone, 360 px wide, an account closed from its page.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from screenshots import OUT, play, start  # noqa: E402

from tests.browser import players  # noqa: E402
from tests.browser.conftest import run_server  # noqa: E402

NAME, PASSWORD = "keeper", "a screenshot password"


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    rng = random.Random(11)
    with tempfile.TemporaryDirectory() as folder, run_server(Path(folder)) as server:
        env = {**os.environ, "DATABASE_URL": server.database_url, "MAGERY_ADMIN_PASSWORD": PASSWORD}
        subprocess.run([sys.executable, "-m", "app.accounts", "add-admin", NAME], cwd=ROOT, env=env, check=True)
        shown, played = "", {}
        for white, black, until, end in [
            ("Lin", "Sam", 60, "resign"), ("Ada", "Grace", 45, "resign"), ("Bo", "Kay", 30, None),
            ("Noor", "Ravi", 20, "resign"), ("Iris", "Tom", 12, None),
        ]:
            match_id, tokens = start(server, white, black)
            play(server, match_id, tokens, rng, lambda s, n=until: s["version"] >= n or s["status"] != "active")
            if end and server.match(match_id)["status"] == "active":
                server.call("POST", f"/matches/{match_id}/resign", token=tokens["black"])
            shown = shown or match_id
            played[match_id] = [white, black]
        server.call("POST", "/matches", {"seat": "white", "name": "Zoe"})  # one waiting for an opponent
        seated = dict(list(played.items())[:2])  # Lin–Sam and Ada–Grace played as members, the rest as guests
        players.make(server, {"players": ["Lin", "Sam", "Ada", "Grace", "Samwise"], "seats": seated,
                              "rated": [["Lin", "Sam"], ["Ada", "Lin"], ["Lin", "Grace"],
                                        # Ada farming Grace: quick wins past the third raise the fair-play queue
                                        *[["Ada", "Grace"]] * 5]})
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium")
            page = browser.new_page(viewport={"width": 1280, "height": 860}, base_url=server.base)
            page.goto("/admin/login")
            page.get_by_label("Username").fill(NAME)
            page.screenshot(path=OUT / "admin-login.png", clip={"x": 0, "y": 0, "width": 1280, "height": 360})
            page.get_by_label("Password").fill(PASSWORD)
            page.get_by_role("button", name="Sign in").click()
            page.wait_for_url("**/admin")
            page.screenshot(path=OUT / "admin-history.png", full_page=True)
            page.goto(f"/admin/matches/{shown}")
            page.wait_for_selector("#replay-board .arena")
            page.wait_for_selector("#replay-advantage svg")  # the finished match's advantage graph
            # The last removal that moved a minion, with its from and to squares marked.
            # (The timeline tells moves in words now, "moves the beast from b2 to c3", no longer with "→".)
            moves = page.locator("ol.timeline li").filter(has_text=re.compile(r"from [a-z]+[0-9]+ to [a-z]+[0-9]+"))
            moves.last.get_by_role("button").click()
            page.wait_for_timeout(400)
            page.mouse.move(1270, 400)  # off the board: a hovered square is drawn lighter
            page.evaluate("() => window.scrollTo(0, 0)")
            bottom = page.evaluate("() => document.querySelector('#replay').getBoundingClientRect().bottom")
            page.screenshot(path=OUT / "admin-match.png", full_page=True,
                            clip={"x": 0, "y": 0, "width": 1280, "height": bottom + 16})
            page.goto("/admin/figures")
            page.screenshot(path=OUT / "admin-figures.png", full_page=True)
            phone = browser.new_page(viewport={"width": 412, "height": 915}, is_mobile=True, has_touch=True,
                                     device_scale_factor=1, base_url=server.base)
            phone.context.add_cookies(page.context.cookies())
            phone.goto("/admin/figures")
            phone.screenshot(path=OUT / "admin-phone-figures.png", full_page=True)
            page.goto("/admin/accounts")
            page.get_by_label("Name holds").fill("sam")
            page.get_by_role("button", name="Search").click()
            page.screenshot(path=OUT / "admin-accounts.png", full_page=True)
            page.goto("/admin/accounts/Lin")
            page.screenshot(path=OUT / "admin-account.png", full_page=True)
            page.goto("/admin/fair-play")
            page.screenshot(path=OUT / "admin-fair-play.png", full_page=True)
            narrow = browser.new_page(viewport={"width": 360, "height": 800}, is_mobile=True, has_touch=True,
                                      device_scale_factor=1, base_url=server.base)
            narrow.context.add_cookies(page.context.cookies())
            narrow.goto("/admin/accounts/Sam")
            narrow.get_by_label("Reason (kept in the audit log)").fill("Abusive chat in match rooms, report 7")
            narrow.get_by_role("button", name="Close account").click()
            narrow.wait_for_url("**/admin/accounts/Sam?done=closed")
            narrow.screenshot(path=OUT / "admin-phone-account.png", full_page=True)
            browser.close()
    print("written:", ", ".join(sorted(p.name for p in OUT.glob("admin-*.png"))))


if __name__ == "__main__":
    main()
