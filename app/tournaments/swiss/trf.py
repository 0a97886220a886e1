"""A Swiss event as a FIDE Tournament Report File (TRF-16, with the XXR and
XXC lines of the TRF(x) the pairing engines read): the export of
`GET /api/v1/tournaments/{id}/trf`, and the file the Dutch pairing reads.

Each player's line carries their starting rank, name, rating, score, rank and
one cell per round: the opponent's starting rank, the colour and the result
("1" won, "=" drawn, "0" lost, "-" a double forfeit when nobody moved,
"0000 - U" the pairing-allocated bye, "0000 - Z" a round not played).
Pure but for `read`, which hands the text to py4swiss's parser through a
temporary file (the parser reads files only)."""

from __future__ import annotations

import tempfile
from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .record import Entrant, Game, half_points, starting_order
from .tiebreaks import standings

NAME_WIDTH = 33
UNPLAYED = "0000 - Z"
PAIRED_BYE = "0000 - U"


def _date(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y/%m/%d")


def _cell(game: Game | None, me: int, numbers: dict[int, int]) -> str:
    if game is None:
        return UNPLAYED
    if game.black is None:
        return PAIRED_BYE
    colour, them = ("w", game.black) if game.white == me else ("b", game.white)
    if game.result == "aborted":
        code = "-"
    else:
        code = {2: "1", 1: "=", 0: "0"}[half_points(game, me)]
    return f"{numbers[them]:>4} {colour} {code}"


def lines(name: str, starts_ms: int, ends_ms: int, time_control: str, rounds: int,
          entrants: Sequence[Entrant], games: Sequence[Game], played_rounds: int,
          sitting_out: Collection[int] = ()) -> list[str]:
    """The TRF's lines for rounds 1..played_rounds (every game of them over).
    `sitting_out`: players given "0000 - Z" for the round after, which is how a
    pairing engine is told who is not to be paired in it."""
    order = starting_order(entrants)
    numbers = {e.key: n for n, e in enumerate(order, start=1)}
    done = [g for g in games if g.round <= played_rounds]
    if any(g.result is None for g in done):
        raise ValueError("a TRF holds finished rounds only")
    table = {line.key: line for line in standings(entrants, done)}
    by_round: dict[tuple[int, int], Game] = {}
    for g in done:
        for key in (g.white, g.black):
            if key is not None:
                by_round[(key, g.round)] = g
    out = [f"012 {name}", f"042 {_date(starts_ms)}", f"052 {_date(ends_ms)}", f"062 {len(order)}",
           "092 Individual: Swiss-System (FIDE Dutch)", f"122 {time_control}", f"XXR {rounds}", "XXC white1"]
    for entrant in order:
        me = entrant.key
        line = table[me]
        cells = [_cell(by_round.get((me, r)), me, numbers) for r in range(1, played_rounds + 1)]
        if me in sitting_out:
            cells.append(UNPLAYED)
        rating = min(max(entrant.rating, 0), 9999)
        points = f"{line.score / 2:.1f}"
        out.append(f"001 {numbers[me]:>4} {'':1}{'':3} {entrant.name[:NAME_WIDTH]:<{NAME_WIDTH}} {rating:>4} "
                   f"{'':3} {'':>11} {'':10} {points:>4} {line.rank:>4}" + "".join("  " + c for c in cells))
    return out


def text(*args: Any, **kwargs: Any) -> str:
    return "\n".join(lines(*args, **kwargs)) + "\n"


def read(trf_text: str) -> Any:
    """The TRF parsed by py4swiss (strictly: a malformed line raises), as its ParsedTrf."""
    from py4swiss.trf import TrfParser

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "event.trf"
        path.write_text(trf_text, encoding="utf-8")
        return TrfParser.parse(path, strict=True)
