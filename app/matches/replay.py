"""The log is the truth: a match's state is its log replayed through the engine.

Engine actions made by a player are applied (the engine plays the automatic
passes after them itself, R11); service events that end a match are applied
with `conclude` (an admin's abort or adjudication among them); the others
(join, draw offers and answers) do not touch the engine state. An accepted
takeback brings back the state after the version it names (app/matches/takeback.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from app.rules import State, apply_steps, conclude, from_text, new_match
from app.rules.game_record import ENGINE_ACTIONS, TAKEBACK, back_to, ending, replay_log

__all__ = ["ENGINE_ACTIONS", "ending", "initial_state", "replay", "steps"]


def initial_state(seed: str, options: dict[str, Any], chaos: list[str] | None, custom: bool) -> State:
    """The state at version 0: the standard start dealt from the seed, or the
    position a match was created from, which its options keep whole
    (a match from a position is custom: its seed and deck are public)."""
    start = options.get("position")
    if start is not None:
        return from_text(start)  # checked by `playable` when the match was made
    return new_match(seed, options["variant"], options["no_progress_rounds"], chaos, custom)


def replay(
    seed: str, options: dict[str, Any], chaos: list[str] | None, custom: bool,
    entries: Iterable[tuple[str | None, dict[str, Any], bool]],
) -> State:
    """The state after `entries`, each (player, action JSON, automatic), in version order."""
    return replay_log(initial_state(seed, options, chaos, custom), entries)


def steps(state: State, entries: Iterable[tuple[str | None, dict[str, Any], bool]]) -> Iterator[State]:
    """The state after each of `entries` in turn, from `state` (one per entry:
    an entry that does not touch the engine state gives the same state again).
    A player's action is applied with the automatic passes after it (R11); their
    own entries, which follow it in the log, then give the state after each."""
    pending: list[State] = []
    history = [state]  # history[v]: the state after version v (the entries are the log from version 1)
    for player, action, automatic in entries:
        kind = action["type"]
        if kind in ENGINE_ACTIONS and automatic:
            state = pending.pop(0) if pending else state
            history.append(state)
            yield state
            continue
        if pending:  # automatic passes the log did not list: never skip them
            state, pending = pending[-1], []
        if kind in ENGINE_ACTIONS:
            after = apply_steps(state, action)
            state, pending = after[0][2], [step[2] for step in after[1:]]
        elif kind == TAKEBACK:
            state = history[back_to(action, len(history) - 1)]
        else:
            end = ending(kind, player, action)
            if end is not None:
                state = conclude(state, *end)
        history.append(state)
        yield state
