"""app/rules is the game and nothing else: no web, database or application
layer (README, "What is where"), and its docstring example runs."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import app.rules
from tests.rules.helpers import run_source_examples

RULES_DIR = Path(app.rules.__file__).parent
FORBIDDEN = (
    "fastapi", "starlette", "sqlalchemy", "alembic", "asyncio", "httpx", "websockets",
    "uvicorn", "pydantic", "pydantic_settings", "aiosqlite", "asyncpg",
    "app.api", "app.db", "app.matches", "app.realtime", "app.main", "app.config",
)


def _forbidden(module: str) -> bool:
    return any(module == f or module.startswith(f + ".") for f in FORBIDDEN)


def _imports(path: Path) -> list[str]:
    """Absolute names of every module the file imports (relative ones resolved)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = ["app", "rules"]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
                out.append(stem)
                out += [f"{stem}.{alias.name}" for alias in node.names]
            else:
                out.append(node.module or "")
                out += [f"{node.module}.{alias.name}" for alias in node.names]
    return out


def test_rules_sources_import_no_web_database_or_application_layer():
    files = sorted(RULES_DIR.glob("*.py"))
    assert len(files) >= 10
    for path in files:
        for module in _imports(path):
            assert not _forbidden(module), f"{path.name} imports {module}"
            if module.startswith("app."):
                assert module.startswith("app.rules"), f"{path.name} imports {module}"


def test_importing_rules_pulls_in_no_framework_module():
    code = "import sys, json, app.rules; print(json.dumps(sorted(sys.modules)))"
    root = RULES_DIR.parent.parent
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=root, check=True)
    loaded = json.loads(done.stdout)
    assert "app.rules" in loaded
    bad = [m for m in loaded if _forbidden(m)]
    assert not bad, bad


def test_rules_package_docstring_example_runs():
    result = run_source_examples(app.rules)
    assert result.attempted >= 5
    assert result.failed == 0
