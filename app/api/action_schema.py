"""Actions as named schemas, for the OpenAPI description.

The server reads an action with the rules' own parser (app/rules/actions.py,
`parse_action`), whose refusals name the problem; these models only say the
same shapes in the schema (each a named component, so a generated client gets
`PlaceAction`, not `PlayActionType1`), so that nothing they admit is refused as
malformed. What they admit may still be illegal in the position (422
`illegal_action`, naming the rule): that is the game's to judge, not a schema's.

The log holds the game's actions and the match's other events (docs/api.md,
"The log"): `LogAction` names every one, told apart by `type`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, GetJsonSchemaHandler, RootModel
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from app.rules.mages import MAGES
from app.rules.minions import TYPES

Colour = Literal["white", "black"]
Mage = Literal[MAGES]  # type: ignore[valid-type]
MinionType = Literal[TYPES]  # type: ignore[valid-type]
Square = Annotated[str, Field(pattern="^[a-h][1-8]$", examples=["c3"])]
TwoSquares = Annotated[list[Square], Field(min_length=2, max_length=2, examples=[["b2", "c3"]])]


def absent(description: str, **bounds: Any) -> Any:
    """A field left out, never null, where it does not apply: the schema admits
    only its type and does not require it."""
    return Field(None, description=description, **bounds)


def tag_required(schema: dict[str, Any]) -> None:
    """Keeps a union form's `type` required while it also has a default.

    The `type` that tells a union's forms apart is written `Literal["x"] = "x"`:
    its schema is then `{"const": "x", "default": "x"}`, so that a client
    generated from the description (openapi-python-client) fills it in by itself
    instead of making every caller pass it. pydantic drops a field with a
    default from `required`; the server still needs it on the wire (the
    discriminated unions find the form by it, and refuse a body without it), so
    the description says so."""
    kind = schema.get("properties", {}).get("type", {})
    if "const" in kind and "type" not in schema.setdefault("required", []):
        schema["required"].insert(0, "type")


class Exactly(BaseModel):
    """An object with exactly its fields (`additionalProperties: false`)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=tag_required)


# ---- a mage's power, by the mages that use them (docs/notation.md) --------------

class PlainPower(Exactly):
    """A power with no choice to make (Oracle, Rune Master): `{}`, nothing in it."""


class MovePower(Exactly):
    move: TwoSquares = Field(description="from, to")


class SummonPower(Exactly):
    summon: Square


class TargetPower(Exactly):
    target: Mage


class PlayerPower(Exactly):
    player: Colour


class SquareMinionPower(Exactly):
    square: Square
    minion: MinionType


class SquarePower(Exactly):
    square: Square


class SwapPower(Exactly):
    swap: TwoSquares


# The empty form last: a client that tries each form in turn tries it only when
# no other fits (it admits nothing but `{}` itself: additionalProperties false).
OwnPower = MovePower | SummonPower | TargetPower | PlayerPower | SquareMinionPower | SquarePower | SwapPower | PlainPower


class BorrowedPower(Exactly):
    """The Dream Lord's: a chaos mage not in play, and that mage's power."""

    mage: Mage
    power: OwnPower


class Power(RootModel[MovePower | SummonPower | TargetPower | PlayerPower | SquareMinionPower | SquarePower
                      | SwapPower | BorrowedPower | PlainPower]):
    """A power's payload: which form, by mage (docs/notation.md). No field tells
    the forms apart: each has its own fields, and no form admits another's."""


# ---- the four game actions ------------------------------------------------------

class SetupAction(Exactly):
    type: Literal["setup"] = "setup"
    backrow: list[MinionType] = Field(min_length=8, max_length=8,
                                      description="files a to h; any order of the eight types")


class PlaceAction(Exactly):
    type: Literal["place"] = "place"
    mage: Mage
    minion: MinionType


class PassAction(Exactly):
    type: Literal["pass"] = "pass"


class RemoveAction(Exactly):
    type: Literal["remove"] = "remove"
    mage: Mage
    power: Power | None = Field(description="the power's payload, by mage; null declines the power")


GameAction = Annotated[SetupAction | PlaceAction | PassAction | RemoveAction, Field(discriminator="type")]


class Action(RootModel[GameAction]):
    """An action in the contract's JSON form (docs/notation.md), told apart by `type`."""


# ---- the match's other events, in the log ---------------------------------------

class JoinEvent(Exactly):
    type: Literal["join"] = "join"


class DrawOfferEvent(Exactly):
    type: Literal["draw_offer"] = "draw_offer"


class DrawDeclineEvent(Exactly):
    type: Literal["draw_decline"] = "draw_decline"


class DrawWithdrawEvent(Exactly):
    type: Literal["draw_withdraw"] = "draw_withdraw"


class DrawAcceptEvent(Exactly):
    type: Literal["draw_accept"] = "draw_accept"


class TakebackOfferEvent(Exactly):
    type: Literal["takeback_offer"] = "takeback_offer"


class TakebackDeclineEvent(Exactly):
    type: Literal["takeback_decline"] = "takeback_decline"


class TakebackWithdrawEvent(Exactly):
    type: Literal["takeback_withdraw"] = "takeback_withdraw"


class TakebackAcceptEvent(Exactly):
    """The match goes back to the state after version `to`: the one just before
    the asker's last choice."""

    type: Literal["takeback_accept"] = "takeback_accept"
    to: int = Field(ge=0, description="the version whose state the match goes back to")


class GiveTimeEvent(Exactly):
    """The player gives their opponent `seconds` more on the clock."""

    type: Literal["give_time"] = "give_time"
    seconds: int = Field(gt=0)


class BerserkEvent(Exactly):
    """The player went berserk in an arena game: their own clock halved, for a point more if they win."""

    type: Literal["berserk"] = "berserk"


class ResignEvent(Exactly):
    type: Literal["resign"] = "resign"


class TimeoutEvent(Exactly):
    type: Literal["timeout"] = "timeout"


class AbortEvent(Exactly):
    """A seat's abort, the server's (a join timeout; `late`: the side that did not
    set up in time) or a server admin's (`by`, `note`)."""

    type: Literal["abort"] = "abort"
    late: Colour = absent(description="only when a side did not set up in time")
    by: Literal["admin"] = absent(description="only on a server admin's abort")
    note: str = absent(description="only on a server admin's abort: the reason")


class ClaimEvent(Exactly):
    type: Literal["claim"] = "claim"
    result: Literal["win", "draw"]


class AdjudicateEvent(Exactly):
    type: Literal["adjudicate"] = "adjudicate"
    winner: Colour | None
    note: str = Field(description="the server admin's reason")


class RematchOfferEvent(Exactly):
    type: Literal["rematch_offer"] = "rematch_offer"


class RematchWithdrawEvent(Exactly):
    type: Literal["rematch_withdraw"] = "rematch_withdraw"


class RematchDeclineEvent(Exactly):
    type: Literal["rematch_decline"] = "rematch_decline"


class RematchEvent(Exactly):
    type: Literal["rematch"] = "rematch"
    match_id: str = Field(description="the rematch's id")


class LogAction(RootModel[Annotated[
    SetupAction | PlaceAction | PassAction | RemoveAction | JoinEvent | DrawOfferEvent | DrawDeclineEvent
    | DrawWithdrawEvent | DrawAcceptEvent | ResignEvent | TimeoutEvent | AbortEvent | ClaimEvent
    | AdjudicateEvent | RematchOfferEvent | RematchWithdrawEvent | RematchDeclineEvent | RematchEvent
    | TakebackOfferEvent | TakebackDeclineEvent | TakebackWithdrawEvent | TakebackAcceptEvent | GiveTimeEvent
    | BerserkEvent,
    Field(discriminator="type")]]):
    """A log entry's action: a game action or one of the match's other events,
    told apart by `type` (docs/api.md, "The log"). Ignore a type you do not know."""


class DocumentedAsAction:
    """Annotates a field read as a plain dict (the rules' parser reads it) with
    `Action`'s schema, so that the request and the answers share one component."""

    def __get_pydantic_json_schema__(self, _: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        return handler(Action.__pydantic_core_schema__)
