"""Property tests: random legal games in every variant, checked at every step.

Each game is driven by a `random.Random` seeded from hypothesis, so a failing
example names the seed that reproduces it. At every position of the game:

- R2: 24 minions per player, 3 of each type, each in one place; one minion
  per square and per chamber; exactly one player to move while running, and
  that player has something to do (R10, R11);
- legal_actions lists no action twice, and several sampled listed actions apply;
- random candidates, well-formed (built from random squares, types, mages and
  mutations of listed actions) or junk JSON, are accepted by `apply` exactly
  when they are listed; a refusal is a MageryError, an IllegalAction names
  its rule first ("R4: ..."), and nothing changes;
- the state survives JSON and the position text form, and the public view
  never shows the seed while the match runs (R20).

MAGERY_RULES_GAMES (default 5) sets how many games per variant are played.
At the end the action log replays, from `new_match` with the same seed, to
the very same state with the same automatic actions.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules import (
    ACTION,
    DECISION,
    OVER,
    SETUP,
    VARIANTS,
    IllegalAction,
    MageryError,
    MalformedAction,
    MatchOver,
    State,
    action_json,
    apply,
    from_text,
    in_tower,
    legal_actions,
    new_match,
    parse_action,
    public_view,
    to_text,
)
from app.rules.mages import CHAOS_MAGES, MAGES
from app.rules.minions import COLOURS, SQUARE_NAMES, TYPES
from app.rules.powers import FORMS
from tests.rules.helpers import RULE_PREFIX, check_conservation

MAX_STEPS = 4000  # random games observed end within ~900 steps
# Games per variant; raise it for a deeper hunt: MAGERY_RULES_GAMES=200 pytest tests/rules
GAMES = int(os.environ.get("MAGERY_RULES_GAMES", "5"))
SAMPLED_LEGAL = 3
CANDIDATES = 16
JUNK = 3

PROPERTY_SETTINGS = settings(
    max_examples=GAMES, deadline=None, derandomize=False, database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


# ---- random actions --------------------------------------------------------

def _square(rng: random.Random, s: State) -> str:
    occupied = [q for q in range(64) if s.arena[q]]
    if occupied and rng.random() < 0.6:
        return SQUARE_NAMES[rng.choice(occupied)]
    return SQUARE_NAMES[rng.randrange(64)]


def _in_play(s: State) -> list[int]:
    return [m for m in range(len(MAGES)) if s.seat[m]]


def _payload(rng: random.Random, s: State, form: str, depth: int = 0) -> dict[str, Any]:
    if form == "move":
        return {"move": [_square(rng, s), _square(rng, s)]}
    if form == "summon":
        return {"summon": _square(rng, s)}
    if form == "use":
        return {}
    if form == "target":
        pool = _in_play(s) if rng.random() < 0.8 else range(len(MAGES))
        return {"target": MAGES[rng.choice(list(pool))]}
    if form == "player":
        return {"player": rng.choice(COLOURS)}
    if form == "alchemy":
        return {"square": _square(rng, s), "minion": rng.choice(TYPES)}
    if form == "square":
        return {"square": _square(rng, s)}
    if form == "swap":
        return {"swap": [_square(rng, s), _square(rng, s)]}
    if form == "dream":
        off = [m for m in CHAOS_MAGES if not s.seat[m]]
        pool = off if off and rng.random() < 0.7 else list(CHAOS_MAGES) + [rng.randrange(12)]
        borrowed = rng.choice(pool)
        inner_forms = list(FORMS[borrowed])
        if depth == 0 and rng.random() < 0.1:
            inner_forms.append("dream")
        inner_form = rng.choice(inner_forms) if rng.random() < 0.85 else rng.choice(list(_FORM_NAMES))
        return {"mage": MAGES[borrowed], "power": _payload(rng, s, inner_form, depth + 1)}
    raise AssertionError(form)


_FORM_NAMES = ("move", "summon", "use", "target", "player", "alchemy", "square", "swap", "dream")


def _power(rng: random.Random, s: State, mage: int) -> dict[str, Any] | None:
    roll = rng.random()
    if roll < 0.12:
        return None
    if roll < 0.8:
        return _payload(rng, s, rng.choice(FORMS[mage]))
    return _payload(rng, s, rng.choice(_FORM_NAMES))


def _mutate(rng: random.Random, s: State, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A listed action with one thing changed: a near miss, often illegal."""
    action = json.loads(json.dumps(rng.choice(legal)))
    if action["type"] == "place":
        if rng.random() < 0.5:
            action["mage"] = rng.choice(MAGES)
        else:
            action["minion"] = rng.choice(TYPES)
        return action
    if action["type"] != "remove":
        return action
    roll = rng.random()
    if roll < 0.2:
        action["mage"] = rng.choice(MAGES)
    elif roll < 0.4:
        other = rng.choice(legal)
        if other["type"] == "remove":
            action["power"] = other["power"]
    elif roll < 0.5:
        action["power"] = None
    elif action["power"]:
        power = action["power"]
        if "mage" in power and "power" in power:
            if rng.random() < 0.5:
                power["mage"] = MAGES[rng.choice(CHAOS_MAGES)]
            else:
                power = power["power"] or {}
        for key, value in power.items():
            if isinstance(value, list):
                value[rng.randrange(len(value))] = SQUARE_NAMES[rng.randrange(64)]
            elif key in ("square", "summon"):
                power[key] = SQUARE_NAMES[rng.randrange(64)]
            elif key == "minion":
                power[key] = rng.choice(TYPES)
            elif key == "target":
                power[key] = rng.choice(MAGES)
            elif key == "player":
                power[key] = rng.choice(COLOURS)
            break
    return action


def candidate(rng: random.Random, s: State, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A well-formed action (contract JSON), legal or not."""
    if legal and rng.random() < 0.35:
        return _mutate(rng, s, legal)
    roll = rng.random()
    if roll < 0.04:
        row = list(TYPES)
        rng.shuffle(row)
        if rng.random() < 0.3:
            row[rng.randrange(8)] = rng.choice(TYPES)
        return {"type": "setup", "backrow": row}
    if roll < 0.1:
        return {"type": "pass"}
    place_first = s.phase == DECISION
    if (roll < 0.55) == place_first:
        pool = _in_play(s) if rng.random() < 0.85 else range(len(MAGES))
        return {"type": "place", "mage": MAGES[rng.choice(list(pool))], "minion": rng.choice(TYPES)}
    occupied = [m for m in range(len(MAGES)) if s.occupant[m]]
    mage = rng.choice(occupied) if occupied and rng.random() < 0.85 else rng.randrange(len(MAGES))
    return {"type": "remove", "mage": MAGES[mage], "power": _power(rng, s, mage)}


_JUNK_ATOMS: list[Any] = [
    None, True, 0, 7, -1, 2.5, "", "pass", "place", "remove", "setup", "a1", "h8", "i9", "white",
    "dragon", "animist", "dream_lord", "seer", [], {}, ["a1", "a2"], ["a1"], [None, None],
]
_JUNK_KEYS = ["type", "mage", "minion", "power", "backrow", "move", "summon", "target", "player",
              "square", "swap", "x"]


def junk(rng: random.Random, depth: int = 0) -> Any:
    """Random JSON, mostly objects with the contract's keys."""
    roll = rng.random()
    if depth > 2 or roll < 0.3:
        return rng.choice(_JUNK_ATOMS)
    if roll < 0.4:
        return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    obj = {rng.choice(_JUNK_KEYS): junk(rng, depth + 1) for _ in range(rng.randrange(4))}
    if rng.random() < 0.7:
        obj["type"] = rng.choice(["pass", "place", "remove", "setup", "resign", 3])
    return obj


# ---- the checks ------------------------------------------------------------

def check_turn(s: State, legal: list[tuple[Any, ...]]) -> None:
    assert s.to_move in (0, 1)
    assert len(legal) == len(set(legal)), "an action is listed twice"
    if s.phase == OVER:
        assert legal == [] and s.result is not None and s.owed == ()
        return
    assert s.result is None
    if s.phase == SETUP:
        assert legal == []
        return
    assert legal, "the player to move has nothing to do"
    if s.phase == DECISION:
        assert not (s.passed >> s.to_move) & 1, "a player who passed is to move (R9)"
        assert any(a[0] == "place" for a in legal), "a forced pass was left to the player (R11)"
        assert legal.count(("pass",)) == 1
        assert s.owed == ()
    else:
        assert s.phase == ACTION
        assert in_tower(s, s.to_move), "the player to move has no minion in the tower (R10)"
        colour_lo, colour_hi = 1 + 8 * s.to_move, 8 + 8 * s.to_move
        for action in legal:
            assert action[0] == "remove"
            assert colour_lo <= s.occupant[action[1]] <= colour_hi
        for mage, piece in enumerate(s.occupant):  # declining is always possible (R10)
            if colour_lo <= piece <= colour_hi:
                assert ("remove", mage, None) in legal


def check_forms(s: State) -> None:
    assert State.from_json(json.loads(json.dumps(s.to_json()))) == s
    assert from_text(to_text(s)) == s
    view = public_view(s)
    text = json.dumps(view)
    if s.phase != OVER and not s.custom:
        assert view["seed"] is None and s.seed not in text
        assert s.seed not in to_text(s, hide_secrets=True)
    else:
        assert view["seed"] == s.seed


def check_refusal(s: State, err: MageryError) -> None:
    assert isinstance(err, MageryError)
    if isinstance(err, IllegalAction):
        assert RULE_PREFIX.match(str(err)), str(err)


def check_candidates(rng: random.Random, s: State, legal: list[tuple[Any, ...]]) -> tuple[int, int]:
    """Accepted iff listed, for random candidates. Returns (accepted, refused)."""
    listed = set(legal)
    legal_json = [action_json(a) for a in legal]
    frozen = s.copy()
    accepted = refused = 0
    pool = [candidate(rng, s, legal_json) for _ in range(CANDIDATES)]
    pool += [junk(rng) for _ in range(JUNK)]
    for raw in pool:
        try:
            parsed = parse_action(raw)
        except MalformedAction:
            parsed = None
        try:
            new, _ = apply(s, raw)
        except MageryError as err:
            check_refusal(s, err)
            if s.phase == OVER:
                assert isinstance(err, (MatchOver, MalformedAction)), (raw, err)
            elif parsed is None:
                assert isinstance(err, MalformedAction), (raw, err)
            elif s.phase == SETUP and parsed[0] == "setup":
                assert sorted(parsed[1]) != list(range(8)), (raw, err)
            else:
                assert parsed not in listed, f"listed action refused: {raw}: {err}"
            refused += 1
        else:
            assert parsed is not None, raw
            if s.phase == SETUP:
                assert parsed[0] == "setup" and sorted(parsed[1]) == list(range(8))
            else:
                assert parsed in listed, f"unlisted action accepted: {raw} in {to_text(s)}"
            check_conservation(new)
            accepted += 1
    assert s == frozen, "a refused or applied action changed the state it was given"
    return accepted, refused


def check_listed_apply(rng: random.Random, s: State, legal: list[tuple[Any, ...]]) -> None:
    for action in rng.sample(legal, min(SAMPLED_LEGAL, len(legal))):
        new, autos = apply(s, action)
        check_conservation(new)
        for colour, auto in autos:
            assert auto == ("pass",) and colour in (0, 1)
        assert new.round >= s.round


# ---- the games -------------------------------------------------------------

def random_setup(rng: random.Random) -> dict[str, Any]:
    row = list(TYPES)
    rng.shuffle(row)
    return {"type": "setup", "backrow": row}


def play_game(game_seed: int, variant: str, checks: bool) -> tuple[State, list[Any], list[Any]]:
    """A random legal game. Returns its final state, actions and automatic actions."""
    rng = random.Random(game_seed)
    seed = f"{rng.getrandbits(128):032x}"
    s = new_match(seed=seed, variant=variant)
    log: list[Any] = []
    autos_log: list[Any] = []
    stats = [0, 0]
    for _ in range(MAX_STEPS):
        legal = legal_actions(s)
        check_conservation(s)
        check_turn(s, legal)
        if checks:
            check_forms(s)
            a, r = check_candidates(rng, s, legal)
            stats[0] += a
            stats[1] += r
            if legal:
                check_listed_apply(rng, s, legal)
        if s.phase == OVER:
            break
        action: Any = random_setup(rng) if s.phase == SETUP else rng.choice(legal)
        s, autos = apply(s, action)
        log.append(action)
        autos_log.append(autos)
    else:
        pytest.fail(f"game {game_seed} ({variant}) did not end in {MAX_STEPS} steps")
    assert s.result is not None
    assert s.result["reason"] in ("eliminated", "five_greater", "three_of_a_kind", "no_progress")
    if checks:
        assert stats[0] and stats[1], stats  # both sides of the iff were exercised
    return s, log, autos_log


def replay(seed: str, variant: str, log: list[Any], as_json: bool) -> tuple[State, list[Any]]:
    s = new_match(seed=seed, variant=variant)
    autos_log = []
    for action in log:
        if as_json and isinstance(action, tuple):
            action = json.loads(json.dumps(action_json(action)))
        s, autos = apply(s, action)
        autos_log.append(autos)
    return s, autos_log


@pytest.mark.parametrize("variant", VARIANTS)
@PROPERTY_SETTINGS
@given(game_seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_random_games_keep_every_invariant(variant: str, game_seed: int) -> None:
    final, log, autos_log = play_game(game_seed, variant, checks=True)
    again, again_autos = replay(final.seed, variant, log, as_json=False)
    assert again == final and again_autos == autos_log
    assert again.to_json() == final.to_json()


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=GAMES + 3, deadline=None, database=None)
@given(game_seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_replaying_the_log_reproduces_the_match(variant: str, game_seed: int) -> None:
    final, log, autos_log = play_game(game_seed, variant, checks=False)
    # The same seed and actions give the same match, by engine tuples or by JSON.
    for as_json in (False, True):
        again, again_autos = replay(final.seed, variant, log, as_json)
        assert again == final
        assert to_text(again) == to_text(final)
        assert again_autos == autos_log
    # And the same game seed plays the same game.
    twin, twin_log, _ = play_game(game_seed, variant, checks=False)
    assert twin == final and twin_log == log
