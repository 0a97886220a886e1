"""A done analysis in the game record's words: its headers and a comment per
version (docs/notation.md, "The game record")."""

from __future__ import annotations

import json
from typing import Any


def record_notes(body: dict[str, Any]) -> tuple[list[tuple[str, str]], dict[int, str]]:
    """A done analysis as the game record carries it: its headers, and a
    comment per version (docs/notation.md, "The game record")."""
    accuracy = body["accuracy"]
    headers = [("Analysis", body["engine"])]
    for colour in ("white", "black"):
        if accuracy[colour] is not None:
            headers.append((f"Accuracy{colour.capitalize()}", f"{accuracy[colour]:.1f}"))
    comments = {}
    for ply in body["plies"]:
        words = [f"eval {ply['eval']:+.3f}"]
        if ply["judgement"] is not None:
            words.append(f"{ply['judgement']} (drop {ply['drop']:.3f})")
        if ply["best"] is not None:
            words.append("best " + json.dumps(ply["best"], ensure_ascii=False, separators=(",", ":")))
        comments[ply["version"]] = " ".join(words)
    return headers, comments
