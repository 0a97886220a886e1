"""`?legal=true`'s send (app/api/legal_lines.py) on its own: a state is asked
about only when it is the seat's turn, whether the hub said so beside the text
(a `StateFrame`) or the text has to say it; what the read answers goes in, and
a read that fails or answers nothing leaves the message as it was."""

from __future__ import annotations

import json
from typing import Any

from app.api.legal_lines import with_legal
from app.realtime.frames import StateFrame, dumps, state_frame

LEGAL = '{"version":7,"actions":[{"type":"pass"}],"setup":[]}'


def state(to_move: str | None, status: str = "active", version: int = 7) -> dict[str, Any]:
    return {"id": "m", "version": version, "status": status, "to_move": to_move, "board": [1, 2]}


class Seat:
    """A seat's `?legal=true` send over a recording one, with a `legal_at` that says what it was asked."""

    def __init__(self, seat: str, answer: str | None = LEGAL, fails: bool = False) -> None:
        self.sent: list[dict[str, Any]] = []
        self.asked: list[int] = []
        self.answer, self.fails = answer, fails
        self.send = with_legal(self._record, seat, self._legal_at)

    async def _record(self, event: dict[str, Any]) -> None:
        self.sent.append(event)

    async def _legal_at(self, version: int) -> str | None:
        self.asked.append(version)
        if self.fails:
            raise RuntimeError("the database is away")
        return self.answer


async def test_a_state_frame_is_asked_about_only_by_the_seat_whose_turn_it_is() -> None:
    update: dict[str, Any] = {"type": "update", "version": 7, "match": state("black")}
    event = state_frame(update, update["match"])
    white, black = Seat("white"), Seat("black")
    await white.send(event)
    await black.send(event)
    assert white.asked == [] and white.sent == [event]
    assert black.asked == [7]
    assert json.loads(black.sent[0]["text"]) == {**update, "legal": json.loads(LEGAL)}


async def test_a_finished_or_waiting_state_asks_nothing() -> None:
    for status, to_move in (("finished", None), ("waiting", "white")):
        update: dict[str, Any] = {"type": "update", "version": 7, "match": state(to_move, status)}
        white = Seat("white")
        await white.send(state_frame(update, update["match"]))
        assert white.asked == [] and "legal" not in json.loads(white.sent[0]["text"])


async def test_a_delta_frame_says_the_turn_of_the_state_after_it() -> None:
    after = state("white")
    delta = {"type": "delta", "version": 7, "base": 6, "status": "active", "changes": []}  # the turn did not change
    white, black = Seat("white"), Seat("black")
    for seat in (white, black):
        await seat.send(state_frame(delta, after))
    assert white.asked == [7] and json.loads(white.sent[0]["text"])["legal"] == json.loads(LEGAL)
    assert black.asked == [] and "legal" not in json.loads(black.sent[0]["text"])


async def test_no_answer_or_a_failed_read_sends_the_message_as_it_was() -> None:
    update: dict[str, Any] = {"type": "update", "version": 7, "match": state("white")}
    event = state_frame(update, update["match"])
    for seat in (Seat("white", answer=None), Seat("white", fails=True)):
        await seat.send(event)
        assert seat.asked == [7] and seat.sent == [event]


async def test_a_state_as_plain_text_is_read_for_its_turn() -> None:
    update: dict[str, Any] = {"type": "update", "version": 7, "match": state("black")}
    event = {"type": "websocket.send", "text": dumps(update)}
    white, black = Seat("white"), Seat("black")
    await white.send(event)
    await black.send(event)
    assert white.asked == [] and black.asked == [7]
    delta = {"type": "delta", "version": 8, "base": 7, "status": "active", "changes": []}
    await white.send({"type": "websocket.send", "text": dumps(delta)})  # its turn is not said: asked
    assert white.asked == [8]
    ended = {**delta, "version": 9, "status": "finished"}
    await white.send({"type": "websocket.send", "text": dumps(ended)})
    assert white.asked == [8]


async def test_other_messages_pass_untouched() -> None:
    white = Seat("white")
    for message in ({"type": "presence", "version": 7}, {"type": "ack", "id": "a", "version": 7}):
        await white.send({"type": "websocket.send", "text": dumps(message)})
    await white.send({"type": "websocket.close", "code": 1001})
    assert white.asked == [] and len(white.sent) == 3


def test_a_state_frame_is_the_send_event_with_what_its_state_said() -> None:
    frame = StateFrame('{"type":"snapshot"}', state("black", version=3))
    assert frame == {"type": "websocket.send", "text": '{"type":"snapshot"}'}
    assert (frame.version, frame.acting) == (3, "black")
    assert StateFrame("{}", state("black", "finished")).acting is None
