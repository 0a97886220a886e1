"""Which finished matches move ratings, and what each side scores: every way a
match ends (docs/api.md, "Ending a match"), an abort and an ending before both
sides' first action after setup moving nothing, an admin's adjudication
counting."""

from __future__ import annotations

import pytest

from app.ratings import (
    Ending,
    Finished,
    Scores,
    both_sides_acted,
    ending_of,
    finished,
    may_play_rated,
    scores,
)
from app.ratings.outcome import DRAWN, WON
from app.rules.state import REASONS

# Two real openings: both setups, then each side's first action of its own.
SETUPS = [("black", "join", False), ("white", "setup", False), ("black", "setup", False)]
BOTH_ACTED = [*SETUPS, ("white", "place", False), ("black", "place", False)]

# Every ending the service makes, as its result reads (docs/api.md's table).
RESULTS = [
    ({"winner": "white", "reason": "eliminated"}, Ending.VICTORY),
    ({"winner": "black", "reason": "five_greater"}, Ending.VICTORY),
    ({"winner": "white", "reason": "three_of_a_kind"}, Ending.VICTORY),
    ({"winner": "black", "reason": "resigned"}, Ending.RESIGN),
    ({"winner": None, "reason": "agreement"}, Ending.AGREEMENT),
    ({"winner": None, "reason": "no_progress"}, Ending.NO_PROGRESS),
    ({"winner": "white", "reason": "timeout"}, Ending.FLAG),
    ({"winner": "white", "reason": "timeout", "abandoned": "black"}, Ending.CLAIM),
    ({"winner": None, "reason": "timeout", "abandoned": "white"}, Ending.CLAIM),  # a claimed draw
    ({"winner": None, "reason": "aborted"}, Ending.ABORT),  # a seat's abort, nobody joining, an admin's
    ({"winner": None, "reason": "aborted", "late": "black"}, Ending.ABORT),  # the setup time ran out
    ({"winner": "black", "reason": "adjudicated"}, Ending.ADJUDICATE),
    ({"winner": None, "reason": "adjudicated"}, Ending.ADJUDICATE),
]


@pytest.mark.parametrize(("result", "ending"), RESULTS, ids=lambda v: str(v))
def test_every_result_reads_as_its_ending(result, ending) -> None:
    assert ending_of(result) is ending


def test_every_reason_the_engine_can_give_has_an_ending() -> None:
    for reason in REASONS:
        ending_of({"winner": None, "reason": reason})  # raises for one it does not know


def test_an_unknown_reason_is_refused_not_counted() -> None:
    for result in ({"winner": "white", "reason": "teleported"}, {"winner": "white"}, {"reason": None}):
        with pytest.raises(ValueError, match="no ending known"):
            ending_of(result)


# ---- what each ending scores -------------------------------------------------------------

@pytest.mark.parametrize(("result", "ending"), RESULTS, ids=lambda v: str(v))
def test_after_both_first_actions_every_ending_but_an_abort_counts(result, ending) -> None:
    got = scores(finished(True, result, BOTH_ACTED))
    if ending is Ending.ABORT:
        assert got is None
    elif result["winner"] is None:
        assert got == Scores(0.5, 0.5)
    else:
        assert got == (Scores(1.0, 0.0) if result["winner"] == "white" else Scores(0.0, 1.0))


@pytest.mark.parametrize(("result", "ending"), RESULTS, ids=lambda v: str(v))
def test_before_both_first_actions_only_an_adjudication_counts(result, ending) -> None:
    for log in (SETUPS, [*SETUPS, ("white", "place", False)], []):
        got = scores(finished(True, result, log))
        if ending is Ending.ADJUDICATE:
            assert got is not None and sum(got) == 1.0
        else:
            assert got is None


@pytest.mark.parametrize(("result", "ending"), RESULTS, ids=lambda v: str(v))
def test_an_unrated_match_moves_nothing(result, ending) -> None:
    assert scores(finished(False, result, BOTH_ACTED)) is None


def test_the_scores_of_each_kind_by_name() -> None:
    def of(ending: Ending, winner: str | None, both_acted: bool = True) -> Scores | None:
        return scores(Finished(True, ending, winner, both_acted))

    assert of(Ending.RESIGN, "white") == Scores(1.0, 0.0)
    assert of(Ending.FLAG, "black") == Scores(0.0, 1.0)
    assert of(Ending.CLAIM, "black") == Scores(0.0, 1.0)
    assert of(Ending.CLAIM, None) == Scores(0.5, 0.5)
    assert of(Ending.VICTORY, "white") == Scores(1.0, 0.0)
    assert of(Ending.AGREEMENT, None) == Scores(0.5, 0.5)
    assert of(Ending.NO_PROGRESS, None) == Scores(0.5, 0.5)
    assert of(Ending.ADJUDICATE, "black") == Scores(0.0, 1.0)
    assert of(Ending.ADJUDICATE, None, both_acted=False) == Scores(0.5, 0.5)
    assert of(Ending.ABORT, None) is None
    assert of(Ending.RESIGN, "white", both_acted=False) is None
    assert of(Ending.FLAG, "white", both_acted=False) is None  # a flag fallen at the start


def test_every_ending_is_placed_as_won_drawn_or_either() -> None:
    either = set(Ending) - WON - DRAWN
    assert either == {Ending.CLAIM, Ending.ADJUDICATE} and not WON & DRAWN


@pytest.mark.parametrize(("ending", "winner"), [
    (Ending.RESIGN, None), (Ending.FLAG, None), (Ending.VICTORY, None),
    (Ending.AGREEMENT, "white"), (Ending.NO_PROGRESS, "black"), (Ending.ABORT, "white"),
    (Ending.CLAIM, "red"), (Ending.ADJUDICATE, "draw"),
])
def test_a_summary_that_contradicts_itself_is_refused(ending, winner) -> None:
    with pytest.raises(ValueError):
        Finished(True, ending, winner, True)


# ---- both sides' first action after setup, from the log ----------------------------------------

@pytest.mark.parametrize(("log", "acted"), [
    ([], False),
    (SETUPS, False),
    ([*SETUPS, ("white", "place", False)], False),
    (BOTH_ACTED, True),
    ([*SETUPS, ("white", "pass", False), ("black", "place", False)], True),  # a pass of one's own counts
    ([*SETUPS, ("white", "place", False), ("black", "pass", True)], False),  # the server's pass does not
    ([*SETUPS, ("white", "place", False), ("black", "remove", False)], True),
    ([*SETUPS, ("white", "place", False), ("black", "draw_offer", False), ("black", "resign", False)], False),
    ([*SETUPS, ("white", "place", False), (None, "abort", True)], False),
    ([("white", "setup", False), ("black", "setup", False), ("white", "setup", False)], False),
])
def test_both_sides_acted_reads_the_log(log, acted) -> None:
    assert both_sides_acted(log) is acted
    assert both_sides_acted(iter(log)) is acted  # a one-pass iterable, as a query gives


def test_finished_reads_the_services_result_and_log() -> None:
    summary = finished(True, {"winner": "black", "reason": "timeout", "abandoned": "white"}, BOTH_ACTED)
    assert summary == Finished(rated=True, ending=Ending.CLAIM, winner="black", both_acted=True)


# ---- who plays rated ----------------------------------------------------------------------------

@pytest.mark.parametrize(("white", "black", "rated"), [
    ("account", "account", True),
    ("account", "computer", True),
    ("computer", "account", True),
    ("computer", "computer", False),
    ("guest", "account", False),
    ("account", "guest", False),
    ("guest", "computer", False),
    ("guest", "guest", False),
])
def test_only_two_accounts_or_an_account_and_a_computer_play_rated(white, black, rated) -> None:
    assert may_play_rated(white, black) is rated
