"""One pydantic field per distinct parameter, shared by every app the tests build.

Each test builds its own app (create_app with its own database), and FastAPI makes a
`ModelField`, and so a pydantic TypeAdapter with its core schema, for every parameter
and response of every route: about 300 per app, two thirds of an app's build, 0.1 s
of CPU each time, some 1,400 times a run. A field depends only on what it is made
from (name, type, default, field info, alias, mode) and holds no state of its own, so
an identical one is made once per process and shared. The server itself builds one
app per process and is not touched by this (only tests/conftest.py installs it).
"""

from __future__ import annotations

import copy
from typing import Any

import fastapi._compat.v2
import fastapi.applications
import fastapi.dependencies.utils
import fastapi.openapi.utils
import fastapi.routing
import fastapi.utils
from pydantic_core import PydanticUndefined

_made: dict[tuple[Any, ...], Any] = {}
_original = fastapi.utils.create_model_field


def _shared_model_field(name: str, type_: Any, default: Any = PydanticUndefined,
                        field_info: Any = None, alias: str | None = None,
                        mode: Any = "validation") -> Any:
    # The field info's repr names every setting it holds (annotation, default,
    # alias, constraints, metadata); a default's repr names the object itself.
    key = (name, type_, repr(default), repr(field_info), alias, mode)
    try:
        found = _made.get(key)
    except TypeError:  # an unhashable annotation: made afresh, as FastAPI would
        return _original(name, type_, default, field_info, alias, mode)
    if found is None:
        found = _made[key] = _original(name, type_, default, field_info, alias, mode)
    return found


_model_fields: dict[type[Any], list[Any]] = {}
_original_model_fields = fastapi._compat.v2.get_model_fields


def _shared_model_fields(model: type[Any]) -> list[Any]:
    """The fields FastAPI makes of a model's attributes when it writes the OpenAPI
    schema, once per model class: the schema is written on each app's first answer
    (the request metrics name routes from its paths), and making these fields afresh
    was four fifths of that, 0.3 s of CPU per test."""
    found = _model_fields.get(model)
    if found is None:
        found = _model_fields[model] = _original_model_fields(model)
    return list(found)


_schemas: dict[Any, dict[str, Any]] = {}
_original_openapi = fastapi.openapi.utils.get_openapi


def _shape(routes: Any) -> tuple[Any, ...]:
    """What a schema is written from: each route's kind, path, methods, the code of
    its endpoint (each app makes its own closures of the same code) and what it
    declares for the schema; an included router's prefix and its own routes. Anything
    that differs between two apps makes another key: a schema is never shared between
    apps whose routes differ, at worst it is written again."""
    shape: list[Any] = []
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            context = route.include_context
            shape.append(("include", context.prefix, tuple(map(str, context.tags)), repr(context.responses),
                          context.deprecated, context.include_in_schema, _shape(included.routes)))
            continue
        endpoint = getattr(route, "endpoint", None)
        shape.append((type(route).__qualname__, getattr(route, "path", None), tuple(sorted(getattr(route, "methods", None) or ())),
                       getattr(endpoint, "__code__", type(endpoint)), getattr(route, "name", None),
                       getattr(route, "include_in_schema", None), repr(getattr(route, "responses", None)),
                       repr(getattr(route, "response_model", None)), getattr(route, "status_code", None),
                       getattr(route, "summary", None), getattr(route, "description", None),
                       getattr(route, "operation_id", None), tuple(map(str, getattr(route, "tags", None) or ())),
                       getattr(route, "deprecated", None)))
    return tuple(shape)


def _shared_openapi(**kwargs: Any) -> dict[str, Any]:
    """The OpenAPI schema, written once per shape of app and handed out as a copy
    (the server edits its own after it is written). Each app writes it on its first
    answer, for the request metrics' route names: a third of the CPU of a test of the
    API before it was shared."""
    key = (_shape(kwargs["routes"]), repr(sorted((k, repr(v)) for k, v in kwargs.items() if k != "routes")))
    found = _schemas.get(key)
    if found is None:
        found = _schemas[key] = _original_openapi(**kwargs)
    return copy.deepcopy(found)


def install() -> None:
    # Both modules imported the function by name: each name is replaced where it is used.
    for module in (fastapi.routing, fastapi.dependencies.utils):
        setattr(module, "create_model_field", _shared_model_field)  # noqa: B010
    # Looked up as a global of its own module by the schema's walk over models.
    setattr(fastapi._compat.v2, "get_model_fields", _shared_model_fields)  # noqa: B010
    setattr(fastapi.applications, "get_openapi", _shared_openapi)  # noqa: B010
