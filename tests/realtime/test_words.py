"""Issue 16, defect 11: every update carries its entry in the engine's words
(`words`), live and when a reconnecting socket is caught up; the replay's
states say the same; the vocabulary route is the engine's document."""

from __future__ import annotations

from typing import Any

from app.matches import MatchService
from app.matches.publisher import Fanout, NullPublisher, RecordingPublisher
from app.matches.telling import entry_words
from app.rules import apply, describe, new_match, public_view
from app.rules.vocabulary import vocabulary
from tests.rules.helpers import position

from ..conftest import ROW, Api


async def test_updates_and_states_carry_the_engines_words(api: Api, sockets: Any) -> None:
    game = await api.start()
    watcher = await sockets(game.id)
    assert (await watcher.receive())["type"] == "snapshot"
    await api.setups(game)
    await api.act(game, "white", {"type": "place", "mage": "druid", "minion": "fey"})
    live = [(await watcher.receive_until(lambda m: m["type"] == "update"))[0] for _ in range(3)]
    # The engine, on its own state, says the same words.
    s = new_match("words")
    expected = []
    for colour_action in ({"type": "setup", "backrow": ROW}, {"type": "setup", "backrow": ROW},
                          {"type": "place", "mage": "druid", "minion": "fey"}):
        expected.append(describe(s, colour_action))
        s, _ = apply(s, colour_action)
    assert [u["words"] for u in live] == expected
    assert expected[-1] == "White places a fey on the Druid."

    # A socket that reconnects from version 2 is caught up with the same words.
    late = await sockets(game.id, since=2)
    caught = [(await late.receive_until(lambda m: m["type"] == "update"))[0] for _ in range(2)]
    assert [u["words"] for u in caught] == expected[1:]

    # The replay's states tell each entry alike, from any first version.
    for first in (1, 3, 4):
        states = (await api.client.get(f"{api.base}/{game.id}/states", params={"from": first})).json()["states"]
        words = ["Black joins the match.", *expected]
        assert [e["words"] for e in states] == words[first - 1:]


class Wordless(RecordingPublisher):
    """A listener that says it reads no words (as the bot runner is added)."""

    def hears_words(self, match_id: str) -> bool:
        return False


async def test_words_are_told_only_when_a_socket_here_reads_them(api: Api, service: MatchService,
                                                                 sockets: Any) -> None:
    """Issue 22: telling a removal rebuilds a position; with no socket of this
    process on the match, nobody reads the words, and they are not told."""
    recorder = Wordless()
    service.keeper.publisher.add(recorder)
    game = await api.start()
    await api.setups(game)
    assert recorder.updates[game.id] and all("words" not in u for u in recorder.updates[game.id])
    watcher = await sockets(game.id)
    assert (await watcher.receive())["type"] == "snapshot"
    await api.act(game, "white", {"type": "place", "mage": "druid", "minion": "fey"})
    assert recorder.updates[game.id][-1]["words"] == "White places a fey on the Druid."
    assert (await watcher.receive_until(lambda m: m["type"] == "update"))[0]["words"] == \
        "White places a fey on the Druid."


def test_a_listener_reads_the_words_unless_it_says_not() -> None:
    assert Fanout(RecordingPublisher()).hears_words("m")  # no `hears_words`: taken to read them
    assert not Fanout(Wordless(), NullPublisher()).hears_words("m")
    quiet = Fanout()
    quiet.add(RecordingPublisher(), reads_words=False)
    assert not quiet.hears_words("m")


async def test_the_vocabulary_route_is_the_engines_document(api: Api) -> None:
    r = await api.client.get("/api/v1/vocabulary")
    assert r.status_code == 200
    assert r.json() == vocabulary()


def test_the_teller_says_every_kind_of_entry() -> None:
    """app/matches/telling.py: the engine's words for game actions (from the public
    state before them), its own for the match's events."""
    s = position({"b7": "d", "c6": "F", "e1": "U", "h8": "c"}, turn="ab",
                 tower={"dragon_lord": "b", "magician": "S"}, chaos=("dream_lord", "magus", "force_mage", "shadow_mage"))
    view = public_view(s)
    remove = {"type": "remove", "mage": "dragon_lord", "power": {"move": ["b7", "c6"]}}
    assert entry_words(view, "black", remove) == (
        "Black removes a beast from the Dragon Lord and takes White's fey on c6 with the dragon from b7.")
    assert entry_words(view, "black", remove) == describe(s, remove)
    assert entry_words(None, "black", {"type": "pass"}, automatic=True) == "Black passes (nothing else to do, R11)."
    assert entry_words(None, "white", {"type": "place", "mage": "elemental_master", "minion": "undead"}) == (
        "White places an undead on the Elemental Master.")
    # A removal with no state to tell it from is said plainly, never an error.
    assert entry_words(None, "white", {"type": "remove", "mage": "magician", "power": None}) == "White plays remove."
    events = [
        ("black", {"type": "join"}, False, "Black joins the match."),
        ("white", {"type": "draw_offer"}, False, "White offers a draw."),
        ("black", {"type": "draw_decline"}, False, "Black declines the draw."),
        ("white", {"type": "draw_withdraw"}, False, "White withdraws the draw offer."),
        ("black", {"type": "draw_accept"}, False, "Black accepts the draw."),
        ("white", {"type": "resign"}, False, "White resigns."),
        ("black", {"type": "timeout"}, True, "Black runs out of time."),
        (None, {"type": "abort"}, True, "Nobody joined in time: the match is aborted."),
        ("white", {"type": "abort"}, False, "The match is aborted."),
        (None, {"type": "abort", "by": "admin", "note": "spam"}, False, "A server admin aborts the match: spam"),
        (None, {"type": "adjudicate", "winner": "black", "note": "cheat"}, False,
         "A server admin ends the match (Black wins): cheat"),
        ("black", {"type": "claim", "result": "win"}, False, "Black claims the win: White left the match."),
        ("white", {"type": "claim", "result": "draw"}, False, "White claims a draw: Black left the match."),
    ]
    for player, action, automatic, words in events:
        assert entry_words(None, player, action, automatic) == words
