"""Quick pairing: pools of players waiting for an opponent.

    catalogue.py   the pools: time controls for each variant
    rules.py       who is paired with whom (pure)
    store.py       the pools' rows in the database, the one truth of every process
    computer.py    the computer level offered to a player nobody was paired with
    seat_key.py    a paired guest's seat token, made from its ticket, never stored
    service.py     Pools: join, wait, leave, pair

A wing of the bots' layer (app/layers.py): it makes matches only through the
gateway, and wakes waiting players with nudges (`pool:<player>`).
"""

from .catalogue import POOL_ID, POOLS, Pool
from .errors import NoSuchPool, NoTicket, NotWaiting
from .service import Answer, Pools, Who

__all__ = ["POOLS", "POOL_ID", "Answer", "NoSuchPool", "NoTicket", "NotWaiting", "Pool", "Pools", "Who"]
