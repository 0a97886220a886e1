"""Building positions from the text form, and small checks shared by the tests.

`position()` writes a position text (see app/rules/notation.py) from a few
keyword arguments and reads it with `from_text`, so every scenario starts from
the text form. Reserves are filled in so each player owns 24 minions (R2)
unless a test gives them explicitly.
"""

from __future__ import annotations

import ast
import doctest
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from app.rules import (
    IllegalAction,
    MageryError,
    State,
    action_json,
    apply,
    from_text,
    legal_actions,
    to_text,
)
from app.rules.mages import CHAOS_MAGES, MAGE_CODES, MAGE_INDEX, MAGES
from app.rules.minions import TYPE_LETTERS, TYPES

SEED = "5eed0000000000000000000000000001"
FIXED = MAGES[:12]
DEFAULT_CHAOS = {
    "standard": ("seer", "magus", "force_mage", "shadow_mage"),
    "rotating": ("seer", "magus", "force_mage", "shadow_mage"),
    "archmage": ("seer", "magus", "force_mage", None),
    "ultimate_archmage": ("seer", None, None, None),
}
BACKROW = ["construct", "fey", "elemental", "dragon", "undead", "beast", "spirit", "myrmidon"]
RULE_PREFIX = re.compile(r"^R([1-9]|1[0-9]|20): ")


def _letter(colour: str, kind: str) -> str:
    letter = TYPE_LETTERS[TYPES.index(kind)]
    return letter if colour == "white" else letter.lower()


def _arena_text(arena: Mapping[str, str]) -> str:
    grid = [["" for _ in range(8)] for _ in range(8)]
    for square, letter in arena.items():
        grid[int(square[1]) - 1]["abcdefgh".index(square[0])] = letter
    ranks = []
    for rank in range(7, -1, -1):
        text, gap = "", 0
        for cell in grid[rank]:
            if cell:
                text += (str(gap) if gap else "") + cell
                gap = 0
            else:
                gap += 1
        ranks.append(text + (str(gap) if gap else ""))
    return "/".join(ranks)


def _counts_text(counts: Mapping[str, Mapping[str, int]]) -> str:
    return "/".join(
        "".join(str(counts.get(colour, {}).get(kind, 0)) for kind in TYPES)
        for colour in ("white", "black")
    )


def position(
    arena: Mapping[str, str] | None = None,
    *,
    turn: str = "aw",
    orb: str = "w",
    round: int = 1,
    tower: Mapping[str, str] | None = None,
    chaos: Sequence[str | None] | None = None,
    private: tuple[Sequence[str], Sequence[str]] = ((), ()),
    reserve: Mapping[str, Mapping[str, int]] | None = None,
    dead: Mapping[str, Mapping[str, int]] | None = None,
    passed: str = "-",
    runes: str = "-",
    wards: Iterable[str] = (),
    owed: str = "-",
    quiet: str = "0",
    deck: Sequence[str] | None = None,
    discard: Sequence[str] = (),
    seed: str = SEED,
    variant: str = "standard",
    no_progress_rounds: int = 10,
    custom: bool = False,
    result: str = "-",
) -> State:
    """A state read from the position text these arguments describe.

    `arena` maps squares to minion letters (DECFSMUB, White upper case);
    `tower` maps mage names (fixed, chaos or private) to occupant letters;
    `chaos` names the cards on floors 13-16 (None: floor not used);
    `private` names White's and Black's private cards. Reserves not given are
    whatever makes 24 minions per player (R2). The deck not given is every
    chaos card not dealt, in the engine's order.
    """
    arena = dict(arena or {})
    tower = dict(tower or {})
    chaos = tuple(DEFAULT_CHAOS[variant] if chaos is None else chaos)
    assert len(chaos) == 4
    dead = {c: dict(dead.get(c, {})) for c in ("white", "black")} if dead else {"white": {}, "black": {}}
    seated = [m for m in chaos if m] + list(private[0]) + list(private[1])
    unknown = set(tower) - set(FIXED) - set(seated)
    assert not unknown, f"occupied mages not in the tower: {unknown}"

    if reserve is None:
        reserve = {}
        for colour in ("white", "black"):
            counts = {}
            for kind in TYPES:
                letter = _letter(colour, kind)
                used = list(arena.values()).count(letter) + list(tower.values()).count(letter)
                left = 3 - used - dead[colour].get(kind, 0)
                assert left >= 0, f"more than 3 {colour} {kind} minions"
                counts[kind] = left
            reserve[colour] = counts

    def chamber(mage: str) -> str:
        return MAGE_CODES[MAGE_INDEX[mage]] + tower.get(mage, ".")

    fixed = "".join(tower.get(m, ".") for m in FIXED)
    floors = ",".join(chamber(m) if m else "-" for m in chaos)
    private_text = "/".join(",".join(chamber(m) for m in side) or "-" for side in private)
    if deck is None:
        deck = [MAGES[m] for m in CHAOS_MAGES if MAGES[m] not in seated and MAGES[m] not in discard]
    deck_text = (",".join(MAGE_CODES[MAGE_INDEX[m]] for m in deck) or "-") + "/" + (
        ",".join(MAGE_CODES[MAGE_INDEX[m]] for m in discard) or "-")
    options = f"{variant}:{no_progress_rounds}" + (":custom" if custom else "")
    fields = [
        _arena_text(arena), turn, orb, str(round), _counts_text(reserve), _counts_text(dead),
        fixed + "|" + floors, private_text, passed, runes, ",".join(wards) or "-", owed, quiet,
        deck_text, seed, options, result,
    ]
    return from_text(" ".join(fields))


def snapshot(s: State) -> str:
    return json.dumps(s.to_json(), sort_keys=True)


def play(s: State, action: dict[str, Any] | tuple[Any, ...]) -> State:
    """Apply an action that must be legal; check it was listed and R2 holds."""
    before = snapshot(s)
    new, _ = apply(s, action)
    assert snapshot(s) == before, "apply changed the state it was given"
    check_conservation(new)
    return new


def refused(s: State, action: dict[str, Any], rule: str, contains: str = "") -> IllegalAction:
    """The action is refused for `rule` ("R4"), naming it first, and nothing changes."""
    before = snapshot(s)
    with pytest.raises(IllegalAction) as caught:
        apply(s, action)
    message = str(caught.value)
    assert message.startswith(f"{rule}: "), message
    assert caught.value.rule == rule
    assert contains in message, message
    assert snapshot(s) == before
    assert action not in legal_json(s)
    return caught.value


def refused_any(s: State, action: Any) -> MageryError:
    before = snapshot(s)
    with pytest.raises(MageryError) as caught:
        apply(s, action)
    assert snapshot(s) == before
    if isinstance(caught.value, IllegalAction):
        assert RULE_PREFIX.match(str(caught.value)), str(caught.value)
    return caught.value


def legal_json(s: State) -> list[dict[str, Any]]:
    return [action_json(a) for a in legal_actions(s)]


def powers(s: State, mage: str) -> list[Any]:
    """The power payloads listed for removing from `mage` (None is declining)."""
    return [a["power"] for a in legal_json(s) if a["type"] == "remove" and a["mage"] == mage]


def remove(mage: str, power: Any = None) -> dict[str, Any]:
    return {"type": "remove", "mage": mage, "power": power}


def place(mage: str, minion: str) -> dict[str, Any]:
    return {"type": "place", "mage": mage, "minion": minion}


PASS = {"type": "pass"}


def totals(s: State) -> list[int]:
    """Minions per player over arena, reserve, tower and dead pile (R2)."""
    out = []
    for colour in (0, 1):
        lo, hi = 1 + 8 * colour, 8 + 8 * colour
        arena = sum(1 for p in s.arena if lo <= p <= hi)
        tower = sum(1 for p in s.occupant if lo <= p <= hi)
        out.append(arena + tower + sum(s.reserve[8 * colour:8 * colour + 8])
                   + sum(s.dead[8 * colour:8 * colour + 8]))
    return out


def per_type(s: State) -> list[list[int]]:
    out = []
    for colour in (0, 1):
        row = []
        for kind in range(8):
            piece = 1 + 8 * colour + kind
            row.append(s.arena.count(piece) + s.occupant.count(piece)
                       + s.reserve[8 * colour + kind] + s.dead[8 * colour + kind])
        out.append(row)
    return out


def check_conservation(s: State) -> None:
    """R2: 3 of each type per player, 24 in all, each in exactly one place."""
    assert per_type(s) == [[3] * 8, [3] * 8], to_text(s)
    assert totals(s) == [24, 24]
    assert all(0 <= p <= 16 for p in s.arena)
    assert all(0 <= p <= 16 for p in s.occupant)
    assert all(c >= 0 for c in s.reserve + s.dead)


def arena_of(s: State) -> dict[str, str]:
    from app.rules.minions import SQUARE_NAMES, piece_letter

    return {SQUARE_NAMES[q]: piece_letter(p) for q, p in enumerate(s.arena) if p}


def occupant(s: State, mage: str) -> str:
    from app.rules.minions import piece_letter

    piece = s.occupant[MAGE_INDEX[mage]]
    return piece_letter(piece) if piece else "."


def reserve_of(s: State, colour: str, kind: str) -> int:
    return s.reserve[8 * ("white", "black").index(colour) + TYPES.index(kind)]


def dead_of(s: State, colour: str, kind: str) -> int:
    return s.dead[8 * ("white", "black").index(colour) + TYPES.index(kind)]


def to_move(s: State) -> str:
    return ("white", "black")[s.to_move]


def seat_of(s: State, mage: str) -> int:
    return s.seat[MAGE_INDEX[mage]]


def round_trip_text(s: State) -> None:
    assert from_text(to_text(s)) == s


def run_source_examples(module: Any) -> doctest.TestResults:
    """Run the `>>>` examples of every docstring in `module`'s source file.

    Read from the .py file rather than through `doctest.testmod`: the compiled
    engine (mypyc, scripts/install) keeps no docstrings, and the examples
    must run on whichever engine is loaded.
    """
    import app.rules  # its __init__ is never compiled: it stands among the sources

    sources = Path(app.rules.__file__).parent
    name = module.__name__
    path = sources / ("__init__.py" if name == "app.rules" else name.rsplit(".", 1)[1] + ".py")
    source = path.read_text()
    tree = ast.parse(source)
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(verbose=False)
    nodes = [tree] + [n for n in ast.walk(tree)
                      if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    for node in nodes:
        text = ast.get_docstring(node, clean=False)
        if text and ">>>" in text:
            label = f"{name}.{getattr(node, 'name', '')}".rstrip(".")
            test = parser.get_doctest(text, dict(vars(module)), label, str(path), 0)
            runner.run(test)
    return runner.summarize(verbose=False)
