"""The two players' colours (R1): the one definition the whole app shares.

The engine works on ints, 0 for White and 1 for Black, so a colour indexes a
tuple; the contract spells them "white" and "black". `other` answers in the
form it is given.

    >>> COLOURS[WHITE], other(WHITE), other("black")
    ('white', 1, 'white')
"""

from __future__ import annotations

from typing import Final, overload

# Final: a compiled build (mypyc) reads these from C statics, not the module's dict.
WHITE: Final = 0
BLACK: Final = 1
COLOURS = ("white", "black")
# The position text form's letters (docs/notation.md).
COLOUR_LETTERS = "wb"


@overload
def other(colour: int) -> int: ...


@overload
def other(colour: str) -> str: ...


def other(colour: object) -> int | str:
    """The opponent of `colour`: 0 <-> 1, or "white" <-> "black".

    Anything else raises ValueError rather than guessing.
    """
    # Typed object, not int | str: anything else is a ValueError, and the
    # compiled engine (mypyc) would raise TypeError at the call instead.
    found = _OTHER.get(colour) if isinstance(colour, (int, str)) else None
    if found is None:
        raise ValueError(f"not a colour: {colour!r}")
    return found


_OTHER: dict[int | str, int | str] = {
    WHITE: BLACK, BLACK: WHITE, "white": "black", "black": "white",
}
