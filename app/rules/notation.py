"""The position text form: one line that holds a whole state, like FEN.

Seventeen fields separated by single spaces (docs/notation.md has examples):

 1 arena        ranks 8 to 1 split by "/", files a-h; letters DECFSMUB for
                dragon elemental construct fey spirit myrmidon undead beast,
                White upper case, Black lower case; a digit n = n empty squares
 2 turn         phase letter s(etup) d(ecision) a(ction) x (over), then w or b
 3 orb          w or b
 4 round        a whole number
 5 reserve      8 digits for White in DECFSMUB order, "/", 8 for Black
 6 dead         the same, for the dead piles
 7 tower        floors 1-12 as 12 occupant characters ("." empty), "|",
                then floors 13-16 as mage code + occupant, comma separated,
                "-" for a floor not in use
 8 private      White's private chambers (code + occupant, comma separated),
                "/", Black's; "-" for none
 9 passed       who passed this decision phase: "-", "w", "b" or "wb"
10 runes        who has the Rune Master this round, same form
11 wards        warded squares comma separated, or "-"
12 owed         colours owed the Seer's turns, in order ("ww"), or "-"
13 quiet        rounds without capture, "*" appended if a capture happened
                this round
14 deck         draw pile, "/", discard pile: mage codes comma separated, "-"
                for an empty pile; "?" when hidden
15 seed         the seed, or "?" when hidden; "%", "?", spaces and other
                unprintable characters of a chosen seed are %-escaped (UTF-8)
16 options      variant:no_progress_rounds, ":custom" appended if custom
17 result       "-" while running; else w, b or = then ":" and the reason
"""

from __future__ import annotations

from typing import Final
from urllib.parse import unquote

from .colours import BLACK, COLOUR_LETTERS, WHITE
from .errors import BadPosition
from .mages import MAGE_BY_CODE, MAGE_CODES, OFF, PRIVATE_WHITE
from .minions import (
    SQUARE_INDEX,
    SQUARE_NAMES,
    TYPE_LETTERS,
    code,
    has_bit,
    piece_letter,
    square_at,
)
from .state import DRAW, NO_WINNER, OVER, REASONS, State, _check_shape
from .variants import VARIANT_RULES, VARIANTS

_PHASE_LETTERS = "sdax"


def _number(text: str) -> bool:
    # ASCII digits only: str.isdigit() admits "²" and "٣", which int() refuses.
    return text.isascii() and text.isdigit()


# Each minion code's letter ("." for none), looked up rather than worked out: the
# position text is written for every version of every match.
_OCC: Final = tuple(piece_letter(piece) if piece else "." for piece in range(17))


def _occ(piece: int) -> str:
    return _OCC[piece]


def _read_occ(char: str) -> int:
    if char == ".":
        return 0
    kind = TYPE_LETTERS.find(char.upper())
    if kind < 0 or len(char) != 1:
        raise BadPosition(f"not a minion letter: {char!r}")
    return code(BLACK if char.islower() else WHITE, kind)


def _colours(bits: int) -> str:
    return "".join(COLOUR_LETTERS[c] for c in (WHITE, BLACK) if has_bit(bits, c)) or "-"


def _read_colours(text: str) -> int:
    if text == "-":
        return 0
    if text not in ("w", "b", "wb"):
        raise BadPosition(f"not a set of colours: {text!r}")
    return sum(1 << COLOUR_LETTERS.index(c) for c in text)


def _cards(cards: tuple[int, ...]) -> str:
    return ",".join(MAGE_CODES[m] for m in cards) or "-"


def _read_cards(text: str) -> tuple[int, ...]:
    if text == "-":
        return ()
    try:
        return tuple(MAGE_BY_CODE[c] for c in text.split(","))
    except KeyError as bad:
        raise BadPosition(f"unknown mage code {bad}") from None


def _seed(seed: str) -> str:
    # A custom match's seed is any text its creator chose: escape what would
    # split the field or read as the hidden marker, so the form round-trips.
    if seed.isascii() and seed.isalnum():  # nothing to escape (the usual seed: hex digits)
        return seed
    return "".join(
        c if c.isprintable() and not c.isspace() and c not in "%?"
        else "".join(f"%{b:02X}" for b in c.encode())
        for c in seed
    )


def _arena(arena: tuple[int, ...]) -> str:
    ranks = []
    for rank in range(7, -1, -1):
        text, gap = "", 0
        for file in range(8):
            piece = arena[square_at(file, rank)]
            if piece:
                text += (str(gap) if gap else "") + _OCC[piece]
                gap = 0
            else:
                gap += 1
        ranks.append(text + (str(gap) if gap else ""))
    return "/".join(ranks)


def _read_arena(text: str) -> tuple[int, ...]:
    ranks = text.split("/")
    if len(ranks) != 8:
        raise BadPosition("the arena has 8 ranks")
    arena = [0] * 64
    for i, row in enumerate(ranks):
        rank, file = 7 - i, 0
        for char in row:
            if _number(char):
                file += int(char)
            else:
                if file > 7:
                    raise BadPosition(f"rank {rank + 1} is too long")
                arena[square_at(file, rank)] = _read_occ(char)
                file += 1
        if file != 8:
            raise BadPosition(f"rank {rank + 1} does not hold 8 squares")
    return tuple(arena)


def _counts(counts: tuple[int, ...]) -> str:
    # Sixteen counts (a State's shape): one format, not sixteen str() calls.
    return _COUNTS.format(*counts)


_COUNTS: Final = "{}{}{}{}{}{}{}{}/{}{}{}{}{}{}{}{}"


def _read_counts(text: str) -> tuple[int, ...]:
    parts = text.split("/")
    if len(parts) != 2 or any(len(p) != 8 or not _number(p) for p in parts):
        raise BadPosition(f"counts are 8 digits / 8 digits, not {text!r}")
    return tuple(int(c) for c in parts[0] + parts[1])


def to_text(s: State, hide_secrets: bool = False) -> str:
    """The whole position; with `hide_secrets`, the deck and the seed masked
    while they are secret (a running match that is not custom)."""
    hidden = hide_secrets and not (s.phase == OVER or s.custom)
    return _text(s, hidden, hidden)


def public_text(s: State) -> str:
    """The position as every client may see it (R20), the `position` of the
    public match state: the deck field masked while the match runs, even in a
    custom match (whose deck the public seed could rebuild, but the public state
    never lists it); the seed shown exactly when the public state shows it."""
    running = s.phase != OVER
    return _text(s, running, running and not s.custom)


def _text(s: State, hide_deck: bool, hide_seed: bool) -> str:
    seat, occ = s.seat, s.occupant
    by_seat = {f: m for m, f in enumerate(seat) if f != OFF}
    fixed = "".join(_occ(occ[by_seat[f]]) for f in range(1, 13))
    chaos = ",".join(
        MAGE_CODES[by_seat[f]] + _occ(occ[by_seat[f]]) if f in by_seat else "-"
        for f in range(13, 17)
    )
    private = "/".join(
        ",".join(MAGE_CODES[m] + _occ(occ[m]) for m, f in enumerate(seat) if f == PRIVATE_WHITE + c)
        or "-"
        for c in (0, 1)
    )
    if s.phase == OVER:
        result = ("w", "b", "=")[s.winner] + ":" + REASONS[s.reason]
    else:
        result = "-"
    options = f"{VARIANTS[s.variant]}:{s.no_progress_rounds}" + (":custom" if s.custom else "")
    fields = [
        _arena(s.arena),
        _PHASE_LETTERS[s.phase] + COLOUR_LETTERS[s.to_move],
        COLOUR_LETTERS[s.orb],
        str(s.round),
        _counts(s.reserve),
        _counts(s.dead),
        fixed + "|" + chaos,
        private,
        _colours(s.passed),
        _colours(s.runes),
        ",".join(SQUARE_NAMES[q] for q in range(64) if s.warded(q)) or "-",
        "".join(COLOUR_LETTERS[c] for c in s.owed) or "-",
        str(s.quiet) + ("*" if s.captured else ""),
        "?" if hide_deck else _cards(s.deck) + "/" + _cards(s.discard),
        "?" if hide_seed else _seed(s.seed),
        options,
        result,
    ]
    return " ".join(fields)


def from_text(text: str) -> State:
    """The state a position text describes. Hidden ("?") fields cannot be read."""
    fields = text.split()
    if len(fields) != 17:
        raise BadPosition(f"a position has 17 fields, this one has {len(fields)}")
    (arena, turn, orb, rnd, reserve, dead, tower, private, passed, runes, wards, owed,
     quiet, deck, seed, options, result) = fields
    if "?" in (deck, seed):
        raise BadPosition("this position hides the deck or the seed; it cannot be played from")
    if len(turn) != 2 or turn[0] not in _PHASE_LETTERS or turn[1] not in COLOUR_LETTERS:
        raise BadPosition(f"bad turn field {turn!r}")
    if orb not in ("w", "b") or not _number(rnd):
        raise BadPosition("bad orb or round field")
    opt = options.split(":")
    if len(opt) not in (2, 3) or opt[0] not in VARIANTS or not _number(opt[1]) \
            or (len(opt) == 3 and opt[2] != "custom"):
        raise BadPosition(f"bad options field {options!r}")
    variant = VARIANTS.index(opt[0])

    seat, occupant = [OFF] * len(MAGE_CODES), [0] * len(MAGE_CODES)
    fixed, _, chaos = tower.partition("|")
    if len(fixed) != 12:
        raise BadPosition("the tower field starts with 12 occupants for floors 1-12")
    for floor, char in enumerate(fixed, start=1):
        seat[floor - 1], occupant[floor - 1] = floor, _read_occ(char)
    chambers = chaos.split(",")
    if len(chambers) != 4:
        raise BadPosition("the tower field ends with floors 13-16")
    for floor, entry in zip(range(13, 17), chambers, strict=True):
        if entry != "-":
            _seat_card(entry, floor, seat, occupant)
    sides = private.split("/")
    if len(sides) != 2:
        raise BadPosition("the private field is White's / Black's chambers")
    for colour, side in enumerate(sides):
        if side != "-":
            for entry in side.split(","):
                _seat_card(entry, PRIVATE_WHITE + colour, seat, occupant)
    rules = VARIANT_RULES[variant]
    floors_used = sorted(f for f in seat if 13 <= f <= 16)
    if tuple(floors_used) != rules.chaos_floors:
        raise BadPosition(f"the {opt[0]} tower uses chaos floors {rules.chaos_floors}")

    piles = deck.split("/")
    if len(piles) != 2:
        raise BadPosition("the deck field is draw pile / discard pile")
    wards_bits = 0
    if wards != "-":
        for name in wards.split(","):
            if name not in SQUARE_INDEX:
                raise BadPosition(f"not a square: {name!r}")
            wards_bits |= 1 << SQUARE_INDEX[name]
    if owed != "-" and any(c not in COLOUR_LETTERS for c in owed):
        raise BadPosition(f"bad owed field {owed!r}")
    captured = quiet.endswith("*")
    if not _number(quiet.rstrip("*")):
        raise BadPosition(f"bad quiet field {quiet!r}")
    winner, reason = NO_WINNER, -1
    if result != "-":
        who, _, why = result.partition(":")
        if who not in ("w", "b", "=") or why not in REASONS:
            raise BadPosition(f"bad result field {result!r}")
        winner, reason = ("w", "b", "=").index(who), REASONS.index(why)
        if winner == 2:
            winner = DRAW
    phase = _PHASE_LETTERS.index(turn[0])
    if (phase == OVER) != (result != "-"):
        raise BadPosition("a finished match has phase x and a result, and only it")
    state = State(
        arena=_read_arena(arena), reserve=_read_counts(reserve), dead=_read_counts(dead),
        seat=tuple(seat), occupant=tuple(occupant), phase=phase,
        to_move=COLOUR_LETTERS.index(turn[1]), orb=COLOUR_LETTERS.index(orb), round=int(rnd),
        passed=_read_colours(passed), runes=_read_colours(runes), wards=wards_bits,
        owed=tuple(COLOUR_LETTERS.index(c) for c in owed) if owed != "-" else (),
        quiet=int(quiet.rstrip("*")), captured=captured,
        deck=_read_cards(piles[0]), discard=_read_cards(piles[1]), seed=unquote(seed),
        custom=len(opt) == 3, variant=variant, no_progress_rounds=int(opt[1]),
        winner=winner, reason=reason,
    )
    _check_shape(state)
    return state


def _seat_card(entry: str, where: int, seat: list[int], occupant: list[int]) -> None:
    if len(entry) != 3 or entry[:2] not in MAGE_BY_CODE:
        raise BadPosition(f"a chamber is a mage code and an occupant, not {entry!r}")
    mage = MAGE_BY_CODE[entry[:2]]
    if mage < 12:
        raise BadPosition(f"{entry[:2]} is a fixed mage, not a chaos card")
    if seat[mage] != OFF:
        raise BadPosition(f"the mage {entry[:2]} appears twice")
    seat[mage], occupant[mage] = where, _read_occ(entry[2])
