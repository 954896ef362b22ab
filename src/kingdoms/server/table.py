"""Live games and their seats: the master's data, credentials and request errors."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kingdoms.bots.base import Bot
from kingdoms.core.errors import KingdomsError
from kingdoms.core.record import GameRecord
from kingdoms.core.state import State
from kingdoms.server.logtext import seat_names, with_names

HUMAN, BOT = "human", "bot"


class RequestError(KingdomsError):
    """A request the master refuses; ``code`` is machine-readable, the text is for people."""

    def __init__(self, code: str, message: str, detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.detail = detail
        """The error as an interface message (``msgid``, ``args``, maybe ``suggest``) for
        clients to show in their language; None: only the English text."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


Sender = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(eq=False)
class Subscriber:
    """One connection watching some seats of one game (several seats: hot-seat)."""

    seats: tuple[int, ...]
    send: Sender
    lang: str = "en"
    log_sent: dict[int, int] = field(default_factory=dict)

    def log_start(self, seat: int, log_length: int) -> int:
        """Where the part of a seat's log this connection has not seen yet starts (all
        of it again after an undo shortened the log); the log counts as sent now."""
        start = self.log_sent.get(seat, 0)
        self.log_sent[seat] = log_length
        return 0 if start > log_length else start


@dataclass(eq=False)
class Table:
    """A live game: its state, seats, bots and connections."""

    id: str
    state: State
    seats: list[dict[str, Any]]
    meta: dict[str, Any]
    bots: dict[int, Bot]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: list[Subscriber] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None
    prev: tuple[int, State] | None = None
    """The state before the last action (keyed by the step it precedes), for undo."""
    prev_reveal: tuple[State, str | None] | None = None
    """Whether the last action revealed anything (keyed by the ``prev`` state object)."""
    ended: dict[str, Any] | None = None
    """The outcome of a game ended before its rules end it (resigned, abandoned)."""
    version: int = 0
    """The stored version this state is (see :class:`~kingdoms.server.storage.StoredGame`)."""
    lease_until: float = 0.0
    """Until when this process holds the lease to run the game's bots (shared databases)."""

    @property
    def finished(self) -> bool:
        return self.ended is not None or self.state.is_terminal()

    def outcome_json(self) -> dict[str, Any] | None:
        """The final outcome (the rules' one, or how the game was ended early)."""
        if self.ended is not None:
            return self.ended
        out = self.state.outcome()
        return out.to_json() if out is not None else None

    def seat_of(self, token: str) -> int | None:
        digest = hash_token(token)
        for i, seat in enumerate(self.seats):
            if seat.get("kind") == HUMAN and secrets.compare_digest(
                seat.get("token_hash", ""), digest
            ):
                return i
        return None

    def record(self) -> GameRecord:
        names = [str(s.get("name", f"Player {i + 1}")) for i, s in enumerate(self.seats)]
        return GameRecord(
            config=self.state.config,
            actions=tuple(self.state.history),
            seats=tuple(names),
            meta={"server_game_id": self.id},
        )


def public_seats(seats: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The seat table without credentials."""
    return [
        {
            "seat": i,
            "name": s.get("name", f"Player {i + 1}"),
            "kind": s.get("kind"),
            **({"bot": s["bot"]} if s.get("kind") == BOT else {}),
            "joined": bool(s.get("joined")) or s.get("kind") == BOT,
        }
        for i, s in enumerate(seats)
    ]


def state_message(table: Table, sub: Subscriber, log_seat: int, view: Any) -> dict[str, Any]:
    """What every state message holds: the game, whose decision it is, the seats,
    ``view`` and the part of ``log_seat``'s log that ``sub`` has not seen yet (no
    choices: the caller adds a seat's)."""
    state = table.state
    full_log = state.log_for(log_seat)
    start = sub.log_start(log_seat, len(full_log))
    names, lang = seat_names(table.seats), sub.lang
    msg: dict[str, Any] = {
        "type": "state",
        "game_id": table.id,
        "game": state.config.game,
        "state_id": state.step,
        "current_player": state.current_player,
        "finished": table.finished,
        "seats": public_seats(table.seats),
        "view": view,
        "log_start": start,
        "log": [
            {**event, "text": with_names(state.event_to_str(event, lang), names, lang)}
            for event in full_log[start:]
        ],
        "legal": [],
        "can_undo": False,
    }
    if table.finished:
        msg["outcome"] = table.outcome_json()
    return msg
