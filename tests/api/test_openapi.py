"""The OpenAPI description at /openapi.json: every route, its error answers with
examples, the request schemas refusing unknown fields; /docs serves it."""

from __future__ import annotations

import httpx

ROUTES = {
    ("/api/v1/matches", "post"): {400, 429},
    ("/api/v1/matches", "get"): {400},
    ("/api/v1/matches/{match_id}", "get"): {404},
    ("/api/v1/matches/{match_id}/join", "post"): {400, 404, 409, 429},
    ("/api/v1/matches/{match_id}/legal", "get"): {401, 404},
    ("/api/v1/matches/{match_id}/actions", "post"): {400, 401, 403, 404, 409, 422, 429},
    ("/api/v1/matches/{match_id}/actions", "get"): {404},
    ("/api/v1/matches/{match_id}/resign", "post"): {401, 404, 409, 429},
    ("/api/v1/matches/{match_id}/draw", "post"): {400, 401, 404, 409, 429},
    ("/api/v1/matches/{match_id}/claim", "post"): {401, 403, 404, 409, 429},
    ("/api/v1/matches/{match_id}/abort", "post"): {401, 403, 404, 409, 429},
    ("/api/v1/matches/{match_id}/rematch", "post"): {401, 403, 404, 409, 429},
    ("/api/v1/matches/{match_id}/rematch/decline", "post"): {401, 403, 404, 409, 429},
    ("/api/v1/account", "get"): {401},
}


async def test_every_route_is_documented_with_its_errors(client: httpx.AsyncClient) -> None:
    r = await client.get("/openapi.json")
    assert r.status_code == 200
    spec = r.json()
    paths = spec["paths"]
    for (path, method), statuses in ROUTES.items():
        assert path in paths and method in paths[path], (path, method)
        op = paths[path][method]
        assert op.get("summary"), (path, method)
        documented = {int(s) for s in op["responses"] if s.isdigit() and int(s) >= 400}
        assert statuses <= documented, (path, method, documented)
        for status in statuses:
            content = op["responses"][str(status)]["content"]["application/json"]
            assert content.get("examples") or content.get("example"), (path, method, status)
            assert "$ref" in content["schema"] or content["schema"], (path, method, status)
    # Every documented error example has the contract's shape.
    for path, ops in paths.items():
        for method, op in ops.items():
            for status, response in op.get("responses", {}).items():
                if status.isdigit() and int(status) >= 400 and int(status) in ROUTES.get((path, method), ()):
                    for example in response["content"]["application/json"].get("examples", {}).values():
                        assert {"error", "detail"} <= set(example["value"]), (path, method, status)


async def test_no_route_documents_an_error_the_server_never_sends(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    wrong = []
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            for status, response in op.get("responses", {}).items():
                schema = response.get("content", {}).get("application/json", {}).get("schema", {})
                if "HTTPValidationError" in str(schema):
                    wrong.append((method.upper(), path, status))
    assert wrong == []
    assert "HTTPValidationError" not in spec["components"]["schemas"]


async def test_request_schemas_forbid_unknown_fields(client: httpx.AsyncClient) -> None:
    schemas = (await client.get("/openapi.json")).json()["components"]["schemas"]
    for name in ("CreateMatch", "Options", "JoinMatch", "Play", "Draw", "Claim", "Realtime", "Correspondence"):
        assert schemas[name].get("additionalProperties") is False, name


async def test_seat_routes_declare_bearer_auth(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    assert any(s.get("scheme") == "bearer" for s in spec["components"]["securitySchemes"].values())
    for path, method in (("/api/v1/matches/{match_id}/legal", "get"), ("/api/v1/matches/{match_id}/actions", "post"),
                         ("/api/v1/matches/{match_id}/resign", "post"),
                         ("/api/v1/matches/{match_id}/rematch", "post")):
        assert spec["paths"][path][method].get("security"), (path, method)


async def test_docs_page(client: httpx.AsyncClient) -> None:
    r = await client.get("/docs")
    assert r.status_code == 200 and "openapi.json" in r.text
