"""The game record: a whole match as text, and its reading back.

A record is header lines `Name: value`, one blank line, then the match's log,
one entry a line: `version player kind action`, where `player` is `white`,
`black` or `-` (the server's own doing), `kind` is `play` (applied) or `auto`
(what the engine or the server did by itself: R11's passes, a flag's fall, a
join timeout), and `action` is the action JSON of docs/notation.md on one line
(or one of the log's other events, such as `{"type":"resign"}`). A line of the
log beginning `#` is a comment (a computer analysis writes its evals so), which
readers pass over. docs/notation.md ("The game record") lists the headers.

`read_record` reads a record; `GameRecord.start` deals the match's start again
(from its `Position` header, or its `Seed`, `Variant`, `NoProgressRounds`,
`Custom` and `Chaos` headers) and `GameRecord.final` replays the log from it,
as the server replays its own log (`replay_log`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .colours import other
from .engine import apply, conclude
from .errors import BadPosition
from .notation import from_text
from .start import new_match
from .state import State

ENGINE_ACTIONS = frozenset({"setup", "place", "pass", "remove"})
# An accepted takeback: the match goes back to the state after version `to`.
TAKEBACK = "takeback_accept"
_KINDS = ("play", "auto")
_PLAYERS = ("white", "black", "-")


class BadRecord(BadPosition):
    """A game record that cannot be read or replayed; the message names the line."""


@dataclass(frozen=True, slots=True)
class LogLine:
    version: int
    player: str | None
    action: dict[str, Any]
    automatic: bool


def ending(kind: str, player: str | None, action: dict[str, Any]) -> tuple[str | None, str] | None:
    """(winner, reason) of a log event that ends the match from outside the
    rules, else None: the one reading of these events, for the server and records."""
    if kind == "resign":
        return other(player or "white"), "resigned"
    if kind == "timeout":
        return other(player or "white"), "timeout"
    if kind == "draw_accept":
        return None, "agreement"
    if kind == "abort":
        return None, "aborted"
    if kind == "adjudicate":  # a server admin settled it
        winner = action.get("winner")
        return (winner if isinstance(winner, str) else None), "adjudicated"
    if kind == "claim":
        # The engine has no "abandoned" reason: a claimed win is a loss on time
        # by the absent player, a claimed draw a draw on time.
        return (player if action.get("result") == "win" else None), "timeout"
    return None


def replay_log(state: State, entries: Iterable[tuple[str | None, dict[str, Any], bool]]) -> State:
    """The state after `entries`, each (player, action JSON, automatic), from `state`
    (the state at version 0: the entries are the log from version 1 on)."""
    final = state
    for final in replayed(state, entries):  # noqa: B007 - only the last is wanted
        pass
    return final


def replayed(state: State, entries: Iterable[tuple[str | None, dict[str, Any], bool]]) -> Iterator[State]:
    """The state after each of `entries` in turn, from `state` at version 0.

    A player's engine action is applied (the engine plays the automatic passes
    after it itself, R11, so the log's own `auto` passes leave the state as it
    is); events that end the match are applied with `conclude`; an accepted
    takeback brings back the state after the version it names; the others
    (join, draw and takeback offers, rematch offers, time given) leave the
    engine state as it was."""
    history = [state]  # history[v]: the state after version v
    for player, action, automatic in entries:
        kind = action["type"]
        if kind in ENGINE_ACTIONS:
            if not automatic:
                state, _ = apply(state, action)
        elif kind == TAKEBACK:
            state = history[back_to(action, len(history) - 1)]
        else:
            end = ending(kind, player, action)
            if end is not None:
                state = conclude(state, *end)
        history.append(state)
        yield state


def back_to(action: dict[str, Any], before: int) -> int:
    """The version a takeback entry goes back to, checked against `before`,
    the version just before the entry."""
    to = action.get("to")
    if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to < before:
        raise ValueError(f"a takeback goes back to an earlier version, not {to!r}")
    return to


def _one_line(value: str, name: str) -> str:
    if "\n" in value or "\r" in value:
        raise BadRecord(f"the header {name} must fit on one line")
    return value


def write_record(headers: Sequence[tuple[str, str]], log: Iterable[LogLine],
                 comments: Mapping[int, str] | None = None) -> str:
    """The record's text: `headers` in the order given, a blank line, the log.
    `comments` (a computer analysis's, by version) go each on a line of its own
    beginning `# ` after its version's entry (version 0's before the first)."""
    notes = comments or {}
    lines = [f"{name}: {_one_line(value, name)}" for name, value in headers]
    lines.append("")
    if 0 in notes:
        lines.append(f"# {_one_line(notes[0], 'comment')}")
    for entry in log:
        action = json.dumps(entry.action, ensure_ascii=False, separators=(",", ":"))
        lines.append(f"{entry.version} {entry.player or '-'} {_KINDS[entry.automatic]} {action}")
        if entry.version in notes:
            lines.append(f"# {_one_line(notes[entry.version], 'comment')}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, slots=True)
class GameRecord:
    headers: dict[str, str]
    log: list[LogLine]

    def start(self) -> State:
        """The match's state at version 0."""
        h = self.headers
        if "Position" in h:
            return from_text(h["Position"])
        if "Seed" not in h:
            raise BadRecord("the record holds no Seed (a running match keeps it secret, R20) and no "
                            "Position: its start cannot be dealt again")
        try:
            rounds = int(h.get("NoProgressRounds", "10"))
        except ValueError:
            raise BadRecord(f"NoProgressRounds is a whole number, not {h['NoProgressRounds']!r}") from None
        chaos = [name for name in h.get("Chaos", "").split(",") if name] or None
        try:
            return new_match(h["Seed"], h.get("Variant", "standard"), rounds, chaos, h.get("Custom") == "yes")
        except ValueError as error:
            raise BadRecord(f"the headers deal no match: {error}") from None

    def final(self) -> State:
        """The state after the whole log, replayed from the start."""
        state = self.start()
        after = replayed(state, ((entry.player, entry.action, entry.automatic) for entry in self.log))
        for entry in self.log:
            try:
                state = next(after)
            except (ValueError, KeyError, IndexError, TypeError) as error:  # the engine's refusal, or a malformed event
                raise BadRecord(f"version {entry.version}: {error}") from None
        return state


def read_record(text: str) -> GameRecord:
    """A record's headers and log, as `write_record` writes them; BadRecord
    names the first line that is not of the form."""
    lines = text.splitlines()
    headers: dict[str, str] = {}
    at = 0
    while at < len(lines) and lines[at] != "":
        name, sep, value = lines[at].partition(": ")
        if not sep or not name or " " in name:
            raise BadRecord(f"line {at + 1}: a header is `Name: value`, not {lines[at][:60]!r}")
        if name in headers:
            raise BadRecord(f"line {at + 1}: the header {name} appears twice")
        headers[name] = value
        at += 1
    log: list[LogLine] = []
    for number, line in enumerate(lines[at + 1:], start=at + 2):
        if line == "" or line.startswith("#"):  # a comment: an analysis's eval, a reader's note
            continue
        log.append(_log_line(number, line))
    return GameRecord(headers, log)


def _log_line(number: int, line: str) -> LogLine:
    parts = line.split(" ", 3)
    if len(parts) != 4 or not (parts[0].isascii() and parts[0].isdigit()) or parts[1] not in _PLAYERS or parts[2] not in _KINDS:
        raise BadRecord(f"line {number}: an entry is `version player play|auto action`, not {line[:60]!r}")
    try:
        action = json.loads(parts[3])
    except ValueError:
        raise BadRecord(f"line {number}: the action is not JSON") from None
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise BadRecord(f"line {number}: the action is a JSON object with a type")
    player = None if parts[1] == "-" else parts[1]
    return LogLine(int(parts[0]), player, action, parts[2] == "auto")
