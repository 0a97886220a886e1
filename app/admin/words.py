"""A log entry's action in a few words, for the timeline (the JSON stays exact)."""

from __future__ import annotations

from typing import Any


def _mage(name: Any) -> str:
    """A mage as the tower names it in words: "dragon lord", not "dragon_lord"."""
    return str(name).replace("_", " ")


def _power(power: Any) -> str:
    if not power:
        return "declines the power" if power is None else "uses the power"
    if "move" in power:
        return f"moves {power['move'][0]}→{power['move'][1]}"
    if "summon" in power:
        return f"summons on {power['summon']}"
    if "swap" in power:
        return f"swaps {power['swap'][0]} and {power['swap'][1]}"
    if "mage" in power:
        return f"uses the {_mage(power['mage'])}: {_power(power.get('power'))}"
    return ", ".join(f"{k} {_mage(v) if k == 'target' else v}" for k, v in power.items())


def describe(action: dict[str, Any]) -> str:
    kind = action.get("type")
    if kind == "setup":
        return "sets up " + " ".join(action.get("backrow", []))
    if kind == "place":
        return f"places a {action.get('minion')} on the {_mage(action.get('mage'))}"
    if kind == "remove":
        return f"removes from the {_mage(action.get('mage'))}, {_power(action.get('power'))}"
    if kind == "adjudicate":
        winner = action.get("winner")
        verdict = f"{winner} wins" if winner else "a draw"
        return f"adjudicated by an admin: {verdict} ({action.get('note', '')})"
    if kind == "abort" and action.get("by") == "admin":
        return f"aborted by an admin ({action.get('note', '')})"
    if kind == "claim":
        return f"claims a {action.get('result')}"
    words = {"pass": "passes", "join": "joins", "resign": "resigns", "timeout": "runs out of time",
             "abort": "aborts", "draw_offer": "offers a draw", "draw_accept": "accepts the draw",
             "draw_decline": "declines the draw", "draw_withdraw": "withdraws the draw offer",
             "rematch_offer": "offers a rematch", "rematch_withdraw": "withdraws the rematch offer",
             "rematch_decline": "declines the rematch", "rematch": "accepts the rematch"}
    return words.get(str(kind), str(kind))
