"""magery-client's `export`, in process against a stand-in server (httpx's
MockTransport): a connection that breaks mid-answer is taken up with `after=`
the last match given, a 429 is waited out, and the iteration ends with the
first answer that brings nothing. Against the real server:
test_client_restart.py."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from .wheels import CLIENT_PACKAGE

MATCHES = [{"id": f"m{n}", "status": "finished"} for n in range(5, 0, -1)]  # newest first


@pytest.fixture
def magery_client(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.syspath_prepend(str(CLIENT_PACKAGE))
    import magery_client

    yield magery_client
    for name in [n for n in sys.modules if n == "magery_client" or n.startswith("magery_client.")]:
        del sys.modules[name]


def test_an_export_cut_short_goes_on_after_the_last_match_once_each(magery_client: Any) -> None:
    asked: list[dict[str, str]] = []

    class BrokenAfter(httpx.AsyncByteStream):
        def __init__(self, lines: list[bytes]) -> None:
            self.lines = lines

        async def __aiter__(self) -> AsyncIterator[bytes]:
            for line in self.lines:
                yield line
            raise httpx.ReadError("the connection broke")

    def answer(request: httpx.Request) -> httpx.Response:
        params = dict(request.url.params)
        asked.append(params)
        assert len(asked) <= 5, asked  # an export asking for ever
        if len(asked) == 2:
            return httpx.Response(429, headers={"Retry-After": "0"}, json={"error": "rate_limited", "detail": "wait"})
        start = next(i + 1 for i, m in enumerate(MATCHES) if m["id"] == params["after"]) if "after" in params else 0
        lines = [json.dumps(m).encode() + b"\n" for m in MATCHES[start:start + 2]]
        if len(asked) == 1:  # two matches, then the connection breaks
            return httpx.Response(200, stream=BrokenAfter(lines))
        return httpx.Response(200, content=b"".join(lines), headers={"content-type": "application/x-ndjson"})

    async def main() -> list[str]:
        async with magery_client.Magery("http://server", transport=httpx.MockTransport(answer)) as client:
            return [m["id"] async for m in client.export("Ada", rated=True)]

    got = asyncio.run(main())
    assert got == [m["id"] for m in MATCHES], got
    assert [p.get("after") for p in asked] == [None, "m4", "m4", "m2", "m1"], asked
    assert all(p["rated"] == "true" for p in asked), asked


def test_an_export_with_max_stops_there(magery_client: Any) -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        most = int(request.url.params["max"])
        return httpx.Response(200, content=b"".join(json.dumps(m).encode() + b"\n" for m in MATCHES[:most]))

    async def main() -> list[str]:
        async with magery_client.Magery("http://server", transport=httpx.MockTransport(answer)) as client:
            return [m["id"] async for m in client.export("Ada", max=3)]

    assert asyncio.run(main()) == ["m5", "m4", "m3"]
