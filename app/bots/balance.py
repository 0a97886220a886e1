"""Self-play of the strongest level, and what it says about the game.

`python -m app.bots balance [--games 200] [--think S] [--clock cpu] [--jobs 2]`
plays `--games` matches per variant of the level against itself, replays
each match's log through the engine to read what happened (who held the
Orb each round, which mages' powers each player used), and writes
docs/balance.md with its charts (docs/balance/*.svg) and the raw figures
(docs/balance/results.json). `--from-json` redraws the page from those
figures without playing.
"""

from __future__ import annotations

import json
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from app.charts import report
from app.rules import DECISION, VARIANTS, State, apply_steps, new_match

from .arena import play, wilson
from .board import MAGES

COLOURS = ("white", "black")


def summarise(match_log: list[dict[str, Any]], seed: str, variant: str) -> dict[str, Any]:
    """What one match says, read by replaying its log: per player the powers
    used by mage, the rounds begun holding the Orb; the mages in play."""
    s = new_match(seed=seed, variant=variant)
    uses: list[dict[str, int]] = [{}, {}]
    orb_rounds = [0, 0]
    present: set[str] = set()
    last_round = 0

    def look(state: State) -> None:
        nonlocal last_round
        if state.phase == DECISION and state.round != last_round:
            last_round = state.round
            orb_rounds[state.orb] += 1
            present.update(MAGES[m] for m, seat in enumerate(state.seat) if seat)

    for entry in match_log:
        action = entry["action"]
        colour = s.to_move
        if action["type"] == "remove" and action["power"] is not None:
            name = action["mage"]
            uses[colour][name] = uses[colour].get(name, 0) + 1
        for _, _, after in apply_steps(s, action):
            look(after)
            s = after
    return {"uses": uses, "orb_rounds": orb_rounds, "present": sorted(present)}


def _job(job: tuple[str, float, str, str, str]) -> dict[str, Any]:
    level, think, seed, variant, clock = job
    m = play((level, think, f"{level}#1"), (level, think, f"{level}#2"), seed, variant,
             keep_log=True, clock=clock)
    out = {"seed": seed, "variant": variant, "winner": m.winner, "reason": m.reason,
           "actions": m.actions, "rounds": m.rounds,
           "cpu_seconds": m.white.cpu + m.black.cpu, "nodes": m.white.nodes + m.black.nodes}
    out.update(summarise(m.log, seed, variant))
    return out


def balance(level: str, variants: list[str], games: int, think: float, jobs: int, out: str,
            data: str, replay_only: bool = False, clock: str = "wall", progress: bool = True) -> None:
    folder = Path(data)
    folder.mkdir(parents=True, exist_ok=True)
    raw = folder / "results.json"
    if replay_only:
        results = json.loads(raw.read_text())
    else:
        plan = [(level, think, f"balance-{variant}-{i:05d}-{'0123456789abcdef' * 2}", variant, clock)
                for variant in variants for i in range(games)]
        began = time.perf_counter()
        matches: list[dict[str, Any]] = []
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for match in pool.map(_job, plan, chunksize=1):
                matches.append(match)
                if progress and len(matches) % 10 == 0:
                    print(f"  {len(matches)}/{len(plan)} matches", flush=True)
        results = {"level": level, "think_seconds": think, "clock": clock, "games_per_variant": games,
                   "jobs": jobs, "wall_seconds": time.perf_counter() - began, "matches": matches}
        raw.write_text(json.dumps(results, indent=0))
    Path(out).write_text(render(results, folder, Path(out).parent))
    print(f"written {out} and {folder}/")


# ---- the figures ---------------------------------------------------------------

def _by_variant(results: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for m in results["matches"]:
        out.setdefault(m["variant"], []).append(m)
    return {v: out[v] for v in VARIANTS if v in out}


def white_rate(matches: list[dict[str, Any]]) -> dict[str, Any]:
    white = sum(1 for m in matches if m["winner"] == "white")
    black = sum(1 for m in matches if m["winner"] == "black")
    draws = len(matches) - white - black
    decided = white + black
    low, high = wilson(white, decided)
    return {"white": white, "black": black, "draws": draws, "decided": decided,
            "rate": white / decided if decided else float("nan"), "ci": (low, high)}


def _correlation(xs: list[float], ys: list[float]) -> float:
    if len(xs) < 3:
        return float("nan")
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else float("nan")


def mage_table(matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per mage: matches it was in play, uses per such match (both players),
    the correlation of a player's uses with winning, and how often the
    player who used it more won."""
    rows = []
    for mage in MAGES:
        xs: list[float] = []
        ys: list[float] = []
        heavier = heavier_won = total = present = 0
        for m in matches:
            if mage not in m["present"]:
                continue
            present += 1
            counts = [m["uses"][c].get(mage, 0) for c in (0, 1)]
            total += sum(counts)
            if m["winner"] is None:
                continue
            winner = COLOURS.index(m["winner"])
            for c in (0, 1):
                xs.append(counts[c])
                ys.append(1.0 if c == winner else 0.0)
            if counts[0] != counts[1]:
                heavier += 1
                heavier_won += counts[winner] > counts[1 - winner]
        rows.append({"mage": mage, "matches": present, "uses_per_match": total / present if present else 0.0,
                     "win_correlation": _correlation(xs, ys),
                     "heavier_user_won": heavier_won / heavier if heavier else float("nan"),
                     "heavier_decided": heavier})
    return rows


def orb_figures(matches: list[dict[str, Any]]) -> dict[str, Any]:
    """The player who began more rounds holding the Orb: how often they won."""
    more = more_won = 0
    for m in matches:
        rounds = m["orb_rounds"]
        if m["winner"] is None or rounds[0] == rounds[1]:
            continue
        holder = 0 if rounds[0] > rounds[1] else 1
        more += 1
        more_won += COLOURS[holder] == m["winner"]
    low, high = wilson(more_won, more)
    return {"matches": more, "won": more_won, "rate": more_won / more if more else float("nan"),
            "ci": (low, high)}


def _pct(x: float) -> str:
    return "–" if math.isnan(x) else f"{100 * x:.1f}%"


def render(results: dict[str, Any], folder: Path, doc_dir: Path) -> str:
    groups = _by_variant(results)
    names = list(groups)
    rel = folder.relative_to(doc_dir) if folder.is_relative_to(doc_dir) else folder
    rates = {v: white_rate(ms) for v, ms in groups.items()}
    charts = {}
    charts["white_win_rate.svg"] = report.bars(
        "White's share of decided matches (95% CI)", names,
        {"White wins": [rates[v]["rate"] for v in names]},
        errors={"White wins": [rates[v]["ci"] for v in names]}, top=1.0, line=0.5, percent=True)
    reasons = sorted({m["reason"] for ms in groups.values() for m in ms})
    charts["endings.svg"] = report.bars(
        "How matches end", names,
        {r: [sum(1 for m in groups[v] if m["reason"] == r) / len(groups[v]) for v in names] for r in reasons},
        stacked=True, top=1.0, percent=True)
    every = [m for ms in groups.values() for m in ms]
    longest = max((m["rounds"] for m in every), default=1)
    buckets = list(range(1, longest + 1))
    charts["length.svg"] = report.bars(
        "Match length in rounds (share of matches)", [str(b) for b in buckets],
        {v: [sum(1 for m in groups[v] if m["rounds"] == b) / len(groups[v]) for b in buckets] for v in names},
        percent=True)
    mages = mage_table(every)
    shown = [r for r in mages if r["matches"]]
    charts["mage_use.svg"] = report.bars(
        "Powers used per match in which the mage was in play (both players)",
        [r["mage"] for r in shown], {"uses": [r["uses_per_match"] for r in shown]})
    corr = [0.0 if math.isnan(r["win_correlation"]) else r["win_correlation"] for r in shown]
    spread = max([0.1] + [abs(c) for c in corr])  # the axis is as long below zero as above
    charts["mage_wins.svg"] = report.bars(
        "Correlation of a player's uses of a mage with winning", [r["mage"] for r in shown],
        {"correlation": corr}, top=spread, low=-spread)
    for name, text in charts.items():
        (folder / name).write_text(text)
    return _page(results, groups, rates, mages, rel)


def _page(results: dict[str, Any], groups: dict[str, list[dict[str, Any]]],
          rates: dict[str, dict[str, Any]], mages: list[dict[str, Any]], rel: Path) -> str:
    every = [m for ms in groups.values() for m in ms]
    cpu = sum(m["cpu_seconds"] for m in every)
    nodes = sum(m["nodes"] for m in every)
    lines = [
        "# What self-play says about Magery",
        "",
        "Written by `python -m app.bots balance` (app/bots/balance.py); do not edit by hand.",
        "",
        "## What was run",
        "",
        f"- level `{results['level']}` against itself, {results['games_per_variant']} matches per variant "
        f"({len(every)} in all), {results['think_seconds']:g} s per action on the "
        f"{results.get('clock', 'wall')} clock;",
        f"- {results['jobs']} worker processes, {_duration(results['wall_seconds'])} of wall clock, "
        f"{_duration(cpu)} of CPU spent thinking, {nodes / cpu if cpu else 0:.0f} search nodes per CPU second;",
        "- the engine's default no-progress rule (R16: a draw after 10 whole rounds without a capture);",
        "- the same chaos deals for every run (seeds `balance-<variant>-<n>-…`).",
        "",
        "## White's win rate (first player, holds the Orb at the start)",
        "",
        "| variant | matches | White wins | Black wins | draws | White's share of decided | 95% CI |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for v, r in rates.items():
        low, high = r["ci"]
        lines.append(f"| {v} | {len(groups[v])} | {r['white']} | {r['black']} | {r['draws']} | "
                     f"{_pct(r['rate'])} | {_pct(low)}–{_pct(high)} |")
    lines += ["", f"![White's win rate]({rel}/white_win_rate.svg)", "",
              "## How matches end", "",
              "| variant | " + " | ".join(_reasons(groups)) + " |",
              "| --- | " + " | ".join("---:" for _ in _reasons(groups)) + " |"]
    for v, ms in groups.items():
        lines.append(f"| {v} | " + " | ".join(
            str(sum(1 for m in ms if m["reason"] == r)) for r in _reasons(groups)) + " |")
    lines += ["", f"![Endings]({rel}/endings.svg)", "", "## Match length", "",
              "| variant | mean rounds | median rounds | longest | mean actions |",
              "| --- | ---: | ---: | ---: | ---: |"]
    for v, ms in groups.items():
        rounds = [m["rounds"] for m in ms]
        lines.append(f"| {v} | {statistics.fmean(rounds):.1f} | {statistics.median(rounds):g} | "
                     f"{max(rounds)} | {statistics.fmean(m['actions'] for m in ms):.0f} |")
    lines += ["", f"![Length]({rel}/length.svg)", ""]
    lines += _mage_section(mages, rel)
    lines += _orb_section(groups, rates)
    return "\n".join(lines) + "\n"


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _reasons(groups: dict[str, list[dict[str, Any]]]) -> list[str]:
    return sorted({m["reason"] for ms in groups.values() for m in ms})


def _mage_section(mages: list[dict[str, Any]], rel: Path) -> list[str]:
    shown = [r for r in mages if r["matches"]]
    by_use = sorted(shown, key=lambda r: -r["uses_per_match"])
    lines = ["## Mages used most and least, and winning", "",
             "A use is a removal whose power was used (declining is not counted); chaos mages are "
             "counted over the matches in which they were in play. The correlation is between a "
             "player's uses of the mage in a decided match and that player winning (over both players "
             "of every decided match); it says what goes with winning, not what causes it: a player "
             "already ahead has more captures on offer.", "",
             f"Most used: {', '.join(r['mage'] for r in by_use[:3])}. "
             f"Least used: {', '.join(r['mage'] for r in by_use[-3:])}.", "",
             "| mage | in play (matches) | uses per match | correlation with winning | "
             "heavier user won |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for r in by_use:
        corr = "–" if math.isnan(r["win_correlation"]) else f"{r['win_correlation']:+.2f}"
        lines.append(f"| {r['mage']} | {r['matches']} | {r['uses_per_match']:.2f} | {corr} | "
                     f"{_pct(r['heavier_user_won'])} of {r['heavier_decided']} |")
    lines += ["", f"![Uses]({rel}/mage_use.svg)", "", f"![Correlation]({rel}/mage_wins.svg)", ""]
    return lines


def _orb_section(groups: dict[str, list[dict[str, Any]]], rates: dict[str, dict[str, Any]]) -> list[str]:
    lines = ["## The first player's advantage, and the Orb", "",
             "White holds the Orb at the start and so takes the first turn of the first round (R7, R8): "
             "White's share of decided matches above is the first player's advantage. The Orb then "
             "changes hands through the Oracle; the table below counts, among decided matches where "
             "one player began more rounds holding the Orb, how often that player won.", "",
             "| variant | matches | Orb holder of more rounds won | 95% CI |", "| --- | ---: | ---: | --- |"]
    for v, ms in groups.items():
        o = orb_figures(ms)
        lines.append(f"| {v} | {o['matches']} | {_pct(o['rate'])} | {_pct(o['ci'][0])}–{_pct(o['ci'][1])} |")
    lines.append("")
    return lines
