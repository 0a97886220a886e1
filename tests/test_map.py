"""The README's map ("What is where") is how a maintainer finds their way: it must
name every package and top-level module of app/, and the code must not send a
reader to issue numbers they cannot see."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"


def _map() -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index("## What is where")
    return text[start:text.index("\n## ", start + 1)]


def test_the_map_names_every_package_and_module_of_app() -> None:
    named = set(re.findall(r"`(app/[\w./]+)`", _map()))
    parts = [f"app/{p.name}/" for p in APP.iterdir() if p.is_dir() and (p / "__init__.py").exists()]
    parts += [f"app/{p.name}" for p in APP.glob("*.py") if p.name != "__init__.py"]
    missing = sorted(part for part in parts if part not in named)
    assert not missing, f"README.md's 'What is where' does not name {missing}"

