"""The OpenAPI description at /openapi.json: every route, its error answers with
examples, the request schemas refusing unknown fields; /docs serves it."""

from __future__ import annotations

import json
import re
from typing import Any

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


# Issue 21, item 2: what a generated client names its calls, and what each call answers.
OPERATION_IDS = {
    ("/api/v1/matches", "post"): "createMatch",
    ("/api/v1/matches", "get"): "listMatches",
    ("/api/v1/matches/{match_id}", "get"): "getMatch",
    ("/api/v1/matches/{match_id}/join", "post"): "joinMatch",
    ("/api/v1/matches/{match_id}/legal", "get"): "getLegalActions",
    ("/api/v1/matches/{match_id}/actions", "post"): "playAction",
    ("/api/v1/matches/{match_id}/actions", "get"): "getActionLog",
    ("/api/v1/matches/{match_id}/resign", "post"): "resignMatch",
    ("/api/v1/matches/{match_id}/draw", "post"): "answerDraw",
    ("/api/v1/matches/{match_id}/claim", "post"): "claimResult",
    ("/api/v1/matches/{match_id}/abort", "post"): "abortMatch",
    ("/api/v1/matches/{match_id}/rematch", "post"): "offerRematch",
    ("/api/v1/matches/{match_id}/rematch/decline", "post"): "declineRematch",
    ("/api/v1/account", "get"): "getAccount",
}


async def test_operation_ids_are_chosen_short_and_unique(client: httpx.AsyncClient) -> None:
    paths = (await client.get("/openapi.json")).json()["paths"]
    ids = [op["operationId"] for ops in paths.values() for op in ops.values()]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    for op_id in ids:  # camelCase, no path or method in it (FastAPI's default: create_match_api_v1_matches_post)
        assert re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)*", op_id) and len(op_id) <= 24, op_id
    for (path, method), op_id in OPERATION_IDS.items():  # stable: clients compile against them
        assert paths[path][method]["operationId"] == op_id, (path, method)


async def test_answers_document_their_headers_and_the_middlewares_refusals(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            for status, answer in op["responses"].items():
                headers = answer.get("headers", {})
                assert "X-Request-ID" in headers, (path, method, status)
                if status in ("429", "503"):
                    assert "Retry-After" in headers, (path, method, status)
                if status == "401":
                    assert "WWW-Authenticate" in headers, (path, method, status)
            if method == "post":  # the body limit's refusals, before any route
                assert {"408", "413"} <= set(op["responses"]), (path, method)
    assert "Allow" in spec["components"]["responses"]["MethodNotAllowed"]["headers"]
    r = await client.put("/api/v1/matches")
    assert r.status_code == 405 and r.json()["error"] == "method_not_allowed"


def _codes(op: dict[str, Any], status: str) -> set[str]:
    return set(op["responses"][status]["content"]["application/json"]["examples"])


async def test_each_route_lists_only_the_codes_it_answers(client: httpx.AsyncClient) -> None:
    paths = (await client.get("/openapi.json")).json()["paths"]
    seat = {"forbidden", "insufficient_scope", "csrf_failed"}
    match = "/api/v1/matches/{match_id}"
    assert _codes(paths[f"{match}/actions"]["post"], "403") == seat | {"not_your_turn"}
    assert _codes(paths[f"{match}/actions"]["post"], "409") == {"stale_version", "id_taken", "match_over"}
    for verb in ("resign", "draw", "claim", "abort"):  # no turn is asked of them
        op = paths[f"{match}/{verb}"]["post"]
        assert _codes(op, "403") == seat, verb
        assert _codes(op, "409") == {"match_over"}, verb
    assert _codes(paths[f"{match}/rematch/decline"]["post"], "409") == {"match_running"}
    assert _codes(paths[f"{match}/rematch"]["post"], "409") == {"match_running", "request_in_flight"}
    assert _codes(paths[f"{match}/rematch"]["post"], "422") == {"idempotency_key_reused"}
    assert _codes(paths[f"{match}/join"]["post"], "409") == {"seat_taken", "name_taken", "match_over",
                                                             "request_in_flight"}
    assert _codes(paths["/api/v1/matches"]["post"], "409") == {"name_taken", "request_in_flight"}
    assert _codes(paths["/api/v1/pools/{pool_id}/join"]["post"], "409") == {"name_taken"}  # a guest's name
    descriptions = {paths[f"{match}/{verb}"]["post"]["responses"]["409"]["description"]
                    for verb in ("actions", "join", "resign", "rematch")}
    assert len(descriptions) == 4, descriptions  # each route says its own


async def test_no_route_pastes_the_codes_of_another(client: httpx.AsyncClient) -> None:
    """Only playing an action is refused for the turn; no 409 lists every conflict of the API."""
    paths = (await client.get("/openapi.json")).json()["paths"]
    for path, ops in paths.items():
        for method, op in ops.items():
            if "403" in op["responses"] and (path, method) != ("/api/v1/matches/{match_id}/actions", "post"):
                assert "not_your_turn" not in _codes(op, "403"), (path, method)
            if "409" in op["responses"]:
                assert len(_codes(op, "409")) <= 4, (path, method, _codes(op, "409"))
    assert _codes(paths["/api/v1/matches/{match_id}/chat"]["post"], "409") == {"chat_repeated"}
    assert _codes(paths["/api/v1/pools/wait"]["get"], "409") == {"not_waiting"}


async def test_every_timestamp_is_documented_as_one(client: httpx.AsyncClient) -> None:
    schemas = (await client.get("/openapi.json")).json()["components"]["schemas"]
    stamps = [(name, field, spec) for name, schema in schemas.items()
              for field, spec in schema.get("properties", {}).items()
              if re.search(r"(^at|_at|_time|_until)$", field)]
    assert len(stamps) >= 10
    for name, field, spec in stamps:
        assert '"format": "date-time"' in json.dumps(spec), (name, field, spec)


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        return ([node["$ref"]] if isinstance(node.get("$ref"), str) else []) + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


async def test_every_reference_resolves_in_the_document(client: httpx.AsyncClient) -> None:
    """A model's own `#/$defs/...` pasted into a response points nowhere in the
    whole document: ReDoc stops with "Invalid reference token"."""
    schema = (await client.get("/openapi.json")).json()
    for ref in set(_refs(schema)):
        assert ref.startswith("#/"), ref
        node: Any = schema
        for part in ref[2:].split("/"):
            assert isinstance(node, dict) and part in node, f"{ref} resolves to nothing"
            node = node[part]


async def test_paths_of_one_shape_take_the_same_methods(client: httpx.AsyncClient) -> None:
    """`/a/{x}` and `/a/open` both match `/a/open`: the server's `Allow` then names
    the methods of both, so each description of the path must list them all."""
    paths = (await client.get("/openapi.json")).json()["paths"]
    matching: dict[str, set[str]] = {}
    for path, methods in paths.items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$"
        for other in paths:
            if other != path and re.fullmatch(pattern, re.sub(r"\{[^}]+\}", "x", other)):
                matching.setdefault(other, set()).update(set(methods))
    for path, extra in matching.items():
        assert extra <= set(paths[path]), f"{path} also matches routes taking {sorted(extra - set(paths[path]))}"
