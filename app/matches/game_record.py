"""A match as a game record (`GET /matches/{id}/record`): the headers
the server knows of it, and its log, written by app/rules/game_record.py.

Nothing secret: the seed appears when the public state shows it (once the
match is over, or from the start in a custom match), and the start position
only for a match started from one (whose creator wrote it, deck and all).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from app.kernel.moments import stamp
from app.rules import COLOURS
from app.rules.game_record import LogLine, write_record

from .record import Record


def _time_control(tc: dict[str, Any] | None) -> str:
    if tc is None:
        return "none"
    if tc["type"] == "realtime":
        return f"realtime {tc['minutes']:g} min + {tc.get('increment', 0):g} s"
    return f"correspondence {tc['days']:g} days a move"


def _rating(rating: Mapping[str, Any] | None) -> str | None:
    if not rating:
        return None
    return f"{rating['rating']}" + ("?" if rating.get("provisional") else "")


def headers(rec: Record) -> list[tuple[str, str]]:
    options = rec.options
    out = [("Match", rec.id), ("Date", stamp(rec.created_ms))]
    for colour in COLOURS:
        seat = rec.seats.get(colour)
        name = "-" if seat is None else seat.name
        if seat is not None and seat.bot is not None:
            name += f" (computer: {seat.bot})"
        out.append((colour.capitalize(), name))
    if rec.rated:
        for colour in COLOURS:
            seat = rec.seats.get(colour)
            shown = _rating(seat.rating if seat else None)
            if shown is not None:
                out.append((f"{colour.capitalize()}Rating", shown))
                if seat is not None and seat.rating_change is not None:
                    out.append((f"{colour.capitalize()}RatingChange", f"{seat.rating_change:+d}"))
    out += [
        ("Rated", "yes" if rec.rated else "no"),
        ("Variant", options["variant"]),
        ("NoProgressRounds", str(options["no_progress_rounds"])),
        ("TimeControl", _time_control(options.get("time_control"))),
        ("Options", json.dumps({k: v for k, v in options.items() if k != "position"},
                               ensure_ascii=False, separators=(",", ":"), sort_keys=True)),
        ("Custom", "yes" if rec.custom else "no"),
    ]
    if rec.chaos:
        out.append(("Chaos", ",".join(rec.chaos)))
    if rec.result is None:
        out.append(("Result", "*"))
    else:
        out.append(("Result", rec.result.get("winner") or "draw"))
        out.append(("Termination", rec.result["reason"]))
    if rec.finished_ms is not None:
        out.append(("Finished", stamp(rec.finished_ms)))
    out.append(("SeedCommitment", rec.seed_commitment))
    if rec.status == "finished" or rec.custom:  # R20: as the public state shows it
        out.append(("Seed", rec.seed))
    if "position" in options:
        out.append(("Position", options["position"]))
    return out


def record_text(rec: Record, log_rows: Iterable[Any],
                notes: tuple[list[tuple[str, str]], dict[int, str]] | None = None) -> str:
    """The record of `rec`, from its log rows (version, player, action, automatic)
    up to its version; with `notes`, a computer analysis's headers (after the
    match's) and comments by version."""
    log = [LogLine(r.version, r.player, r.action, r.automatic) for r in log_rows if r.version <= rec.version]
    extra, comments = notes or ([], {})
    return write_record([*headers(rec), *extra], log, comments)
