"""Fair play in ratings: which decisive results stop moving ratings, and when
a player is warned. Pure rules over counts; app/accounts/fairplay.py counts
from the database and applies them inside the transaction that ends a match.

A rated result is *quick* when it is decisive (someone won) and the two
players made at most `QUICK_ACTIONS` actions of their own after setup between
them: a match given away at once. Ordinary matches are far longer (a round
alone is about thirty actions), so quick results are rare unless someone
means them.

- **Boosting**: one pair of players trading quick results. The first
  `PAIR_QUICK_LIMIT` quick results of a pair within `PAIR_WINDOW_SECONDS` move
  ratings as any other; each one after moves neither player's rating, and the
  pair goes to the admins' queue.
- **Sandbagging**: a player who keeps losing quickly, to anyone. The
  `QUICK_LOSSES_WARN`-th quick loss within `QUICK_LOSS_WINDOW_SECONDS` still
  counts but warns them; each one after it moves no rating.

    >>> judge(quick=True, pair_quick_before=3, quick_losses_before=0)
    Verdict(moves=False, flags=('boosting',))
    >>> judge(quick=True, pair_quick_before=2, quick_losses_before=4)
    Verdict(moves=True, flags=('sandbagging_warned',))
    >>> judge(quick=False, pair_quick_before=9, quick_losses_before=9)
    Verdict(moves=True, flags=())
"""

from __future__ import annotations

from typing import NamedTuple

QUICK_ACTIONS = 10  # both sides' own actions after setup, at most, in a quick result
PAIR_QUICK_LIMIT = 3  # quick results a pair may trade in the window that still move ratings
PAIR_WINDOW_SECONDS = 24 * 3600
QUICK_LOSSES_WARN = 5  # the quick loss (in the window) that warns; those after it count for nothing
QUICK_LOSS_WINDOW_SECONDS = 7 * 24 * 3600


class Verdict(NamedTuple):
    moves: bool  # the result moves both ratings
    flags: tuple[str, ...]  # what goes to the admins' queue: boosting, sandbagging_warned, sandbagging


def is_quick(decisive: bool, own_actions: int) -> bool:
    """A decisive result after at most QUICK_ACTIONS actions of the players' own."""
    return decisive and own_actions <= QUICK_ACTIONS


def judge(quick: bool, pair_quick_before: int, quick_losses_before: int) -> Verdict:
    """The verdict on a rated result: `quick` as is_quick says; the pair's quick
    results in the pair window before this one; the loser's quick losses in
    the loss window before this one."""
    if not quick:
        return Verdict(True, ())
    flags: list[str] = []
    moves = True
    if pair_quick_before >= PAIR_QUICK_LIMIT:
        moves = False
        flags.append("boosting")
    losses = quick_losses_before + 1
    if losses == QUICK_LOSSES_WARN:
        flags.append("sandbagging_warned")
    elif losses > QUICK_LOSSES_WARN:
        moves = False
        flags.append("sandbagging")
    return Verdict(moves, tuple(flags))
