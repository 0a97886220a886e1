"""Making a match and taking its free seat."""

from __future__ import annotations

import re
import secrets
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from app.accounts import COMPUTER_LEVELS, computer_account, playban
from app.accounts.profiles import ratings_in
from app.kernel import ids, text
from app.kernel.errors import BadRequest, Forbidden
from app.kernel.moments import moment
from app.ratings import may_play_rated
from app.rules import BadPosition, MalformedAction, State, commitment, playable, to_text

from . import bot_store, store
from .bot_store import Owner
from .clock import Clock
from .errors import IllegalPosition, MatchIsOver, SeatTaken
from .keeper import MatchKeeper, setup_seconds
from .ranges import checked_range, guard_join
from .record import COLOURS, Record, SeatInfo, other
from .replay import initial_state
from .seats import Seats, hash_token, new_seat_token
from .shapes import MatchState

RATED_RULE = "a rated match is played by two accounts, or an account and a computer level"


@dataclass(slots=True)
class Seated:
    """What create and join answer: the match, the seat taken and its token (shown once)."""

    match: MatchState
    seat: str
    token: str


def new_match_id() -> str:
    """12 URL-safe characters (72 bits) that never begin with "-" or "_": such an
    id would read as an option on a command line and as a formula in a
    spreadsheet (the admin's CSV export guards those cells)."""
    while True:
        match_id = secrets.token_urlsafe(9)
        if match_id[0] not in "-_":
            return match_id


def _whole(seconds: float | None) -> float | int | None:
    return int(seconds) if seconds is not None and float(seconds).is_integer() else seconds


async def rated_seats(keeper: MatchKeeper, seats: dict[str, SeatInfo], variant: str) -> None:
    """Each account's seat shows its rating in the match's variant,
    its account's name and title ("BOT"): one read, and none when no seat is an account's."""
    found = await ratings_in(keeper.engine, [s.account_id for s in seats.values() if s.account_id is not None],
                             variant)
    for seat in seats.values():
        if seat.account_id is not None and seat.account_id in found:
            name, rating, seat.title = found[seat.account_id]
            seat.account = seat.account or name
            seat.rating = rating.public()


def starting_position(options: dict[str, Any]) -> State:
    """The position a casual match starts from, checked: IllegalPosition (422)
    naming what is wrong. Such a match is custom: its creator wrote its seed
    and deck, so both are public from the start (R20 keeps nothing secret that
    one player already knows)."""
    if options.get("seed") is not None or options.get("chaos"):
        raise IllegalPosition("the position holds the seed and the chaos mages: leave options.seed and "
                              "options.chaos out")
    problem = text.flaw(options["position"], line_breaks=False)
    if problem:
        raise IllegalPosition(f"position holds {problem}")
    try:
        start = playable(options["position"])
    except BadPosition as error:
        raise IllegalPosition(f"position: {error}") from None
    for key, value in (("variant", start.variant_name), ("no_progress_rounds", start.no_progress_rounds)):
        if key in options and options[key] != value:
            raise IllegalPosition(f"options.{key} is {options[key]!r} but the position says {value!r} "
                                  "(its field 16); leave it out or make them agree")
    if not re.fullmatch(ids.SEED, start.seed):
        raise IllegalPosition("the position's seed (field 15) is 1 to 128 characters, none a control character")
    start.custom = True  # a fresh State, not yet handed out
    return start


class Lobby:
    def __init__(self, keeper: MatchKeeper, seats: Seats, bot_levels: Collection[str]) -> None:
        self.keeper, self.seats = keeper, seats
        self.bot_levels = tuple(bot_levels)

    async def create(
        self, options: dict[str, Any], seat: str = "random", opponent: str = "human", name: str = "anonymous",
        owner: Owner | None = None, rated: bool = False, account_id: int | None = None,
        account: str | None = None, origin: str | None = None,
    ) -> Seated:
        """Make a match. With a bot opponent, `owner` is who it counts against
        (TooManyBotMatches once they hold `owner.cap` running ones). `account_id`:
        the signed-in creator's account (None: a guest); `rated`: the match moves
        ratings, which only two accounts, or an account and a computer level, may
        play (the joining player's account is checked at join); `account`: its name;
        `origin`: where the creator's seat was taken from (app/kernel/origins.py)."""
        keeper = self.keeper
        # guard
        if rated and options.get("position") is not None:
            raise BadRequest("a match from a position is casual: a rated match starts from the standard start")
        bot = self._bot_level(opponent)
        computer = await self._rated_guard(rated, account_id, bot)
        if rated:  # a player waiting after leaving rated matches plays casual meanwhile
            await playban.check(keeper.engine, account_id, moment(keeper.now_ms()))
        if seat not in ("white", "black", "random"):
            raise BadRequest("seat is white, black or random")
        colour = secrets.choice(COLOURS) if seat == "random" else seat
        text.check("name", name, line_breaks=False)  # the API's schema refuses more; this is the floor
        if isinstance(options.get("seed"), str):
            text.check("options.seed", options["seed"], line_breaks=False)
        opts = self._options(options)
        asked = checked_range(options, account_id, bot)
        if asked is not None:  # in the options only when asked: the public state shows it
            opts["rating_range"] = asked
        if options.get("listed") is False:  # for a friend, who has the link: nobody else is shown it
            opts["listed"] = False
        if not bot:
            del opts["bot_think_seconds"]  # nobody to think
        chosen_seed = options.get("seed")
        chaos = options.get("chaos") or None
        seed = chosen_seed or secrets.token_hex(16)  # 128 bits (R20)
        custom = bool(chosen_seed or chaos)
        if options.get("position") is not None:
            start = starting_position(options)
            opts.update(variant=start.variant_name, no_progress_rounds=start.no_progress_rounds,
                        position=to_text(start))
            seed, custom = start.seed, True
        # rules
        try:
            state = initial_state(seed, opts, chaos, custom)
        except MalformedAction as error:
            raise BadRequest(str(error)) from None
        now = keeper.now_ms()
        token = new_seat_token()
        seats = {colour: SeatInfo(name, hash_token(token), None, False, now, now, account_id,
                                  account if account_id is not None else None, origin=origin)}
        if bot:
            seats[other(colour)] = SeatInfo(f"{bot} bot", None, bot, True, now, now, computer,
                                            COMPUTER_LEVELS.get(bot) if computer is not None else None)
        await rated_seats(keeper, seats, opts["variant"])
        rec = Record(
            id=new_match_id(), status="waiting", options=opts, seed=seed,
            seed_commitment=commitment(seed), custom=custom, chaos=chaos, state=state, version=0,
            clock=Clock.from_options(opts["time_control"]), due_at_ms=None, draw_offer=None, result=None,
            created_ms=now, updated_ms=now, finished_ms=None, seats=seats, rated=rated,
        )
        if bot:
            keeper.begin(rec, now)
        elif opts["join_timeout_seconds"] is not None:
            rec.due_at_ms = now + opts["join_timeout_seconds"] * 1000
        # save (a bot match is enrolled, and its owner's running ones counted, in the same transaction)
        async def enrol(conn: AsyncConnection) -> None:
            await bot_store.enrol(conn, rec.id, owner)

        await store.insert(keeper.engine, rec, enrol if bot else None)
        keeper.cache.put(rec)
        self.seats.seen(rec.id, colour, now)
        # publish: version 0 has no update; listeners (a bot holding White) hear of it
        present = keeper.present(rec, now)
        await keeper.publish(rec.id, [{"type": "created", "version": 0, "match": present}])
        return Seated(present, colour, token)

    async def _rated_guard(self, rated: bool, account_id: int | None, bot: str | None) -> int | None:
        """Refuse a rated match that cannot be one; answers the account of the
        computer level a rated bot match is played against."""
        if not rated:
            return None
        # A human opponent is an account or nobody: join lets no guest in.
        if not may_play_rated("account" if account_id is not None else "guest", "computer" if bot else "account"):
            raise BadRequest(f"{RATED_RULE}: sign in to play rated")
        if bot is None:
            return None
        computer = await computer_account(self.keeper.engine, bot, moment(self.keeper.now_ms()))
        if computer is None:
            raise BadRequest(f"{RATED_RULE}: the {bot} level plays no rated match")
        return computer

    def _bot_level(self, opponent: str) -> str | None:
        if opponent == "human":
            return None
        if opponent.startswith("bot:") and opponent[4:] in self.bot_levels:
            return opponent[4:]
        raise BadRequest(
            f"opponent is \"human\" or \"bot:<level>\"; the levels are {', '.join(self.bot_levels)}")

    def _options(self, options: dict[str, Any]) -> dict[str, Any]:
        settings = self.keeper.settings
        time_control = options.get("time_control")
        abandon = options.get("abandon_seconds")
        if abandon is None:  # correspondence matches have no claims: the clock decides
            if time_control is None:
                abandon = settings.abandon_untimed_seconds
            elif time_control["type"] == "realtime":
                abandon = settings.abandon_seconds
        if isinstance(abandon, float) and abandon.is_integer():
            abandon = int(abandon)  # 600, as a creator's own choice is written, not 600.0
        join = options.get("join_timeout_seconds") or settings.join_timeout_seconds
        return {
            "variant": options.get("variant", "standard"),
            "no_progress_rounds": options.get("no_progress_rounds", 10),
            "time_control": time_control,
            "join_timeout_seconds": join,
            "abandon_seconds": abandon,
            # Bounded by the server: the options show what the bot is given.
            "bot_think_seconds": min(options.get("bot_think_seconds") or settings.bot_think_seconds,
                                     settings.bot_max_think_seconds),
            # Written into the match, so a later change of the setting leaves it be.
            "setup_seconds": _whole(setup_seconds({"time_control": time_control}, settings.setup_seconds)),
        }

    async def join(self, match_id: str, name: str = "anonymous", account_id: int | None = None,
                   account: str | None = None, origin: str | None = None) -> Seated:
        """Take the free seat; `account_id`: the signed-in player's account (None: a
        guest), `account` its name. Nobody takes both seats of a match as one account."""
        keeper = self.keeper
        text.check("name", name, line_breaks=False)
        token = new_seat_token()

        async def decide(rec: Record, now: int) -> str:
            if rec.status == "finished":
                raise MatchIsOver("the match is over; nobody can join it")
            free = [c for c in COLOURS if c not in rec.seats]
            if not free:
                raise SeatTaken("both seats of this match are taken")
            colour = free[0]
            if rec.rated and account_id is None:
                raise Forbidden(f"{RATED_RULE}: sign in to join this rated match")
            if rec.rated:
                await playban.check(keeper.engine, account_id, moment(now))
            if account_id is not None and account_id in rec.seat_accounts().values():
                raise Forbidden("your account holds the other seat of this match: nobody plays themselves")
            rec.seats[colour] = SeatInfo(name, hash_token(token), None, False, now, now, account_id,
                                         account if account_id is not None else None, origin=origin)
            await rated_seats(keeper, {colour: rec.seats[colour]}, rec.options["variant"])
            guard_join(rec, rec.seats[colour], rec.options["variant"])  # a seek's rating range
            rec.new_seats.append(colour)
            keeper.begin(rec, now)
            keeper.log(rec, colour, {"type": "join"}, False, now)
            return colour

        rec, colour = await keeper.mutate(match_id, decide, fresh=True)
        self.seats.seen(match_id, colour, rec.updated_ms)
        return Seated(rec.entries[-1].public if rec.entries else keeper.present(rec), colour, token)
