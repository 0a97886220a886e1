"""The linters hold: ruff everywhere and mypy on app/ (strict on the core: the rules, ratings, matches and realtime,
and on the client package, packages/client), as
pyproject.toml configures them, and ESLint on the pages' scripts; and FastAPI is
used through its public API alone. A finding fails the suite like any other test."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_ruff_finds_nothing() -> None:
    done = _run("ruff", "check", "app", "tests", "bench", "migrations", "examples", "packages")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing() -> None:
    done = _run("mypy", "app")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_is_strict_on_the_core() -> None:
    """Apart from the plain run, so that the suite's workers run the two at once
    (each takes minutes from a cold cache). A cache of its own: with other options
    it would void the plain run's cache (and the plain run its)."""
    strict = _run("mypy", "--strict", "--cache-dir", ".mypy_cache/strict",
                  "app/rules", "app/ratings", "app/matches", "app/realtime", "packages/client/magery_client")
    assert strict.returncode == 0, strict.stdout + strict.stderr


def test_eslint_finds_nothing_in_the_pages_scripts() -> None:
    """ESLint's recommended rules over static/ (tests/js/eslint.config.js);
    scripts/test installs ESLint there from the npm registry, as it does chromium."""
    eslint = ROOT / "tests" / "js" / "node_modules" / ".bin" / "eslint"
    assert eslint.exists(), "ESLint is not installed: run scripts/test (it runs npm ci in tests/js)"
    done = subprocess.run([str(eslint), "--config", "tests/js/eslint.config.js", "--max-warnings", "0",
                           "static"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


# ---- FastAPI used through its public API alone -------------------------------------

SOURCES = ("app", "tests", "bench", "scripts", "migrations", "examples")


def _fastapi_names(tree: ast.Module) -> set[str]:
    """The names a module binds to FastAPI's modules (`import fastapi.routing as r`: r)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "fastapi":
                    names.add(alias.asname or "fastapi")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "fastapi":
            names.update(alias.asname or alias.name for alias in node.names
                         if not alias.name[:1].isupper())  # modules and functions, not classes
    return names


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _misuses(path: Path, base: Path = ROOT) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    ours, found = _fastapi_names(tree), []
    for node in ast.walk(tree):
        line = f"{path.relative_to(base)}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            found += [f"{line} imports {a.name}" for a in node.names
                      if a.name.startswith("fastapi.") and "._" in "." + a.name.partition(".")[2]]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "fastapi":
            private = "._" in "." + (node.module or "").partition(".")[2]
            if private or any(a.name.startswith("_") for a in node.names):
                found.append(f"{line} imports from {node.module} a private module")
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found += [f"{line} assigns to a FastAPI attribute" for t in targets
                      if isinstance(t, ast.Attribute) and _root(t) in ours]
        elif isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
            called = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            first = node.args[0] if node.args else None
            aimed = first is not None and (
                _root(first) in ours
                or isinstance(first, ast.Constant) and str(first.value).startswith("fastapi."))
            if called == "setattr" and aimed:
                found.append(f"{line} sets an attribute of FastAPI")
    return found


def test_fastapi_is_used_through_its_public_api() -> None:
    """No import of a private FastAPI module (`fastapi._compat`...) and no attribute
    of FastAPI's set or patched: a FastAPI release that moves its insides must not
    break the app or the suite. Its test seam is `app.dependency_overrides`."""
    files = [p for top in SOURCES for p in (ROOT / top).rglob("*.py")
             if ".venv" not in p.parts and "node_modules" not in p.parts]
    assert len(files) > 100
    found = [m for p in files for m in _misuses(p)]
    assert not found, "\n".join(found)


def test_the_fastapi_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import fastapi._compat.v2\nimport fastapi.routing as r\nfrom fastapi import utils\n"
                      "from fastapi._compat import v2\nr.create_model_field = None\n"
                      "setattr(utils, 'x', 1)\nmonkeypatch.setattr('fastapi.utils.x', 1)\n")
    found = _misuses(sample, tmp_path)
    assert len(found) == 5, found
