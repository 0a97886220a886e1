"""Actions: the contract's JSON form and the engine's compact tuple form.

The engine works on tuples (hashable, cheap to build and compare):

    ("setup", (t0, ..., t7))        backrow types on files a..h
    ("place", mage, type)
    ("pass",)
    ("remove", mage, power)         power is None (declined) or one of:
        ("move", from, to)  ("summon", square)  ("use",)  ("target", mage)
        ("player", colour)  ("alchemy", square, type)  ("square", square)
        ("swap", a, b)      ("dream", chaos_mage, power)

`parse_action` reads the JSON form and checks its shape only (MalformedAction);
whether the action is legal is the engine's question.

Each form has its typed alias (`Played`, `Payload`): `parse_action` answers
one, and the engine's callers (app/matches) are checked against them by strict
mypy. Inside, the engine works on `Action` (any tuple): the typed forms are the
same tuples at run time, and mypyc compiles a union of tuples as a plain object,
so only the signatures at the boundary name them (bench/rules.py: no change).
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

from .colours import COLOURS
from .errors import MalformedAction
from .mages import MAGE_INDEX, MAGES
from .minions import SQUARE_INDEX, SQUARE_NAMES, TYPE_INDEX, TYPES

Action = tuple[Any, ...]
Power = tuple[Any, ...] | None

# A power's payload, by its tag (squares, mages, minion types and colours as the engine's indexes).
MovePower: TypeAlias = tuple[Literal["move"], int, int]  # from, to
SummonPower: TypeAlias = tuple[Literal["summon"], int]  # square
UsePower: TypeAlias = tuple[Literal["use"]]
TargetPower: TypeAlias = tuple[Literal["target"], int]  # mage
PlayerPower: TypeAlias = tuple[Literal["player"], int]  # colour
AlchemyPower: TypeAlias = tuple[Literal["alchemy"], int, int]  # square, minion type
SquarePower: TypeAlias = tuple[Literal["square"], int]  # square
SwapPower: TypeAlias = tuple[Literal["swap"], int, int]  # two squares, in swap_key order
# The Chaos Mage and its borrowed power: a payload too, typed loosely (mypyc's build fails on a recursive alias).
DreamPower: TypeAlias = tuple[Literal["dream"], int, tuple[Any, ...]]
Payload: TypeAlias = (MovePower | SummonPower | UsePower | TargetPower | PlayerPower | AlchemyPower
                      | SquarePower | SwapPower | DreamPower)

# An action, by its kind.
SetupAction: TypeAlias = tuple[Literal["setup"], tuple[int, ...]]  # the backrow's types, files a..h
PlaceAction: TypeAlias = tuple[Literal["place"], int, int]  # mage, minion type
PassAction: TypeAlias = tuple[Literal["pass"]]
RemoveAction: TypeAlias = tuple[Literal["remove"], int, Payload | None]  # mage, its power (None: declined)
Played: TypeAlias = SetupAction | PlaceAction | PassAction | RemoveAction


def _keys(obj: dict[str, Any], required: set[str], what: str) -> None:
    extra = set(obj) - required
    missing = required - set(obj)
    if extra:
        raise MalformedAction(f"{what} has unknown field(s): {', '.join(sorted(extra))}")
    if missing:
        raise MalformedAction(f"{what} lacks field(s): {', '.join(sorted(missing))}")


def _square(value: Any, what: str) -> int:
    if isinstance(value, str) and value in SQUARE_INDEX:
        return SQUARE_INDEX[value]
    raise MalformedAction(f"{what} must be a square from a1 to h8, not {value!r}")


def _type(value: Any, what: str) -> int:
    if isinstance(value, str) and value in TYPE_INDEX:
        return TYPE_INDEX[value]
    raise MalformedAction(f"{what} must be a minion type ({', '.join(TYPES)}), not {value!r}")


def _mage(value: Any, what: str) -> int:
    if isinstance(value, str) and value in MAGE_INDEX:
        return MAGE_INDEX[value]
    raise MalformedAction(f"{what} must be a mage's name, not {value!r}")


def _pair(value: Any, what: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise MalformedAction(f"{what} must be a list of two squares")
    return _square(value[0], what), _square(value[1], what)


def swap_key(square: int) -> str:
    return SQUARE_NAMES[square]


def parse_power(value: Any) -> Payload | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise MalformedAction("power must be an object or null")
    keys = set(value)
    if not keys:
        return ("use",)
    if keys == {"move"}:
        a, b = _pair(value["move"], "move")
        return ("move", a, b)
    if keys == {"summon"}:
        return ("summon", _square(value["summon"], "summon"))
    if keys == {"target"}:
        return ("target", _mage(value["target"], "target"))
    if keys == {"player"}:
        if value["player"] not in COLOURS:
            raise MalformedAction("player must be \"white\" or \"black\"")
        return ("player", COLOURS.index(value["player"]))
    if keys == {"square", "minion"}:
        return ("alchemy", _square(value["square"], "square"), _type(value["minion"], "minion"))
    if keys == {"square"}:
        return ("square", _square(value["square"], "square"))
    if keys == {"swap"}:
        a, b = _pair(value["swap"], "swap")
        a, b = sorted((a, b), key=swap_key)
        return ("swap", a, b)
    if keys == {"mage", "power"}:
        inner = parse_power(value["power"])
        if inner is None:
            raise MalformedAction("the Dream Lord's borrowed power cannot be null")
        return ("dream", _mage(value["mage"], "mage"), inner)
    raise MalformedAction(f"power has an unknown form: fields {', '.join(sorted(keys))}")


def parse_action(value: Any) -> Played:
    """The engine tuple of a contract action (JSON already decoded)."""
    if not isinstance(value, dict):
        raise MalformedAction("an action must be a JSON object")
    kind = value.get("type")
    if kind == "setup":
        _keys(value, {"type", "backrow"}, "setup")
        row = value["backrow"]
        if not isinstance(row, list) or len(row) != 8:
            raise MalformedAction("backrow must list 8 minion types, files a to h")
        return ("setup", tuple(_type(t, "backrow") for t in row))
    if kind == "place":
        _keys(value, {"type", "mage", "minion"}, "place")
        return ("place", _mage(value["mage"], "mage"), _type(value["minion"], "minion"))
    if kind == "pass":
        _keys(value, {"type"}, "pass")
        return ("pass",)
    if kind == "remove":
        _keys(value, {"type", "mage", "power"}, "remove")
        return ("remove", _mage(value["mage"], "mage"), parse_power(value["power"]))
    raise MalformedAction(f"unknown action type {kind!r}; one of setup, place, pass, remove")


def power_json(power: Power) -> dict[str, Any] | None:
    if power is None:
        return None
    tag = power[0]
    if tag == "move":
        return {"move": [SQUARE_NAMES[power[1]], SQUARE_NAMES[power[2]]]}
    if tag == "summon":
        return {"summon": SQUARE_NAMES[power[1]]}
    if tag == "use":
        return {}
    if tag == "target":
        return {"target": MAGES[power[1]]}
    if tag == "player":
        return {"player": COLOURS[power[1]]}
    if tag == "alchemy":
        return {"square": SQUARE_NAMES[power[1]], "minion": TYPES[power[2]]}
    if tag == "square":
        return {"square": SQUARE_NAMES[power[1]]}
    if tag == "swap":
        return {"swap": [SQUARE_NAMES[power[1]], SQUARE_NAMES[power[2]]]}
    if tag == "dream":
        return {"mage": MAGES[power[1]], "power": power_json(power[2])}
    raise ValueError(f"not a power: {power!r}")


def action_json(action: Action) -> dict[str, Any]:
    """The contract's JSON form of an engine tuple."""
    kind = action[0]
    if kind == "setup":
        return {"type": "setup", "backrow": [TYPES[t] for t in action[1]]}
    if kind == "place":
        return {"type": "place", "mage": MAGES[action[1]], "minion": TYPES[action[2]]}
    if kind == "pass":
        return {"type": "pass"}
    if kind == "remove":
        return {"type": "remove", "mage": MAGES[action[1]], "power": power_json(action[2])}
    raise ValueError(f"not an action: {action!r}")
