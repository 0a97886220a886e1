"""What a puzzle's solution does, named in the game's own words.

Each theme is read off the line played out on the engine, never guessed
from the search: the mage whose power the solver fires (its name, as the
action JSON spells it), what leaves the arena and how, and how the line ends.

- the mage's name (`dragon_lord`, `seer`, `mystic`…): its power was used;
- `capture`: an enemy minion went to the dead pile; `greater_minion`: a
  dragon, elemental or construct among them (R3);
- `sent_to_reserve`: an enemy minion left the arena alive (the Enchanter, the
  Shadow Mage, the Alchemist's exchange does not count: it is the solver's own);
- `orb`: the solver took the Orb (R13);
- `summon`: a minion came from the reserve onto the arena (R5);
- `two_turns`: the solver plays twice in a row (the Seer, a skipped turn);
- `quiet`: the first action captures nothing, yet it is the only win;
- how the match ends, by its reason (R15): `eliminated` (the arena cleared
  of the opponent's minions), `five_greater`, `three_of_a_kind`;
- the length: `one_action`, `two_actions`, `three_actions`.
"""

from __future__ import annotations

from typing import Any

from app.rules import OVER, State, apply

GREATER_TYPES = (0, 1, 2)  # dragon, elemental, construct: the dead pile's first three counts
LENGTHS = ("one_action", "two_actions", "three_actions")
COLOURS = ("white", "black")


def themes_of(start: State, line: list[dict[str, Any]]) -> list[str]:
    solver = start.to_move
    enemy = 1 - solver
    found: list[str] = []

    def note(theme: str) -> None:
        if theme not in found:
            found.append(theme)

    state = start
    previous_player = None
    solver_moves = 0
    for ply in line:
        action = ply["action"]
        mine = ply["player"] == COLOURS[solver]
        after = apply(state, action)[0]
        if mine:
            solver_moves += 1
            if previous_player == COLOURS[solver]:
                note("two_turns")
            power = action.get("power")
            if action.get("type") == "remove" and power is not None:
                mage = action["mage"]
                note(mage)
                inner = power.get("power") if mage == "dream_lord" else power
                if mage == "oracle":
                    note("orb")
                if isinstance(inner, dict) and "summon" in inner:
                    note("summon")
            killed = [after.dead[8 * enemy + k] - state.dead[8 * enemy + k] for k in range(8)]
            if any(killed):
                note("capture")
                if any(killed[k] for k in GREATER_TYPES):
                    note("greater_minion")
            elif solver_moves == 1:
                note("quiet")
            on_arena_before = sum(1 for p in state.arena if p and (p - 1) >> 3 == enemy)
            on_arena_after = sum(1 for p in after.arena if p and (p - 1) >> 3 == enemy)
            if on_arena_before - on_arena_after > sum(killed):
                note("sent_to_reserve")
        previous_player = ply["player"]
        state = after
    if state.phase == OVER and state.result and state.result["winner"] == COLOURS[solver]:
        note(state.result["reason"])
    note(LENGTHS[min(solver_moves, len(LENGTHS)) - 1])
    return found
