"""The hot path's save on PostgreSQL (app/matches/store.py, `_save_postgres`).

The conditional UPDATE and the log rows in one statement, outside any explicit
transaction (a statement is atomic): one round trip per action instead of
BEGIN, UPDATE, INSERT, COMMIT. Worth it:
bench/ab.py against the same tree with every save through _save_core measured
1.6-2.3x the server CPU per action without it (bench/README.md). It writes the
columns of `rec.row()` but the rematch pair (save sends a rematch's change the
other way) and those of `_entry_row`: tests/db/test_save_paths.py fails when
the two paths disagree. Each returns the match's id once per log row written,
so saves of several matches written together (app/matches/saves_together.py)
can tell whose rows landed.
"""

from __future__ import annotations

_MOVED = """
WITH moved AS (
  UPDATE matches SET status = $1, state = $2::json, version = $3, white_ms = $4, black_ms = $5,
    clock_running = $6, clock_since_ms = $7, due_at_ms = $8, draw_offer = $9, result = $10::json,
    updated_at = $11, finished_at = $12
  WHERE id = $13 AND version = $14
  RETURNING id
)
INSERT INTO actions (match_id, version, player, action, automatic, at, client_id, public)
"""
# Several log rows (an action and the automatic entries it brought), as arrays.
ACT = _MOVED + """
SELECT moved.id, e.version, e.player, e.action::json, e.automatic, e.at, e.client_id, e.public::json
FROM moved, unnest($15::int[], $16::text[], $17::text[], $18::bool[], $19::timestamptz[], $20::text[],
                   $21::text[]) AS e(version, player, action, automatic, at, client_id, public)
RETURNING match_id
"""
# One log row, the usual case, as plain values: the driver encodes no arrays (it
# checks each argument and element against the collection ABCs, some 30 checks an
# action) and the server unnests nothing.
ACT_ONE = _MOVED + """
SELECT moved.id, $15::int, $16::text, $17::json, $18::bool, $19::timestamptz, $20::text, $21::json
FROM moved
RETURNING match_id
"""
