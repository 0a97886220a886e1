"""What anyone may read of a match, and what a seat may read of its own turn:
the public state, the legal actions, the log, missed updates, the match list."""

from __future__ import annotations

from typing import Any

from app.kernel.cursor import make_cursor, read_cursor
from app.kernel.errors import NotFound
from app.kernel.ids import is_match_id
from app.kernel.jsontext import compact
from app.kernel.moments import ms_of, stamp
from app.rules import State, action_json, legal_actions, setup_choices

from . import bot_store, history, store, stored_states
from .game_record import record_text
from .keeper import MatchKeeper
from .record import record_from_rows
from .shapes import LogEntry, MatchState
from .telling import told


def timed(public: dict[str, Any], at: Any) -> dict[str, Any]:
    """A logged state with its `server_time`: states logged before it was kept in
    them take their action's time, the moment they held."""
    if "server_time" in public:
        return public
    return {**public, "server_time": stamp(ms_of(at))}


def legal_answer(version: int, state: State, mine: bool) -> dict[str, Any]:
    """`GET /legal`'s answer at `version`: the seat's actions when `mine` (its turn)."""
    setup = setup_choices(state) if mine else []
    actions = [action_json(a) for a in legal_actions(state)] if mine else []
    return {"version": version, "actions": actions, "setup": setup}


NOTHING = '"actions":[],"setup":[]}'  # how `legal_answer_text` ends when it lists nothing


def legal_answer_text(version: int, state: State, mine: bool) -> bytes:
    """`legal_answer` as its compact JSON text (json.dumps with no spaces, as the
    route's JSONResponse writes it), each action's text made once per process
    (`action_text`): building each action's object and encoding the list were
    over half of a `GET /legal`'s CPU, an answer being some fifty actions
    (thousands at times)."""
    if not mine:
        return b'{"version":%d,"actions":[],"setup":[]}' % version
    actions = ",".join([action_text(a) for a in legal_actions(state)])
    return f'{{"version":{version},"actions":[{actions}],"setup":{compact(setup_choices(state))}}}'.encode()


_ACTION_TEXTS: dict[Any, str] = {}
MOST_ACTION_TEXTS = 50_000  # a few MB at most; the actions a process meets are far fewer


def action_text(action: Any) -> str:
    """An engine action's contract JSON as compact text, kept by the action (a
    tuple of small values: the same action is the same text in any match)."""
    text = _ACTION_TEXTS.get(action)
    if text is None:
        if len(_ACTION_TEXTS) >= MOST_ACTION_TEXTS:
            _ACTION_TEXTS.clear()
        text = _ACTION_TEXTS[action] = compact(action_json(action))
    return text


class Reads:
    def __init__(self, keeper: MatchKeeper) -> None:
        self.keeper = keeper

    async def get(self, match_id: str) -> MatchState:
        """The public state (`GET /matches/{id}`)."""
        return self.keeper.present(await self.keeper.current(match_id))

    async def legal(self, match_id: str, colour: str) -> dict[str, Any]:
        """`colour`'s legal actions now: empty when it is not their turn. Served
        from the record this process holds when it is the stored version
        (keeper.newest); the answer names its version either way."""
        rec = await self.keeper.newest(match_id, with_seats=False)
        return legal_answer(rec.version, rec.state, rec.seat_to_move() == colour)

    async def legal_text(self, match_id: str, colour: str) -> bytes:
        """`legal`'s answer as its compact JSON text (the HTTP fast path's body)."""
        rec = await self.keeper.newest(match_id, with_seats=False)
        return legal_answer_text(rec.version, rec.state, rec.seat_to_move() == colour)

    async def legal_at(self, match_id: str, colour: str, version: int) -> str | None:
        """`legal`'s answer as text when it is at `version` and gives `colour`
        something to play, else None. The record this process holds at `version`
        answers with no read when nothing has fallen due (the record at a version
        is the one any read gives at it); else the match is read as `legal` reads it."""
        keeper = self.keeper
        rec = keeper.cache.get(match_id)
        if rec is None or rec.version != version or rec.due(keeper.now_ms()):
            rec = await keeper.newest(match_id, with_seats=False)
            if rec.version != version:
                return None
        if rec.seat_to_move() != colour:
            return None
        text = legal_answer_text(rec.version, rec.state, True).decode()
        return None if text.endswith(NOTHING) else text

    async def log(self, match_id: str, since: int = 0) -> list[LogEntry]:
        """The action log (`GET /matches/{id}/actions`)."""
        cached = self.keeper.cache.get(match_id)
        if cached is None or cached.due(self.keeper.now_ms()):
            await self.keeper.current(match_id)
        rows = await store.log(self.keeper.engine, match_id, since)
        if rows is None:
            raise NotFound(f"no match {match_id!r}")
        return [{"version": r.version, "player": r.player, "action": r.action, "automatic": r.automatic,
                 "at": stamp(ms_of(r.at))} for r in rows]

    async def record(self, match_id: str,
                     notes: tuple[list[tuple[str, str]], dict[int, str]] | None = None) -> tuple[str, bool]:
        """The game record (`GET /matches/{id}/record`), with a computer
        analysis's `notes` if given, and whether the match is over (its record
        changes no more, but for an analysis made later)."""
        rec = await self.keeper.current(match_id)
        rows = await store.log(self.keeper.engine, match_id, 0)
        return record_text(rec, rows or [], notes), rec.status == "finished"

    async def log_and_end(self, match_id: str, since: int = 0) -> tuple[list[LogEntry], bool]:
        """The action log, and whether the match is known to be over (its ending
        read by this process; an ending is never undone), so the answer may carry
        a validator for caches (`ETag`)."""
        log = await self.log(match_id, since)
        rec = self.keeper.cache.get(match_id)
        return log, rec is not None and rec.status == "finished"

    async def updates_since(self, match_id: str, version: int) -> list[dict[str, Any]] | None:
        """The update messages after `version`, in order, for a client that
        reconnects; None when there are too many (or `version` is unknown):
        send a snapshot instead. Raises NotFound for an unknown match."""
        if not is_match_id(match_id):
            raise NotFound(f"no match {match_id!r}")
        found = await store.updates(self.keeper.engine, match_id, version, self.keeper.settings.max_replay_updates)
        if found is None:
            raise NotFound(f"no match {match_id!r}")
        current, rows = found
        if version == current:
            return []
        if not rows or version < 0:
            return None
        before = rows[0].public if rows[0].version == version else None
        rows = [r for r in rows if r.version > version]
        if not rows:
            return None
        return [{"type": "update", "version": r.version, "action": r.action, "player": r.player,
                 "automatic": r.automatic, "words": words, "at": stamp(ms_of(r.at)), "match": timed(r.public, r.at)}
                for r, words in zip(rows, told(before, rows), strict=True)]

    async def states(self, match_id: str, first: int, last: int | None) -> tuple[dict[str, Any], bool]:
        """Each version's entry with the public state after it (for replays), and
        whether the match is finished (the answer then never changes)."""
        return await history.states(self.keeper.engine, match_id, first, last)

    async def version_of(self, match_id: str) -> tuple[int, bool]:
        """(the match's version now, whether it is finished), one small read."""
        found = await stored_states.current_version(self.keeper.engine, match_id)
        if found is None:
            raise NotFound(f"no match {match_id!r}")
        return found

    async def finished_log(self, match_id: str) -> tuple[int, State, list[history.Entry]]:
        """A finished match's first state and log, to judge its positions (MatchRunning
        for a running one)."""
        return await history.finished_log(self.keeper.engine, match_id)

    async def pending_bot_turns(self, watched_since_ms: int) -> list[str]:
        """Every running match where a bot is to move and no process holds a live
        claim on the turn, whose person was seen since `watched_since_ms` (one query)."""
        return await bot_store.pending(self.keeper.engine, self.keeper.now_ms(), watched_since_ms)

    async def list(
        self, *, status: str | None = None, variant: str | None = None, player: str | None = None,
        limit: int = 20, cursor: str | None = None, here: bool = False,
    ) -> dict[str, Any]:
        """Matches newest first, `limit` at a time; `next_cursor` fetches the next page.
        `here`: only those where a person sits now, or did within listed_away_seconds."""
        keeper = self.keeper
        after = read_cursor(cursor) if cursor else None
        now = keeper.now_ms()
        since = (now - keeper.presence_ttl_ms, now - round(keeper.settings.listed_away_seconds * 1000)) if here else None
        rows, seat_rows = await store.page(
            keeper.engine, status=status, variant=variant, player=player, limit=limit + 1, after=after, here=since)
        more = len(rows) > limit
        rows = rows[:limit]
        # Decided once, before the await: the cache may drop or move on meanwhile.
        hit = {r.id: c for r in rows if (c := keeper.cache.get(r.id)) is not None and c.version == r.version}
        loaded = await stored_states.states(keeper.engine, [r.id for r in rows if r.id not in hit])
        now = keeper.now_ms()
        out = []
        for row in rows:
            cached = hit.get(row.id)
            if cached is not None:
                rec = record_from_rows(row, seat_rows[row.id], cached.state)
                rec.view_of, rec.view = cached.view_of, cached.view
            elif loaded.get(row.id, (None, None))[0] == row.version:
                rec = record_from_rows(row, seat_rows[row.id], State.from_json(loaded[row.id][1]))
            else:  # it moved on between the two reads: never pair a row with another version's state
                rec = await keeper.get(row.id, fresh=True)
            keeper.cache.put(rec)
            # As stored: a flag that has fallen meanwhile is the sweeper's to apply
            # (within SWEEP_SECONDS), or the next read of that match's; a list is
            # read often and writes nothing.
            out.append(keeper.present(rec, now))
        next_cursor = make_cursor(rows[-1].created_at, rows[-1].id) if more and rows else None
        return {"matches": out, "next_cursor": next_cursor}
