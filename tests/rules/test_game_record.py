"""Issue 21: the game record reads back and replays to the same final state."""

from __future__ import annotations

import random

import pytest

from app.rules import COLOURS, action_json, apply_steps, conclude, legal_actions, new_match, to_text
from app.rules.game_record import BadRecord, LogLine, read_record, write_record
from app.rules.mages import CHAOS_MAGES, MAGES
from app.rules.minions import TYPES


def random_match(rng: random.Random, variant: str, start=None):
    """(start state, log lines, final state) of a random match through the
    engine, logged as the server logs it: the player's action, then the
    automatic passes, then maybe a resignation or an agreed draw."""
    chaos = rng.sample([MAGES[m] for m in CHAOS_MAGES], rng.choice([0, 0, 2])) or None
    first = start or new_match(f"seed {rng.random()}", variant, rng.choice([0, 3, 10]), chaos, chaos is not None)
    state, log = first, [LogLine(1, "black", {"type": "join"}, False)]
    stop = rng.choice([40, 120, 10_000])
    while not state.over and len(log) < stop:
        if state.phase == 0:  # setup
            row = list(TYPES)
            rng.shuffle(row)
            action = {"type": "setup", "backrow": row}
        else:
            action = action_json(rng.choice(legal_actions(state)))
        steps = apply_steps(state, action)
        for i, (colour, done, after) in enumerate(steps):
            log.append(LogLine(len(log) + 1, COLOURS[colour], action_json(done) if i else action, i > 0))
            state = after
    if not state.over:
        if rng.random() < 0.5:
            log.append(LogLine(len(log) + 1, "white", {"type": "resign"}, False))
            state = conclude(state, "black", "resigned")
        else:
            log.append(LogLine(len(log) + 1, "black", {"type": "draw_offer"}, False))
            log.append(LogLine(len(log) + 1, "white", {"type": "draw_accept"}, False))
            state = conclude(state, None, "agreement")
    return first, log, state, chaos


def headers_of(first, position: bool, chaos=None):
    out = [("Variant", first.variant_name), ("NoProgressRounds", str(first.no_progress_rounds)),
           ("Custom", "yes" if first.custom else "no"), ("Seed", first.seed)]
    if chaos:  # the chaos mages its creator chose, dealt first
        out.append(("Chaos", ",".join(chaos)))
    if position:
        out.append(("Position", to_text(first)))
    return out


@pytest.mark.parametrize("variant", ["standard", "rotating", "archmage", "ultimate_archmage"])
def test_random_matches_export_reimport_and_replay_to_the_same_final_state(variant: str) -> None:
    rng = random.Random(variant)
    positions = 0
    for _ in range(6):
        first, log, final, chaos = random_match(rng, variant)
        text = write_record(headers_of(first, position=False, chaos=chaos), log)
        record = read_record(text)
        assert record.log == log
        assert record.start() == first
        assert record.final() == final
        assert write_record(list(record.headers.items()), record.log) == text  # it round-trips
        # From a position reached in play, written out whole: the same.
        halfway = read_record(write_record(headers_of(first, False, chaos), log[: len(log) // 2])).final()
        middle, rest, end, _ = random_match(rng, variant, start=halfway)
        if not middle.over:
            positions += 1
            again = read_record(write_record(headers_of(middle, position=True), rest))
            assert again.start() == middle and again.final() == end
    assert positions >= 3


def test_a_record_without_seed_or_position_cannot_be_dealt_again() -> None:
    record = read_record(write_record([("Variant", "standard")], [LogLine(1, "black", {"type": "join"}, False)]))
    with pytest.raises(BadRecord, match="no Seed"):
        record.start()


@pytest.mark.parametrize(("text", "says"), [
    ("Variant standard\n\n", "line 1: a header"),
    ("Seed: x\nSeed: y\n\n", "appears twice"),
    ("Seed: x\n\n1 white play {\n", "line 3: the action is not JSON"),
    ("Seed: x\n\n1 grey play {\"type\":\"pass\"}\n", "line 3: an entry"),
    ("Seed: x\n\n1 white play []\n", "a JSON object with a type"),
    ("Seed: x\n\n\u00b2 white play {}\n", "line 3: an entry"),
])
def test_a_bad_record_is_refused_naming_the_line(text: str, says: str) -> None:
    with pytest.raises(BadRecord, match=says):
        read_record(text)


def test_an_illegal_action_in_a_record_names_its_version() -> None:
    log = [LogLine(1, "black", {"type": "join"}, False), LogLine(2, "white", {"type": "pass"}, False)]
    record = read_record(write_record([("Seed", "s")], log))
    with pytest.raises(BadRecord, match="version 2: R9"):
        record.final()


def test_the_record_of_notation_md_replays_to_black_resigning() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "notation.md").read_text()
    block = doc.split("## The game record", 1)[1].split("```\n", 2)[1]
    final = read_record(block).final()
    assert final.over and final.result == {"winner": "white", "reason": "resigned"}
    assert len(read_record(block).log) == 22
