"""Issue 29: the computer answers a draw offer by its evaluation: it takes the
draw when it stands clearly worse, and plays on otherwise."""

from __future__ import annotations

from app.bots.draw_answer import ACCEPTS_AT, accepts_draw
from app.bots.evaluate import evaluate
from app.rules import from_text, new_match

# Positions of random play, White to move: White far ahead, then Black far ahead.
WHITE_AHEAD = ("c3cbm1/7D/1c2U2C/F4su1/1e1M2eS/E1md1F2/UD1bSB1u/Ud1CsF1D aw w 11 00001000/00000100 "
               "00000102/10031001 C..u.Ee.....|coE,me.,alM,sh. -/- wb - - - 0 se,fm,rm,dm,il,en,mg/- "
               "draws-1 standard:10:custom -")
BLACK_AHEAD = ("1esMFbMD/B2f2mF/U3S3/b1Mm2um/1s2F2B/2uB4/4d3/DEEC2UU dw b 7 11002000/12220000 "
               "00200000/00101011 ...d........|se.,co.,en.,il. -/- - - - - 0 rm,fm,me,al,dm,mg,sh/- "
               "draws-0 standard:10:custom -")


def test_the_side_behind_takes_the_draw_and_the_side_ahead_plays_on() -> None:
    ahead = from_text(WHITE_AHEAD)
    assert evaluate(ahead) > -ACCEPTS_AT  # the positions are what their names say
    assert accepts_draw(ahead, "black") and not accepts_draw(ahead, "white")
    behind = from_text(BLACK_AHEAD)
    assert evaluate(behind) < ACCEPTS_AT
    assert accepts_draw(behind, "white") and not accepts_draw(behind, "black")


def test_an_even_start_is_declined_by_either_side() -> None:
    start = new_match(seed="even")
    assert not accepts_draw(start, "white") and not accepts_draw(start, "black")
