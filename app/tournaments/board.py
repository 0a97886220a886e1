"""What an arena's watchers are sent, made once per reading of the arena:
the standings cut into pages, the newest pairings, the podium once it is over,
and what each player who joined is told of themselves. Pure: rows in, the
encoded messages out (live.py sends them).

Every watcher of a page is sent the same text: its cost is the reading and one
encoding per page, however many watch.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

PAGE_SIZE = 10  # standings a page holds
SHOWN_PAIRINGS = 12  # the newest pairings every page carries
PODIUM = 3
FLAME_FROM = 2  # wins in a row from which the games count double (scoring.FIRE_AFTER)


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Mine:
    """One joined player's own line: their standing, whether they are paired
    again when a game ends (`active`), and the game they play now."""

    standing: dict[str, Any]
    active: bool
    game: str | None
    colour: str | None
    opponent: str | None


@dataclass(slots=True)
class Board:
    """An arena as read once: the summary, every standing in order, the pairings."""

    summary: dict[str, Any]
    standings: list[dict[str, Any]]
    pairings: list[dict[str, Any]]
    mine: dict[int, Mine] = field(default_factory=dict)
    moments: tuple[int, int] = (0, 0)  # when it starts and ends (ms since the epoch): the watch's timer
    _pages: dict[int, str] = field(default_factory=dict)

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.standings) // PAGE_SIZE))

    @property
    def finished(self) -> bool:
        return self.summary.get("status") == "finished"

    def page_text(self, page: int) -> str:
        """The `arena` message for `page` (1 is the top), encoded once and kept."""
        page = max(1, min(page, self.pages))
        text = self._pages.get(page)
        if text is None:
            start = (page - 1) * PAGE_SIZE
            text = self._pages[page] = dumps({
                "type": "arena", "tournament": {**self.summary, "players": len(self.standings)},
                "page": page, "pages": self.pages, "page_size": PAGE_SIZE,
                "standings": self.standings[start:start + PAGE_SIZE], "pairings": self.pairings,
                "podium": self.standings[:PODIUM] if self.finished else []})
        return text

    def me_text(self, account_id: int) -> str:
        """The `me` message of an account: its line, or that it has not joined."""
        mine = self.mine.get(account_id)
        if mine is None:
            return dumps({"type": "me", "joined": False, "active": False, "standing": None, "page": None,
                          "game": None})
        return dumps({"type": "me", "joined": True, "active": mine.active, "standing": mine.standing,
                      "page": page_of(mine.standing["rank"]), "game": mine.game})

    def game_text(self, account_id: int) -> str | None:
        """The `yourGame` message of an account playing an arena game now, or None."""
        mine = self.mine.get(account_id)
        if mine is None or mine.game is None:
            return None
        return dumps({"type": "yourGame", "tournament": self.summary["id"], "match": mine.game,
                      "colour": mine.colour, "opponent": mine.opponent, "url": f"/matches/{mine.game}"})


def page_of(rank: int) -> int:
    return (rank - 1) // PAGE_SIZE + 1


def board_of(summary: dict[str, Any], standings: Sequence[Any], joined: Sequence[Any],
             played: Sequence[Any]) -> Board:
    """The board from the arena's summary, its ranking (service.standings), its
    players' rows and its games (newest first)."""
    rows = [{"rank": s.rank, "name": s.name, "score": s.score, "games": s.games, "streak": s.streak,
             "fire": s.streak >= FLAME_FROM, "performance": s.performance} for s in standings]
    names = {p.account_id: p.name for p in joined}
    pairings = [{"match": g.match_id, "white": names.get(g.white), "black": names.get(g.black),
                 "status": g.status, "result": g.result} for g in played[:SHOWN_PAIRINGS]]
    by_name = {r["name"]: r for r in rows}
    playing = {g.match_id: g for g in played if g.status == "playing"}
    mine: dict[int, Mine] = {}
    for p in joined:
        game = playing.get(p.match_id) if p.match_id is not None else None
        colour = None if game is None else ("white" if game.white == p.account_id else "black")
        opponent = None if game is None else names.get(game.black if colour == "white" else game.white)
        mine[p.account_id] = Mine(by_name[p.name], bool(p.active), None if game is None else game.match_id,
                                  colour, opponent)
    return Board(summary, rows, pairings, mine)
