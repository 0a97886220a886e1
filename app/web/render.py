"""The wing's templates and the one way a page is rendered.

A page drawn for a signed-in player carries their name and their session's
CSRF token (templates/base.html's header and meta tags): it is answered with
`Cache-Control: no-store`, so no cache keeps it for anyone else, nor the
browser's back button for after signing out.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

from app.rules.vocabulary import vocabulary

from .assets import Assets

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = Environment(
    loader=FileSystemLoader(ROOT / "templates"),
    autoescape=select_autoescape(["html"], default=True),  # every name a player typed is text
    trim_blocks=True, lstrip_blocks=True,
)
TEMPLATES.globals["vocabulary"] = vocabulary()  # the engine's words, carried by every page
ASSETS = Assets(ROOT / "static")
TEMPLATES.globals["asset"] = ASSETS.url  # {{ asset("js/home.js") }}: a URL cached for good


def page(name: str, status: int = 200, **context: Any) -> HTMLResponse:
    """`context["session"]`: the signed-in player's session, None (or absent) for a guest;
    `context["back"]`: where the header's "Sign in" brings the player back to."""
    response = HTMLResponse(TEMPLATES.get_template(name).render(**context), status_code=status)
    if context.get("session") is not None:
        response.headers["Cache-Control"] = "no-store"
    return response
