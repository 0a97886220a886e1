"""What every wing shares, below all of them: the errors a call is refused with
(errors.py), the write budget counted per seat, account and address (limits.py),
what an id or a name may look like (ids.py), what text may be stored (text.py),
compact JSON text (jsontext.py), moments and their one text form (moments.py),
and the match list's cursors (cursor.py).

It sits just above the database (the shared write budget counts in a table) and
below the accounts, the match service and every wing, so none of them reaches
into another for these.
"""
