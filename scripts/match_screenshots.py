"""Photographs the match page at each screen size the one-screen layout is
made for, at each moment a player meets, into docs/screenshots/:

    .venv/bin/python scripts/match_screenshots.py [size ...]

match-<size>-<moment>.png for the sizes 1366x768, 390x844 and 360x780 and the
moments setup, decision, action (each at the start of the seat's turn), end
(the loser's page) and invite (a friend opening the link). It starts its own
server with a fresh SQLite file and prints, for each picture, where the
Arena, the Mage Tower, the turn panel, the reserve and the first button that
matters stand, and whether the page had to scroll: the figures the layout
is judged by (tests/browser/test_one_screen.py asserts them).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM, run_server, wait_ready  # noqa: E402
from tests.browser.scenes import seated, set_up, to_action_phase  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
SIZES = {"1366x768": (1366, 768, False), "390x844": (390, 844, True), "360x780": (360, 780, True)}

# Where the parts of the page stand, in the window's coordinates.
BOXES = """() => {
  const out = {scrollHeight: document.documentElement.scrollHeight, scrollY: scrollY};
  for (const [name, q] of Object.entries({arena: '.arena', tower: '.tower', turn: '#turn', reserve: '.pool.mine .reserve',
      join: '#join', rematch: '#rematch', clocks: '.players'})) {
    const e = document.querySelector(q);
    if (!e || !e.getClientRects().length) continue;
    const r = e.getBoundingClientRect();
    out[name] = [Math.round(r.top), Math.round(r.bottom), Math.round(r.left), Math.round(r.right)];
  }
  return out;
}"""


def shoot(page: Any, size: str, moment: str) -> None:
    page.wait_for_load_state("load")
    page.evaluate("() => document.fonts.ready")
    print(size, moment, page.evaluate(BOXES))
    page.screenshot(path=str(OUT / f"match-{size}-{moment}.png"))


def turn(page: Any, version: int) -> None:
    page.wait_for_function(
        "v => document.documentElement.dataset.legalVersion === String(v)", arg=version)


def main(sizes: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, run_server(Path(folder)) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for size in sizes:
            width, height, touch = SIZES[size]
            context = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch,
                                          is_mobile=touch, base_url=server.base)
            page = context.new_page()
            match_id, tokens = seated(server)
            page.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
            turn(page, 1)
            shoot(page, size, "setup")
            match_id, tokens = set_up(server)
            page.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
            turn(page, 3)
            shoot(page, size, "decision")
            match_id, tokens, mover = to_action_phase(server)
            page.goto(f"/matches/{match_id}#seat={mover}.{tokens[mover]}")
            turn(page, server.match(match_id)["version"])
            shoot(page, size, "action")
            server.call("POST", f"/matches/{match_id}/resign", token=tokens[mover])
            page.goto(f"/matches/{match_id}#seat={mover}.{tokens[mover]}")
            page.wait_for_selector("#rematch:visible")
            shoot(page, size, "end")
            made = server.call("POST", "/matches", {"seat": "white", "name": "Ada"})
            friend = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch,
                                         is_mobile=touch, base_url=server.base)
            invited = friend.new_page()
            invited.goto(f"/matches/{made['match']['id']}")
            wait_ready(invited)
            shoot(invited, size, "invite")
            friend.close()
            context.close()
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1:] or list(SIZES))
