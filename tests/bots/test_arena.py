"""The arena and the balance report run end to end on tiny runs."""

from __future__ import annotations

import json
from pathlib import Path

from app.bots.__main__ import main
from app.bots.arena import run, wilson
from app.bots.balance import balance


def test_wilson_interval() -> None:
    low, high = wilson(9, 10)
    assert 0.59 < low < 0.6 and 0.98 < high < 0.99
    assert wilson(0, 0) == (0.0, 1.0)


def test_two_tiny_games_end_to_end_in_worker_processes(tmp_path: Path, capsys) -> None:
    out = tmp_path / "arena.json"
    assert main(["arena", "--games", "2", "strong", "greedy", "--think", "0.01", "--jobs", "2",
                 "--no-progress-rounds", "2", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "strong vs greedy" in printed and "95% CI" in printed
    result = json.loads(out.read_text())
    assert result["games"] == 2
    assert result["wins"] + result["draws"] + result["losses"] == 2
    colours = {(m["white"]["level"], m["black"]["level"]) for m in result["matches"]}
    assert colours == {("strong", "greedy"), ("greedy", "strong")}
    assert all(m["reason"] for m in result["matches"])


def test_a_level_against_itself_is_told_apart_by_think_time() -> None:
    result = run("random", "random", 2, think=0.01, think_b=0.02, no_progress_rounds=1)
    assert (result["a"], result["b"]) == ("random@0.01", "random@0.02")
    assert result["wins"] + result["draws"] + result["losses"] == 2


def test_balance_writes_the_page_and_its_charts(tmp_path: Path) -> None:
    doc, data = tmp_path / "balance.md", tmp_path / "balance"
    balance("greedy", ["standard", "archmage"], 2, 0.01, 1, str(doc), str(data), progress=False)
    text = doc.read_text()
    assert "White's win rate" in text and "| standard | 2 |" in text and "| archmage | 2 |" in text
    for chart in ("white_win_rate", "endings", "length", "mage_use", "mage_wins"):
        assert (data / f"{chart}.svg").read_text().startswith("<svg")
    (data / "white_win_rate.svg").unlink()
    balance("greedy", ["standard"], 2, 0.01, 1, str(doc), str(data), replay_only=True)
    assert (data / "white_win_rate.svg").exists() and doc.read_text() == text


def test_a_player_choosing_in_another_process_is_charged_the_cpu_it_reports(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """bench/arena_old.py --old-engine pure: the old level thinks in a child
    process, so this process's clock would charge it nothing; its own count is used."""
    from app.bots import arena

    real = arena.choose_with_info

    def elsewhere(level, state, seed, think, clock):  # type: ignore[no-untyped-def]
        action, info = real("random", state, seed, think, clock)
        return action, {**info, "nodes": 10, "depth": 1, "cpu": 0.25} if level == "strong" else info

    monkeypatch.setattr(arena, "choose_with_info", elsewhere)
    match = arena.play(("strong", 0.01, "a"), ("random", 0.01, "b"), "arena-cpu-test", no_progress_rounds=1)
    assert match.white.moves > 0
    assert match.white.cpu == 0.25 * match.white.moves  # what the player said, not this process's clock
    assert match.white.searched == match.white.cpu
    assert match.black.cpu < 0.25 * match.black.moves
