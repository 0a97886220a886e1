"""A minimal HTTP/1.1 keep-alive client for the benchmarks: one connection, one
request at a time, JSON in and out.

httpx costs a few hundred microseconds of CPU per request in the client; on a
machine whose two cores also run the servers and PostgreSQL, that is CPU taken
from what is being measured and, worse, queueing delay inside the load generator
that shows up as server latency. This client costs a few tens of microseconds:
it writes the request in one `write` and reads a `Content-Length` (or chunked)
answer straight off the socket. It is for loopback benchmarks against servers we
know (uvicorn), not a general HTTP client.

JSON goes through orjson (already a dependency of the server): a match's answer
is 2-4 KB, which the standard decoder read in ~34 µs (orjson: 13 µs for a 2 KB
one), CPU taken on the cores the servers share. Both sides of bench/api.py use
this client, so neither gains on the other by it.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import orjson


class Answer:
    __slots__ = ("status", "body", "_head")

    def __init__(self, status: int, body: bytes, head: list[bytes] | None = None) -> None:
        self.status, self.body, self._head = status, body, head or []

    def header(self, name: str) -> str | None:
        """One header's value (parsed only when asked), or None."""
        want = name.lower().encode()
        for line in self._head:
            key, _, value = line.partition(b":")
            if key.strip().lower() == want:
                return value.strip().decode()
        return None

    def json(self) -> Any:
        return orjson.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")

    # httpx's name, so the callers read the same
    @property
    def status_code(self) -> int:
        return self.status


class Connection:
    """One keep-alive connection to `host:port`, from the address `local` if given
    (any 127.x.y.z on loopback: a client the server counts apart from the others)."""

    def __init__(self, host: str, port: int, local: str | None = None) -> None:
        self.host, self.port, self.local = host, port, local
        self._head = f"Host: {host}:{port}\r\n".encode()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def __aenter__(self) -> Connection:
        await self._connect()
        return self

    async def __aexit__(self, *_: Any) -> None:
        await self.close()

    async def _connect(self) -> None:
        self._reader, self._writer = await asyncio.open_connection(
            self.host, self.port, local_addr=(self.local, 0) if self.local else None)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(OSError):
                await self._writer.wait_closed()
            self._writer = self._reader = None

    async def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return await self.request("GET", path, None, headers)

    async def post(self, path: str, json_body: Any = None, headers: dict[str, str] | None = None) -> Answer:
        return await self.request("POST", path, json_body, headers)

    async def request(self, method: str, path: str, json_body: Any = None,
                      headers: dict[str, str] | None = None) -> Answer:
        if self._writer is None:
            await self._connect()
        assert self._reader is not None and self._writer is not None
        body = b"" if json_body is None else orjson.dumps(json_body)
        extra = "".join(f"{k}: {v}\r\n" for k, v in headers.items()) if headers else ""
        head = (f"{method} {path} HTTP/1.1\r\n".encode() + self._head
                + (f"{extra}Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
                   if json_body is not None else f"{extra}\r\n").encode())
        self._writer.write(head + body)
        return await self._read()

    async def _read(self) -> Answer:
        reader = self._reader
        assert reader is not None
        raw = await reader.readuntil(b"\r\n\r\n")
        lines = raw.split(b"\r\n")
        status = int(lines[0].split(b" ", 2)[1])
        length = None
        chunked = close = False
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding" and b"chunked" in value.lower():
                chunked = True
            elif name == b"connection" and b"close" in value.lower():
                close = True
        if chunked:
            parts = []
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                if size == 0:
                    await reader.readuntil(b"\r\n")
                    break
                parts.append(await reader.readexactly(size))
                await reader.readexactly(2)
            body = b"".join(parts)
        elif length is not None:
            body = await reader.readexactly(length)
        else:
            body = await reader.read()
            close = True
        if close:
            await self.close()
        return Answer(status, body, lines[1:])
