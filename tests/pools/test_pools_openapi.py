"""Quick pairing's calls in the OpenAPI description: each with a summary, its
errors with examples in the contract's shape, its bodies with examples, and a
request body that refuses unknown fields."""

from __future__ import annotations

import httpx

ROUTES = {
    ("/api/v1/pools", "get"): set(),
    ("/api/v1/pools/{pool_id}/join", "post"): {400, 401, 404, 429},
    ("/api/v1/pools/wait", "get"): {400, 401, 409},
    ("/api/v1/pools/{pool_id}/leave", "post"): {401, 404, 429},
    ("/api/v1/pools/leave", "post"): {401, 429},
}


async def test_the_pools_calls_are_described_with_their_errors(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/openapi.json")).json()
    for (path, method), statuses in ROUTES.items():
        op = spec["paths"][path][method]
        assert op.get("summary"), (path, method)
        for status in statuses:
            content = op["responses"][str(status)]["content"]["application/json"]
            for example in content["examples"].values():
                assert {"error", "detail"} <= set(example["value"]), (path, method, status)
    join = spec["paths"]["/api/v1/pools/{pool_id}/join"]["post"]["responses"]
    assert "no_such_pool" in join["404"]["content"]["application/json"]["examples"]
    wait = spec["paths"]["/api/v1/pools/wait"]["get"]["responses"]
    assert "not_waiting" in wait["409"]["content"]["application/json"]["examples"]
    schemas = spec["components"]["schemas"]
    assert schemas["JoinPool"].get("additionalProperties") is False
    assert len(schemas["PoolAnswer"]["examples"]) == 2
    assert {"status", "pools", "waited_seconds", "computer", "match", "ticket", "rating_range"} == set(schemas["PoolAnswer"]["properties"])
