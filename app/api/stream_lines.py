"""The lines of the ndjson streams, in the OpenAPI description.

OpenAPI 3.1 has no way to say what each line of an `application/x-ndjson`
answer is: a media type's `schema` describes the whole body, which is no JSON
document at all (so it stays `{"type": "string"}`, the truth about the body).
OpenAPI 3.2 adds `itemSchema` for such sequential media types; until the
description moves to 3.2, each stream's media type carries the same thing as
the extension `x-itemSchema` (an `x-` key, which 3.1 allows anywhere), a `$ref`
to a union of the stream's line kinds, told apart by `type`.

The line kinds are the AsyncAPI messages of the same stream (asyncapi.py's
channels, whose addresses are these paths), made components here under
`Live<Message>` (`LiveSnapshot`, `LiveMatchStart`, ...) so that a generated
client gets a model for each. No generator reads `x-itemSchema` itself
(openapi-python-client leaves an ndjson answer unparsed): the magery-client
package (packages/client) reads the lines with those models' shapes, and
docs/engines.md says so.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from .asyncapi import CHANNELS, STREAM_QUERIES
from .asyncapi_arena import MESSAGES as ARENA_MESSAGES
from .asyncapi_messages import MESSAGES
from .response_docs import amend_openapi

NDJSON = "application/x-ndjson"
PREFIX = "/api/v1"


def _pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def line_component(message: str) -> str:
    """The component a message's payload is written under: `matchStart` -> `LiveMatchStart`."""
    return "Live" + _pascal(message)


def union_component(channel: str) -> str:
    """A stream's union of its line kinds: `matchStream` -> `MatchStreamLine`."""
    return _pascal(channel) + "Line"


def streams() -> dict[str, tuple[str, list[str]]]:
    """Each ndjson stream's path under /api/v1: its channel's name and the messages it sends."""
    found = {}
    for name in STREAM_QUERIES:
        channel, by_action = CHANNELS[name]()
        found[channel["address"].removeprefix(PREFIX)] = (name, by_action["send"])
    return found


def _payload(message: str, known: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A message's payload as the OpenAPI's component: the AsyncAPI's own, but that a
    delta's `changes` are plain arrays. Their three forms (`prefixItems` in a `oneOf`)
    are exact in /asyncapi.json, but a generated client's code for them did not
    type-check (openapi-python-client 0.29 unions the forms' items into `Never`)."""
    payload: dict[str, Any] = known[message]["payload"]
    if message != "delta":
        return payload
    changes = payload["properties"]["changes"]
    forms = "; ".join(form["description"] for form in changes["items"]["oneOf"])
    plain = {"type": "array", "items": {"type": "array", "items": {}, "minItems": 1, "maxItems": 4,
                                        "description": f"{forms} (/asyncapi.json's delta says each form)"}}
    return {**payload, "properties": {**payload["properties"], "changes": plain}}


def describe(schema: dict[str, Any]) -> dict[str, Any]:
    """Adds the line components and each stream's `x-itemSchema` (idempotent)."""
    known = {**MESSAGES, **ARENA_MESSAGES}
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    by_path = streams()
    for path, item in schema.get("paths", {}).items():
        for op in item.values():
            content = op.get("responses", {}).get("200", {}).get("content", {})
            # A stream with no channel of asyncapi.py says its lines itself, in its route's
            # `responses` (its own `x-itemSchema`); tests/api/test_generated_client.py holds every one to it.
            if NDJSON not in content or path.removeprefix(PREFIX) not in by_path:
                continue
            channel, sent = by_path[path.removeprefix(PREFIX)]
            union = union_component(channel)
            mapping = {}
            for message in sent:
                name = line_component(message)
                payload = _payload(message, known)
                existing = components.setdefault(name, {**payload, "title": name})
                assert existing.get("properties") == payload.get("properties"), f"{name} names two messages"
                mapping[payload["properties"]["type"]["const"]] = f"#/components/schemas/{name}"
            components[union] = {
                "title": union, "description": f"one line of {path}, told apart by `type`; ignore a type you "
                                               "do not know (docs/api.md)",
                "oneOf": [{"$ref": ref} for ref in mapping.values()],
                "discriminator": {"propertyName": "type", "mapping": mapping}}
            content[NDJSON]["x-itemSchema"] = {"$ref": f"#/components/schemas/{union}"}
    # The bots online are one model a line, not a union: its component, for the $ref.
    from .user_status import OnlineBot

    line = OnlineBot.model_json_schema(ref_template="#/components/schemas/{model}")
    schemas = schema.setdefault("components", {}).setdefault("schemas", {})
    for name, part in {**line.pop("$defs", {}), "OnlineBot": line}.items():
        schemas.setdefault(name, part)
    return schema


def install(app: FastAPI) -> None:
    amend_openapi(app, describe)
