"""static/js/chooser.js and results.js, run in Chromium: the pure modules of the page.

The legal action lists are the engine's own (app.rules.legal_actions), taken
from random matches that deal every chaos mage: for each list, every action
must be reachable by clicking its path, each click must be on offer, and the
chooser must never offer a click that leads to no listed action.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.rules import action_json, apply, legal_actions, new_match, setup_choices

from .conftest import Contexts

DEALS = [
    ("standard", ["seer", "magus", "alchemist", "mentalist"]),
    ("standard", ["enchanter", "dream_lord", "force_mage", "illusionist"]),
    ("standard", ["shadow_mage", "rune_master", "conjurer", "dream_lord"]),
    ("ultimate_archmage", ["seer", "dream_lord", "magus", "alchemist", "mentalist", "enchanter",
                           "force_mage", "illusionist", "shadow_mage", "rune_master", "conjurer"]),
]


def legal_lists(per_deal: int = 40) -> list[list[dict[str, Any]]]:
    """Legal action lists of the action phase (and some of the decision phase)."""
    rng = random.Random(9)
    found: list[list[dict[str, Any]]] = []
    for n, (variant, chaos) in enumerate(DEALS):
        taken = 0
        for game in range(30):
            state = new_match(f"{n}-{game}-seed", variant, 10, chaos, True)
            for _ in range(2):
                row = setup_choices(state)
                rng.shuffle(row)
                state, _ = apply(state, {"type": "setup", "backrow": row})
            for _ in range(400):
                if state.over or taken >= per_deal:
                    break
                actions = [action_json(a) for a in legal_actions(state)]
                if actions[0]["type"] == "remove" or rng.random() < 0.05:
                    found.append(actions)
                    taken += 1
                # Place greedily on chaos chambers so their powers come up.
                places = [a for a in actions if a["type"] == "place" and a["mage"] in chaos]
                state, _ = apply(state, rng.choice(places or actions))
    return found


CHECK = """async (lists) => {
  const { choose, actionPaths } = await import('/static/js/chooser.js');
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const problems = [];
  let walked = 0;
  for (const legal of lists) {
    for (const action of legal) {
      for (const path of actionPaths(action)) {
        const picks = [];
        for (const t of path) {
          const r = choose(legal, picks);
          if (!r.options || !r.options.some(o => o.kind === t.kind && o.value === t.value)) {
            problems.push({action, picks, want: t});
            break;
          }
          picks.push({kind: t.kind, value: t.value});
        }
        const end = choose(legal, picks);
        if (picks.length === path.length && !(end.action && same(end.action, action))) {
          // Two listed actions may share a path only if they are the same action.
          problems.push({action, got: end.action || null});
        }
        walked++;
      }
    }
    // Nothing offered at the start leads nowhere.
    for (const o of choose(legal, []).options) {
      const next = choose(legal, [{kind: o.kind, value: o.value}]);
      if (!next.action && !next.options.length) problems.push({deadEnd: o});
    }
    if (choose(legal, [{kind: 'square', value: 'z9'}]).options.length) problems.push({bogus: true});
  }
  return {problems: problems.slice(0, 5), walked};
}"""


@pytest.fixture
def page(contexts: Contexts) -> Any:
    page = contexts.page()
    page.goto("/")
    wait_ready_home(page)
    return page


def wait_ready_home(page: Any) -> None:
    page.wait_for_function("() => document.querySelector('#create') !== null")


def test_every_legal_action_is_reachable_and_nothing_else_is_offered(page: Any) -> None:
    lists = legal_lists()
    kinds = {(a.get("mage"), tuple(sorted(a["power"])) if isinstance(a.get("power"), dict) else None)
             for legal in lists for a in legal if a["type"] == "remove"}
    powered = {mage for mage, keys in kinds if keys is not None}
    # Every mage's power was among the lists (so every kind of path was walked).
    assert len(powered) == 23, sorted(powered)
    assert any(a.get("power", {}) and "mage" in (a.get("power") or {}) for legal in lists for a in legal)
    result = page.evaluate(CHECK, lists)
    assert result["problems"] == [], json.dumps(result["problems"], indent=1)
    assert result["walked"] > 5000


def test_a_place_may_start_with_the_chamber_or_the_type(page: Any) -> None:
    legal = [{"type": "place", "mage": "druid", "minion": "fey"}, {"type": "place", "mage": "oracle", "minion": "fey"},
             {"type": "place", "mage": "druid", "minion": "beast"}, {"type": "pass"}]
    result = page.evaluate("""async (legal) => {
      const { choose, prompt } = await import('/static/js/chooser.js');
      const start = choose(legal, []);
      const chamberFirst = choose(legal, [{kind: 'chamber', value: 'druid'}]);
      return {
        start: start.options.map(o => o.kind + ':' + o.value).sort(),
        prompt: prompt(start.options, []),
        chamberFirst: chamberFirst.options.map(o => o.kind + ':' + o.value).sort(),
        done: choose(legal, [{kind: 'chamber', value: 'druid'}, {kind: 'reserve', value: 'beast'}]).action,
        typeFirst: choose(legal, [{kind: 'reserve', value: 'beast'}]).options.map(o => o.value),
        pass: choose(legal, [{kind: 'pass', value: 'pass'}]).action,
        refused: choose(legal, [{kind: 'chamber', value: 'seer'}]).options.length,
      };
    }""", legal)
    assert result["start"] == ["chamber:druid", "chamber:oracle", "pass:pass", "reserve:beast", "reserve:fey"]
    assert result["prompt"] == "Choose a type from your reserve and an empty chamber, or pass."
    assert result["chamberFirst"] == ["reserve:beast", "reserve:fey"]
    assert result["done"] == {"type": "place", "mage": "druid", "minion": "beast"}
    assert result["typeFirst"] == ["druid"]
    assert result["pass"] == {"type": "pass"}
    assert result["refused"] == 0


def test_the_result_in_plain_words(page: Any) -> None:
    """A won match's reasons are the engine's vocabulary's, with the loser named (the
    log's words come from the server with each entry: tests/realtime/test_words.py)."""
    words = page.evaluate("""async () => {
      const { resultWords } = await import('/static/js/results.js');
      return [resultWords({winner: 'white', reason: 'three_of_a_kind'}), resultWords({winner: null, reason: 'no_progress'}),
              resultWords({winner: 'black', reason: 'resigned'})];
    }""")
    assert words == [
        "White wins: three of Black's greater minions of one type are dead.",
        "A draw: rounds without a capture (the no-progress rule).",
        "Black wins: White resigned.",
    ]
