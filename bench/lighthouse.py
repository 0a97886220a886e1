"""Lighthouse's mobile preset on the public pages: `/`, a match page, `/learn`, `/leaderboard`.

    .venv/bin/python bench/web.py --lighthouse      (or: .venv/bin/python bench/lighthouse.py)

Lighthouse comes from the npm registry (bench/js, installed by scripts/js-tools)
and drives Debian's chromium (CHROME_PATH), headless, against a real server on
loopback with a fresh SQLite file. Prints each page's performance,
accessibility, best-practices and SEO scores and its cumulative layout shift,
and the audits that cost a category points. Goals (issue 29): performance
>= 95, the other three 100, CLS <= 0.1. Figures only: nothing here is asserted
by tests; results to bench/results/lighthouse.json. The performance score is
Lighthouse's simulated slow phone, so a busy machine lowers it: read the load
average printed beside it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CLI = ROOT / "bench" / "js" / "node_modules" / "lighthouse" / "cli" / "index.js"
RESULTS = ROOT / "bench" / "results" / "lighthouse.json"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
GOALS = {"performance": 95, "accessibility": 100, "best-practices": 100, "seo": 100}


def audit(url: str) -> dict[str, Any]:
    """One Lighthouse run (mobile preset, its default) of `url`: the report as JSON."""
    if not CLI.exists():
        raise SystemExit("Lighthouse is not installed: run scripts/js-tools (npm ci in bench/js)")
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    # Plain --headless: with --headless=new this chromium's trace lost its navigation start (NO_NAVSTART).
    done = subprocess.run(
        ["node", str(CLI), url, "--output=json", "--output-path=stdout", "--quiet",
         f"--only-categories={','.join(CATEGORIES)}", "--chrome-flags=--headless --no-sandbox"],
        env=env, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}: {done.stderr[-2000:]}")
    return dict(json.loads(done.stdout))


def summary(report: dict[str, Any]) -> dict[str, Any]:
    """The four scores (0-100), CLS, and the audits that lost points, by category."""
    scores = {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}
    cls = report["audits"]["cumulative-layout-shift"]["numericValue"]
    failing: dict[str, list[str]] = {}
    for c in CATEGORIES:
        for ref in report["categories"][c]["auditRefs"]:
            found = report["audits"][ref["id"]]
            if ref.get("weight", 0) and found.get("score") is not None and found["score"] < 0.9:
                failing.setdefault(c, []).append(f"{ref['id']} ({found.get('displayValue') or found['score']})")
    return {"scores": scores, "cls": cls, "failing": failing}


def match_for_the_page(server: Any) -> str:
    """A match under way (both seats taken), as a spectator would open it."""
    made = server.call("POST", "/matches", {"seat": "white", "name": "Ada"})
    server.call("POST", f"/matches/{made['match']['id']}/join", {"name": "Grace"})
    return str(made["match"]["id"])


def run() -> dict[str, Any]:
    from tests.browser.conftest import run_server

    results: dict[str, Any] = {"loadavg": os.getloadavg(), "pages": {}}
    with tempfile.TemporaryDirectory() as folder, run_server(Path(folder)) as server:
        pages = {"/": "/", "match": f"/matches/{match_for_the_page(server)}", "/learn": "/learn",
                 "/leaderboard": "/leaderboard"}
        for name, path in pages.items():
            results["pages"][name] = summary(audit(server.base + path))
    return results


def show(results: dict[str, Any]) -> None:
    print(f"Lighthouse, mobile preset; load average {results['loadavg'][0]:.2f}")
    print(f"{'page':14} {'perf':>5} {'a11y':>5} {'b.p.':>5} {'seo':>5} {'CLS':>7}")
    for name, page in results["pages"].items():
        s = page["scores"]
        misses = [c for c in CATEGORIES if s[c] < GOALS[c]] + (["cls"] if page["cls"] > 0.1 else [])
        print(f"{name:14} {s['performance']:5} {s['accessibility']:5} {s['best-practices']:5} {s['seo']:5} "
              f"{page['cls']:7.3f}  {'PASS' if not misses else 'MISS ' + ', '.join(misses)}")
        for category, audits in page["failing"].items():
            print(f"    {category}: {'; '.join(audits)}")


def main() -> int:
    results = run()
    show(results)
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
