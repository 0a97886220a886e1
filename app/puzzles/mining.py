"""Mining: the puzzles of whole matches, as the records the seed set holds.

`mine_match(start, actions)` walks a match played from `start` (a finished
match's start and log, or the computer's own match) and keeps every puzzle
found on the way; a position inside a puzzle just found is not looked at
again (it would be the same puzzle, shorter). `mine_games` does this for
the computer's self-play (selfplay.py), match by match, and is what
`python -m app.puzzles mine` runs: the same seed and count give the same
records, in the same order. `mine_positions` does it for a finished match's
positions once its analysis is done (app/analysis), in a worker process, and
`mine_part` a part of them at a time, so that an analysis asked for
meanwhile waits behind one part, not the whole match.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final

from app.rules import State, apply, to_text

from .miner import DEEP, QUICK, Puzzle, puzzle_at
from .selfplay import match_seed, play

# A puzzle's first rating, before anyone has tried it: longer lines are
# harder, and a quiet only-win (no capture) harder still. Glicko-2 moves it.
FIRST_RATING: Final = (1300.0, 1600.0, 1900.0)
QUIET_BONUS: Final = 150.0


def puzzle_id(position_text: str) -> str:
    """A puzzle's id: a short digest of its position (the same position is the same puzzle)."""
    return hashlib.sha256(position_text.encode()).hexdigest()[:12]


def record(p: Puzzle, source: dict[str, Any]) -> dict[str, Any]:
    text = to_text(p.position)
    rating = FIRST_RATING[p.moves - 1] + (QUIET_BONUS if "quiet" in p.themes else 0.0)
    return {"id": puzzle_id(text), "position": text, "solution": p.line, "themes": p.themes,
            "rating": rating, "value": round(p.value, 4), "source": source}


def mine_states(states: Iterable[State], quick: int = QUICK, deep: int = DEEP) -> Iterator[tuple[int, Puzzle]]:
    """(index, puzzle) of each puzzle among `states`, one match's in order."""
    skip_to = -1
    for index, s in enumerate(states):
        if index <= skip_to:
            continue
        p = puzzle_at(s, quick, deep)
        if p is not None:
            skip_to = index + len(p.line)
            yield index, p


def mine_match(start: State, actions: list[Any], quick: int = QUICK, deep: int = DEEP) -> list[Puzzle]:
    """The puzzles of a match from its start and the actions played (a
    finished match's log: each entry's action, automatic ones included)."""
    def states() -> Iterator[State]:
        s = start
        yield s
        for action in actions:
            s = apply(s, action)[0]
            yield s
    return [p for _, p in mine_states(states(), quick, deep)]


def mine_positions(items: list[tuple[int, dict[str, Any]]], match_id: str, quick: int = QUICK,
                   deep: int = DEEP) -> list[dict[str, Any]]:
    """The puzzle records of a played match: `items` its (version, state as JSON data)
    in order, a version the same position as the one before left out. Plain
    data in and out: it runs in a worker process."""
    return mine_part(items, match_id, 0, max(1, len(items)), quick, deep)[0]


def mine_part(items: list[tuple[int, dict[str, Any]]], match_id: str, start: int, count: int,
              quick: int = QUICK, deep: int = DEEP) -> tuple[list[dict[str, Any]], int]:
    """`mine_positions` a part at a time: the records among `items[start:start + count]`,
    and the index to go on from. A puzzle's line may reach past the part: the
    positions inside it are skipped there too, so the parts, one after the
    other from 0, give the whole match's records whatever their size."""
    if count < 1:
        raise ValueError(f"a part to mine holds at least one position, not {count}")
    part = [State.from_json(data) for _, data in items[start:start + count]]
    found = list(mine_states(part, quick, deep))
    resume = start + count
    if found:
        last, p = found[-1]
        resume = max(resume, start + last + len(p.line) + 1)
    return [record(p, {"match": match_id, "version": items[start + index][0], "variant": str(part[index].variant)})
            for index, p in found], resume


def _mine_one(job: tuple[str, int, str, int, int]) -> tuple[list[dict[str, Any]], float]:
    seed, number, variant, quick, deep = job
    began = time.process_time()
    found = [record(p, {"match": match_seed(seed, number), "version": index, "variant": variant})
             for index, p in mine_states(play(seed, number, variant), quick, deep)]
    return found, time.process_time() - began


def mine_games(seed: str, games: int, variant: str = "standard", jobs: int = 1, quick: int = QUICK,
               deep: int = DEEP, first: int = 0) -> Iterator[tuple[int, list[dict[str, Any]], float]]:
    """(match number, its puzzle records, CPU seconds) for matches `first`..`first + games - 1`,
    in order whatever `jobs` runs them."""
    plan = [(seed, n, variant, quick, deep) for n in range(first, first + games)]
    if jobs <= 1:
        for job in plan:
            found, cpu = _mine_one(job)
            yield job[1], found, cpu
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for job, (found, cpu) in zip(plan, pool.map(_mine_one, plan), strict=True):
            yield job[1], found, cpu
