"""app/ratings is maths and nothing else (tests/test_layers.py holds its
imports to the pure standard library): importing it loads no framework, and
the examples in its docstrings run."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path

import pytest

import app.ratings
from app.ratings import glicko2, outcome, policy, rating

ROOT = Path(app.ratings.__file__).resolve().parents[2]
FRAMEWORKS = ("fastapi", "starlette", "sqlalchemy", "pydantic", "httpx", "asyncio", "app.db", "app.matches",
              "app.config", "app.rules")


def test_importing_ratings_loads_no_framework_nor_the_game() -> None:
    code = "import sys, json, app.ratings; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    loaded = json.loads(done.stdout)
    assert "app.ratings" in loaded
    assert [m for m in loaded if any(m == f or m.startswith(f + ".") for f in FRAMEWORKS)] == []


@pytest.mark.parametrize("module", [app.ratings, glicko2, rating, policy, outcome], ids=lambda m: m.__name__)
def test_the_docstring_examples_run(module) -> None:
    result = doctest.testmod(module, verbose=False)
    assert result.attempted >= 1 and result.failed == 0
