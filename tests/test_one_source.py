"""Issue 16, defect 11: the page says nothing about the game that the engine
does not. The words are the engine's (app/rules/vocabulary.py, sent to every
page and by GET /api/v1/vocabulary); this fails when a copy of them, or of the
rule data they come from, appears in the page's scripts or templates again.
(tests/browser/test_learn.py checks the words the page shows are the engine's.)
"""

from __future__ import annotations

import re
from pathlib import Path

from app.rules.mages import MAGES
from app.rules.minions import TYPES
from app.rules.vocabulary import vocabulary

ROOT = Path(__file__).resolve().parents[1]
PAGE_FILES = sorted([*ROOT.glob("static/**/*.js"), *ROOT.glob("templates/**/*.html")])


def _sentences() -> list[str]:
    v = vocabulary()
    out = [m["power"] for m in v["mages"].values()]
    out += [t["moves"] for t in v["minions"].values()] + [t["summoned"] for t in v["minions"].values()]
    out += list(v["rulings"].values()) + list(v["endings"].values())
    out += [variant["rules"] for variant in v["variants"].values()]
    return out


def test_no_script_or_template_holds_a_copy_of_the_engines_words() -> None:
    assert len(PAGE_FILES) > 10
    for path in PAGE_FILES:
        text = path.read_text()
        for sentence in _sentences():
            # Any eight words in a row of an engine sentence are a copy.
            words = sentence.split()
            if len(words) < 5:
                continue  # "time", "resignation": words, not a copy
            for i in range(max(1, len(words) - 7)):
                piece = " ".join(words[i:i + 8])
                assert piece not in text, f"{path.relative_to(ROOT)} copies the engine's words: {piece!r}"


def test_no_script_holds_a_table_of_the_mages_or_the_types() -> None:
    """A table of mages (their powers, their types, the chaos deck) or of the
    minion types would be rule data copied; a script names at most a few."""
    mage = re.compile(r"[\"'](" + "|".join(MAGES) + r")[\"']")
    # A table keyed by type ("dragon: [...]"); a list of them (a default backrow) is a choice, not data.
    kind = re.compile(r"\b(" + "|".join(TYPES) + r")[\"']?\s*:")
    for path in sorted(ROOT.glob("static/**/*.js")):
        text = path.read_text()
        mages = set(mage.findall(text))
        # pieces.js draws one picture per type: the page's own drawings, not the rules' data.
        kinds = set(kind.findall(text)) if path.name != "pieces.js" else set()
        assert len(mages) <= 3, f"{path.relative_to(ROOT)} names the mages {sorted(mages)}: take them from mages.js"
        assert len(kinds) <= 3, f"{path.relative_to(ROOT)} names the types {sorted(kinds)}: take them from mages.js"


def test_the_use_buttons_words_are_the_engines() -> None:
    """A power taking no choice is used by a button whose words the engine
    gives (the vocabulary's `use`), not a copy in the page's scripts."""
    v = vocabulary()["mages"]
    assert v["oracle"]["use"] == "Take the Orb" and v["rune_master"]["use"] == "Gain knight leaps"
    assert v["dragon_lord"]["use"] is None  # its power takes a choice: no such button
    for path in sorted(ROOT.glob("static/**/*.js")):
        text = path.read_text()
        for words in {m["use"] for m in v.values() if m["use"]}:
            assert words not in text, f"{path.relative_to(ROOT)} copies the engine's button words {words!r}"
