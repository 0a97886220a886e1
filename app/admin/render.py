"""Pages from the Jinja2 templates under templates/admin/ (autoescaped)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from app.rules.vocabulary import vocabulary

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"

_env = Environment(
    loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
    trim_blocks=True, lstrip_blocks=True,
)
# The engine's words, for the replay's board (mages.js), carried by the match page's body:
# made into JSON once, not on every render. Only that page carries them: they were 15 KB of
# every page, the sign-in form's 16 KB among them (a burst of sign-ins renders that form once
# per try).
_env.globals["vocabulary_json"] = Markup(_env.from_string("{{ words|tojson }}").render(words=vocabulary()))


def page(name: str, status: int = 200, **context: Any) -> HTMLResponse:
    html = _env.get_template(f"admin/{name}").render(**context)
    return HTMLResponse(html, status_code=status)
