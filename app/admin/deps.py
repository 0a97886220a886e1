"""The wing's parts, read from the parts the app was built with
(`app.state.parts.admin`, app/wiring.py), as app/api/deps.py and app/web/deps.py
do for theirs (sibling wings, so not imported from here). A route names
`AdminDep` as a parameter's type (the sign-in front's answer, front.py, awaits
`get_admin` itself); a test swaps the wing with
`app.dependency_overrides[get_admin]`.

`get_admin` is a coroutine: FastAPI awaits it on the loop, where a plain
function would cost a hop to its thread pool on every request.

No `from __future__ import annotations`: FastAPI reads the alias as an object.
"""

from typing import Annotated

from fastapi import Depends, Request

from .context import Admin


async def get_admin(request: Request) -> Admin:
    return request.app.state.parts.admin  # type: ignore[no-any-return]


AdminDep = Annotated[Admin, Depends(get_admin)]
