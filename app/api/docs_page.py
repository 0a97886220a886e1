"""The API's pages for people, `/docs` (Swagger UI) and `/redoc` (ReDoc), served
from files installed with the project, so they work on a machine with no network.

FastAPI's own pages load their scripts, styles and fonts from CDNs: offline they
stay blank. The fastapi-offline package ships those assets (Swagger UI, ReDoc,
a favicon) in its `static` folder; only the files are used here, not its
FastAPI subclass. The pages name no third-party origin (tests/api/test_docs_page.py).
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = Path(fastapi_offline.__file__).parent / "static"
ASSETS_URL = "/docs/assets"


def install(app: FastAPI, docs_url: str = "/docs", redoc_url: str = "/redoc") -> None:
    """Serve the two pages and their assets. Create the app with `docs_url=None` and
    `redoc_url=None`, so that FastAPI's CDN pages do not answer first."""
    if not (ASSETS / "swagger-ui-bundle.js").is_file():  # the package moved its files
        raise RuntimeError(f"no Swagger UI assets in {ASSETS}")
    app.mount(ASSETS_URL, StaticFiles(directory=ASSETS), name="docs_assets")
    openapi_url = app.openapi_url or "/openapi.json"

    @app.get(docs_url, include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_swagger_ui_html(
            openapi_url=root + openapi_url,
            title=f"{app.title}: API",
            swagger_js_url=f"{root}{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
            # No validator badge: Swagger UI would fetch it from swagger.io.
            swagger_ui_parameters={**(app.swagger_ui_parameters or {}), "validatorUrl": None},
        )

    @app.get(redoc_url, include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_redoc_html(
            openapi_url=root + openapi_url,
            title=f"{app.title}: API reference",
            redoc_js_url=f"{root}{ASSETS_URL}/redoc.standalone.js",
            redoc_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
            with_google_fonts=False,  # ReDoc falls back to the browser's own fonts
        )
