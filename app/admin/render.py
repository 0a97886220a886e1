"""Pages from the Jinja2 templates under templates/admin/ (autoescaped)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

from app.rules.vocabulary import vocabulary

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"

_env = Environment(
    loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
    trim_blocks=True, lstrip_blocks=True,
)
_env.globals["vocabulary"] = vocabulary()  # the engine's words, for the replay's board (mages.js)


def page(name: str, status: int = 200, **context: Any) -> HTMLResponse:
    html = _env.get_template(f"admin/{name}").render(**context)
    return HTMLResponse(html, status_code=status)
