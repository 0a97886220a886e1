"""The API's pages for people, `/docs` (Swagger UI) and `/redoc` (ReDoc), served
from files installed with the project, so they work on a machine with no network,
and under a strict content security policy: no inline script at all.

FastAPI's own pages load their scripts, styles and fonts from CDNs (offline they
stay blank) and start Swagger UI with an inline script. The fastapi-offline
package ships the assets (Swagger UI, ReDoc, a favicon) in its `static` folder;
only the files are used here, not its FastAPI subclass. Swagger UI is started by
a script of ours (`/docs/swagger-init.js`) that reads its settings from the
page's data attributes; ReDoc reads the spec's address from its element. So the
pages, on the origin whose localStorage holds seat tokens, run only the files
this server serves (the policy is app/security.py's, with
the additions app/web/headers.py names for these pages). The pages name no third-party origin (tests/api/test_docs_page.py).
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

ASSETS = Path(fastapi_offline.__file__).parent / "static"
ASSETS_URL = "/docs/assets"
INIT_URL = "/docs/swagger-init.js"
REDOC_URL = "/docs/redoc/redoc.standalone.js"
# ReDoc draws its maker's logo from their CDN, whatever its options; the copy
# served here asks for an empty data: image instead, which it then hides (its
# own fallback when the logo fails to load). The policy would block the CDN
# anyway; this way the page asks for nothing it may not have.
REDOC_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"

SWAGGER_INIT = """\
"use strict";
// Starts Swagger UI from the settings in the page's data attributes: the page
// itself holds no script, so its policy can refuse every inline one.
(function () {
  var root = document.getElementById("swagger-ui");
  var options = JSON.parse(root.getAttribute("data-options"));
  options.url = root.getAttribute("data-openapi");
  options.dom_id = "#swagger-ui";
  options.presets = [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset];
  window.ui = SwaggerUIBundle(options);
})();
"""

SWAGGER_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<link rel="stylesheet" href="{assets}/swagger-ui.css">
<link rel="icon" href="{assets}/favicon.png">
</head>
<body>
<div id="swagger-ui" data-openapi="{openapi}" data-options="{options}"></div>
<script src="{assets}/swagger-ui-bundle.js"></script>
<script src="{init}"></script>
</body>
</html>
"""

REDOC_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="{assets}/favicon.png">
</head>
<body>
<redoc spec-url="{openapi}"></redoc>
<script src="{redoc}"></script>
</body>
</html>
"""


def install(app: FastAPI, docs_url: str = "/docs", redoc_url: str = "/redoc") -> None:
    """Serve the two pages and their assets. Create the app with `docs_url=None` and
    `redoc_url=None`, so that FastAPI's CDN pages do not answer first."""
    if not (ASSETS / "swagger-ui-bundle.js").is_file():  # the package moved its files
        raise RuntimeError(f"no Swagger UI assets in {ASSETS}")
    app.mount(ASSETS_URL, StaticFiles(directory=ASSETS), name="docs_assets")
    openapi_url = app.openapi_url or "/openapi.json"
    # FastAPI's defaults, and no validator badge (Swagger UI would fetch it from swagger.io).
    options = {"layout": "BaseLayout", "deepLinking": True, "showExtensions": True, "showCommonExtensions": True,
               **(app.swagger_ui_parameters or {}), "validatorUrl": None}

    redoc_js = (ASSETS / "redoc.standalone.js").read_bytes().replace(REDOC_LOGO, b"data:,")

    @app.get(REDOC_URL, include_in_schema=False)
    async def redoc_script() -> Response:
        return Response(redoc_js, media_type="text/javascript; charset=utf-8",
                        headers={"Cache-Control": "public, max-age=3600"})

    @app.get(INIT_URL, include_in_schema=False)
    async def swagger_init() -> Response:
        return Response(SWAGGER_INIT, media_type="text/javascript; charset=utf-8",
                        headers={"Cache-Control": "public, max-age=3600"})

    @app.get(docs_url, include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return HTMLResponse(SWAGGER_PAGE.format(
            title=escape(f"{app.title}: API"), assets=escape(root + ASSETS_URL), init=escape(root + INIT_URL),
            openapi=escape(root + openapi_url), options=escape(json.dumps(options))))

    @app.get(redoc_url, include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return HTMLResponse(REDOC_PAGE.format(
            title=escape(f"{app.title}: API reference"), assets=escape(root + ASSETS_URL),
            redoc=escape(root + REDOC_URL), openapi=escape(root + openapi_url)))
