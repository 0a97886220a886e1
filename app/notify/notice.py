"""A notice to write: to whom, of what kind, about what."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Notice:
    account_id: int
    kind: str  # one of kinds.KINDS
    data: dict[str, Any] = field(default_factory=dict)  # ids and names only: no secret (never a seat token)
    # Lands once per account however many times it is written (a tournament's
    # start, which every process's tick may find): None for everything else.
    once_key: str | None = None
