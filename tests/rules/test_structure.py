"""How app/rules is built: a mage is one record, colours are defined once, and
the modules import each other without a cycle."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import app.rules
from app.rules import (
    BLACK,
    COLOURS,
    WHITE,
    IllegalAction,
    apply,
    describe,
    legal_actions,
    other,
)
from app.rules import powers as powers_module
from app.rules.fixed_mages import FIXED_POWERS
from app.rules.mages import CHAOS_MAGES, FIXED_MAGES, MAGE_INDEX, MAGES
from app.rules.minions import TYPES
from app.rules.power_base import SHAPES, MagePower
from app.rules.powers import CHAOS_POWERS, FORMS, POWERS, TYPE_OF_MAGE
from tests.rules.helpers import position, powers, remove

RULES_DIR = Path(app.rules.__file__).parent

# The mages named by the public contract, in its order (floors 1-12, then the deck).
CONTRACT_MAGES = (
    "necromancer", "sorcerer", "wizard", "warlock", "druid", "artificer", "elemental_master",
    "dragon_lord", "animist", "mystic", "oracle", "magician", "seer", "magus", "alchemist",
    "mentalist", "enchanter", "dream_lord", "force_mage", "illusionist", "shadow_mage",
    "rune_master", "conjurer",
)


# ---- a mage is one record ---------------------------------------------------------

def test_every_mage_of_the_contract_has_exactly_one_record():
    assert MAGES == CONTRACT_MAGES
    records = [r.name for r in FIXED_POWERS + CHAOS_POWERS]
    assert sorted(records) == sorted(CONTRACT_MAGES)  # each once, none extra
    assert [r.mage for r in FIXED_POWERS] == list(FIXED_MAGES)
    assert [r.mage for r in CHAOS_POWERS] == list(CHAOS_MAGES)


def test_the_engine_tables_are_derived_from_the_records():
    assert [r.mage for r in POWERS] == list(range(len(MAGES)))
    for record in POWERS:
        assert isinstance(record, MagePower)
        assert FORMS[record.mage] is record.forms
        assert set(record.forms) <= set(SHAPES)
        assert record.rule == ("R12" if record.mage in FIXED_MAGES else "R14")
    assert {MAGES[m]: TYPES[k] for m, k in TYPE_OF_MAGE.items()} == {
        "necromancer": "undead", "sorcerer": "beast", "wizard": "myrmidon", "warlock": "spirit",
        "druid": "fey", "artificer": "construct", "elemental_master": "elemental",
        "dragon_lord": "dragon",
    }


def test_a_mage_with_two_records_or_none_is_refused_at_import():
    oracle = POWERS[MAGE_INDEX["oracle"]]
    with pytest.raises(RuntimeError, match="oracle has two"):
        powers_module._by_mage(FIXED_POWERS + CHAOS_POWERS + (oracle,))
    without = tuple(r for r in FIXED_POWERS + CHAOS_POWERS if r is not oracle)
    with pytest.raises(RuntimeError, match="no power record for oracle"):
        powers_module._by_mage(without)


def _swap_record(monkeypatch: pytest.MonkeyPatch, mage: str, **changes: object) -> None:
    index = MAGE_INDEX[mage]
    changed = dataclasses.replace(POWERS[index], **changes)
    monkeypatch.setattr(powers_module, "POWERS", POWERS[:index] + (changed,) + POWERS[index + 1:])


def test_changing_a_mage_is_an_edit_of_its_record_alone(monkeypatch):
    """Listing, checking, applying and telling all read the record: change it, and
    the engine follows with no other edit."""
    s = position({"a1": "C", "h8": "c"}, orb="b", tower={"oracle": "U", "animist": "b"})
    assert powers(s, "oracle") == [None, {}]

    def nothing(*_: object) -> list:
        return []

    def refuse(*_: object) -> None:
        raise IllegalAction("R12", "refused by the changed record")

    def tell(*_: object) -> str:
        return "does the new thing"

    _swap_record(monkeypatch, "oracle", tell=tell)
    assert describe(s, remove("oracle", {})) == (
        "White removes an undead from the Oracle and does the new thing.")
    _swap_record(monkeypatch, "oracle", options=nothing)
    assert powers(s, "oracle") == [None]
    _swap_record(monkeypatch, "oracle", check=refuse)
    with pytest.raises(IllegalAction, match="refused by the changed record"):
        apply(s, remove("oracle", {}))
    _swap_record(monkeypatch, "oracle", forms=("square",))
    with pytest.raises(IllegalAction, match="takes"):
        apply(s, remove("oracle", {}))
    monkeypatch.undo()
    assert apply(s, remove("oracle", {}))[0].orb == WHITE
    assert legal_actions(s) == [("remove", MAGE_INDEX["oracle"], p) for p in (None, ("use",))]


# ---- one colour module ----------------------------------------------------------------

def _definitions(name: str) -> list[str]:
    """Files of app/rules that bind `name` at module level (assign or def; a
    function's typing overloads count as one)."""
    found = []
    for path in sorted(RULES_DIR.glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                found.append(path.name)
            elif isinstance(node, ast.Assign):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
                names += [e.id for t in node.targets if isinstance(t, ast.Tuple)
                          for e in t.elts if isinstance(e, ast.Name)]
                if name in names:
                    found.append(path.name)
            elif (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                  and node.target.id == name):  # WHITE: Final = 0
                found.append(path.name)
    return sorted(set(found))


@pytest.mark.parametrize("name", ["COLOURS", "WHITE", "BLACK", "COLOUR_LETTERS", "other"])
def test_colours_are_defined_once_in_colours_py(name):
    assert _definitions(name) == ["colours.py"]


def test_other_answers_in_the_form_it_is_given():
    assert COLOURS == ("white", "black") and (WHITE, BLACK) == (0, 1)
    assert other(WHITE) == BLACK and other(BLACK) == WHITE
    assert other("white") == "black" and other("black") == "white"
    for bad in ("red", 2, -1, None):
        with pytest.raises(ValueError):
            other(bad)


# ---- no import cycle ---------------------------------------------------------------

def _rules_imports(path: Path) -> set[str]:
    """Modules of app.rules that a file imports, anywhere in it (functions too)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                out.add(node.module.split(".")[0])
            elif node.level == 1:
                out.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith("app.rules."):
                out.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[2] for a in node.names if a.name.startswith("app.rules."))
    return out


def test_the_rules_modules_import_each_other_without_a_cycle():
    graph = {p.stem: _rules_imports(p) - {p.stem} for p in RULES_DIR.glob("*.py")
             if p.stem != "__init__"}
    assert graph["notation"] and "state" in graph["notation"]  # the reader sees real edges
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, "import cycle: " + " -> ".join(path + (module,))
        if module in done:
            return
        for imported in sorted(graph.get(module, ())):
            visit(imported, path + (module,))
        done.add(module)

    for module in sorted(graph):
        visit(module, ())
    assert "notation" not in graph["state"]
