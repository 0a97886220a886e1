"""The linters hold: ruff everywhere and mypy on app/ (strict on the core: the rules, ratings, matches and realtime), as
pyproject.toml configures them, and ESLint on the pages' scripts. A finding
fails the suite like any other test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_ruff_finds_nothing() -> None:
    done = _run("ruff", "check", "app", "tests", "bench", "migrations", "examples")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing_and_is_strict_on_the_core() -> None:
    done = _run("mypy", "app")
    assert done.returncode == 0, done.stdout + done.stderr
    # A cache of its own: with other options it would void the plain run's cache
    # (and the plain run its), so each run of the suite would type-check cold.
    strict = _run("mypy", "--strict", "--cache-dir", ".mypy_cache/strict",
                  "app/rules", "app/ratings", "app/matches", "app/realtime")
    assert strict.returncode == 0, strict.stdout + strict.stderr


def test_eslint_finds_nothing_in_the_pages_scripts() -> None:
    """ESLint's recommended rules over static/ (tests/js/eslint.config.js);
    scripts/test installs ESLint there from the npm registry, as it does chromium."""
    eslint = ROOT / "tests" / "js" / "node_modules" / ".bin" / "eslint"
    assert eslint.exists(), "ESLint is not installed: run scripts/test (it runs npm ci in tests/js)"
    done = subprocess.run([str(eslint), "--config", "tests/js/eslint.config.js", "--max-warnings", "0",
                           "static"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
