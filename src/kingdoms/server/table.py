"""Live games and their seats: the master's data, credentials and request errors."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from kingdoms.bots.base import Bot
from kingdoms.core.errors import KingdomsError
from kingdoms.core.events import Event
from kingdoms.core.record import GameRecord
from kingdoms.core.registry import Game, get_game
from kingdoms.core.state import State
from kingdoms.server.botnames import display_names
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


def encode(msg: dict[str, Any]) -> str:
    """A server message as the JSON text sent on a socket (UTF-8, compact; keys that
    are not strings written as strings, as :func:`json.dumps` does).

    >>> encode({"type": "state", "log": [{"text": "Zoë plays Cellar"}], "counts": {3: 1}})
    '{"type":"state","log":[{"text":"Zoë plays Cellar"}],"counts":{"3":1}}'
    """
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


class Outbox:
    """One connection's outgoing messages: a bounded queue that one writer task empties.

    The game master only *posts* (:meth:`post` never waits), so no socket write ever
    happens while a game's lock is held, and a connection that stops reading cannot
    slow anyone else: once ``max_messages`` messages or ``max_chars`` characters wait
    for it, it is dropped — ``on_overflow`` runs (it closes the socket) and every
    later post is refused.  Messages may be posted already encoded (text shared by
    every spectator of a move).

    >>> box = Outbox(max_messages=2)
    >>> box.post({"type": "pong"}), box.post("{}"), box.post("{}"), box.closed
    (True, True, False, True)
    """

    def __init__(
        self,
        max_messages: int = 256,
        max_chars: int = 4 << 20,
        on_overflow: Callable[[], None] | None = None,
    ) -> None:
        self.max_messages = max_messages
        self.max_chars = max_chars
        self.on_overflow = on_overflow
        self.closed = False
        """No more posts are taken (dropped, or the connection is ending)."""
        self.overflowed = False
        self._queue: deque[str] = deque()
        self._chars = 0
        self._ready = asyncio.Event()

    def __len__(self) -> int:
        return len(self._queue)

    def post(self, msg: dict[str, Any] | str) -> bool:
        """Queue ``msg`` for the writer; ``False`` if refused (closed, or just dropped)."""
        if self.closed:
            return False
        text = msg if isinstance(msg, str) else encode(msg)
        if len(self._queue) >= self.max_messages or self._chars + len(text) > self.max_chars:
            self.overflowed = True
            self.close()
            self._queue.clear()
            self._chars = 0
            if self.on_overflow is not None:
                self.on_overflow()
            return False
        self._queue.append(text)
        self._chars += len(text)
        self._ready.set()
        return True

    async def __call__(self, msg: dict[str, Any]) -> None:
        """An outbox is a :data:`Sender` too (one that never waits)."""
        self.post(msg)

    def close(self) -> None:
        """Take no more posts; the writer ends once what is queued is written."""
        self.closed = True
        self._ready.set()

    async def run(self, write: Callable[[str], Awaitable[None]]) -> None:
        """Write the posted messages in order until closed (the connection's writer task)."""
        while True:
            while not self._queue:
                if self.closed:
                    return
                self._ready.clear()
                await self._ready.wait()
            text = self._queue.popleft()
            self._chars -= len(text)
            await write(text)


@dataclass(eq=False)
class Subscriber:
    """One connection watching some seats of one game (several seats: hot-seat)."""

    seats: tuple[int, ...]
    send: Sender
    """Where this connection's messages go: an :class:`Outbox` (a socket: never waits),
    or any coroutine function (in-process receivers, which must not block)."""
    lang: str = "en"
    log_sent: dict[int, int] = field(default_factory=dict)
    address: str | None = None
    """The client's address (counted against the per-address limits)."""

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
    public_frames: Any = None
    """The spectators' shared messages of the current state (:mod:`kingdoms.server.spectate`)."""
    used: float = 0.0
    """When the game was last used (``time.monotonic()``): idle games leave memory."""
    creator: str | None = None
    """The address that created the game in this process (for the per-address limits)."""

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
        names = display_names(self.seats, "en")  # the names the game showed its players
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


class Snapshot:
    """What the messages of one push share, each part built once and only if asked
    for: the public seat table, each language's seat names, each seat's view.  Built
    from the table as it is now; used while nothing changes it (one push, under the
    table's lock)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.state = table.state
        self._seats: list[dict[str, Any]] | None = None
        self._names: dict[str, list[str | None]] = {}
        self._views: dict[int, Any] = {}
        self._game: Game | None = None
        self._texts: dict[tuple[int, bool, str], str] = {}

    def seats(self) -> list[dict[str, Any]]:
        if self._seats is None:
            self._seats = public_seats(self.table.seats)
        return self._seats

    def names(self, lang: str) -> list[str | None]:
        names = self._names.get(lang)
        if names is None:
            names = self._names[lang] = seat_names(self.table.seats, lang)
        return names

    def log_entry(self, event: Event, seat: int | None, lang: str) -> dict[str, Any]:
        """``event`` as ``seat`` may see it, in words (the words put once per language
        for every seat that sees the same: its secret part, or not)."""
        shown = event.visible_to(seat)
        sees = event.secret is not None and (seat is None or seat in event.audience)
        key = (id(event), sees, lang)
        text = self._texts.get(key)
        if text is None:
            said = self.state.event_to_str(shown, lang)
            text = self._texts[key] = with_names(said, self.names(lang), lang)
        shown["text"] = text
        return shown

    def game(self) -> Game:
        """The rules of the game (what describes its actions)."""
        if self._game is None:
            self._game = get_game(self.state.config.game)
        return self._game

    def view(self, seat: int) -> Any:
        """``seat``'s view of the state (the same object for every ask)."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.state.view(seat)
        return view


def state_message(
    table: Table, sub: Subscriber, log_seat: int, view: Any, snap: Snapshot | None = None
) -> dict[str, Any]:
    """What every state message holds: the game, whose decision it is, the seats,
    ``view`` and the part of ``log_seat``'s log that ``sub`` has not seen yet (no
    choices: the caller adds a seat's)."""
    start = sub.log_start(log_seat, len(table.state.log))
    return state_message_from(table, log_seat, view, start, sub.lang, snap)


def state_message_from(
    table: Table,
    log_seat: int,
    view: Any,
    start: int,
    lang: str,
    snap: Snapshot | None = None,
) -> dict[str, Any]:
    """A state message whose log starts at event ``start`` of ``log_seat``'s log: only
    those events are filtered and put in words, so its cost does not grow with the
    game's length.  ``snap``: the parts shared with the other messages of this push."""
    state = table.state
    if snap is None:
        snap = Snapshot(table)
    msg: dict[str, Any] = {
        "type": "state",
        "game_id": table.id,
        "game": state.config.game,
        "state_id": state.step,
        "current_player": state.current_player,
        "finished": table.finished,
        "seats": snap.seats(),
        "view": view,
        "log_start": start,
        "log": [snap.log_entry(event, log_seat, lang) for event in state.log[start:]],
        "legal": [],
        "can_undo": False,
    }
    if table.finished:
        msg["outcome"] = table.outcome_json()
    return msg
