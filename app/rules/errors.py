"""Why an action is refused. Every message starts with the rule it breaks."""

from __future__ import annotations


class MageryError(ValueError):
    """Base of every refusal; the engine state is never changed by one."""


class MalformedAction(MageryError):
    """The action is not of the contract's shape (unknown type, bad square...)."""


class IllegalAction(MageryError):
    """A well-formed action that the rules forbid here. `rule` is e.g. "R4"."""

    def __init__(self, rule: str, detail: str) -> None:
        super().__init__(f"{rule}: {detail}")
        self.rule = rule
        self.detail = detail


class MatchOver(IllegalAction):
    def __init__(self) -> None:
        super().__init__("R15", "the match is over")


class BadPosition(ValueError):
    """A position text or JSON state that cannot be read."""
