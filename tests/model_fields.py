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

from typing import Any

import fastapi.dependencies.utils
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


def install() -> None:
    # Both modules imported the function by name: each name is replaced where it is used.
    for module in (fastapi.routing, fastapi.dependencies.utils):
        setattr(module, "create_model_field", _shared_model_field)  # noqa: B010
