"""Spectators: anyone with a game's public link may watch it live.

A spectator holds no seat, so it must receive only what *every* seat may see and
nothing that depends on hidden parts.  A game may say so itself with an optional
``public_view()`` method; otherwise the public view is built from the seats' own
views: a value is kept only when it is the same in every seat's view, both of the
real state and of states with every hidden part resampled (``determinize``) — so a
coincidence (two hands that happen to be equal) does not leak either.  The log is
the public part of every event.

A move's spectator message is built once and shared by every spectator
(:class:`PublicFrames`): the public view, the scores and the new part of the log
are computed once, and the JSON text is encoded once, whatever the number of
spectators.  Each spectator receives only the events it has not seen (a full log
when it subscribes, changes language or after an undo shortened the log).

>>> from kingdoms.core.registry import get_game
>>> spec = get_game("kingdomino")
>>> state = spec.create(spec.config(2, 3, {}))
>>> view = public_view(state)
>>> "seat" in view, len(view["kingdoms"])
(False, 2)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from kingdoms.core.registry import get_game
from kingdoms.core.state import State
from kingdoms.server.privacy import check_open
from kingdoms.server.table import Subscriber, Table, encode, state_message_from

NO_SEAT = -1
"""The seat number a spectator's log is filtered for: nobody's secrets."""

RESAMPLES = 1
"""Resampled states per seat compared (more: fewer values kept by coincidence)."""

_MISSING = object()


def _common(values: list[Any]) -> Any:
    """What all ``values`` share: equal scalars, equal lists of scalars, dicts key by
    key, lists of objects of one length item by item; ``_MISSING`` when nothing."""
    first = values[0]
    if isinstance(first, dict):
        if not all(isinstance(v, dict) for v in values):
            return _MISSING
        out: dict[str, Any] = {}
        for key in first:
            if all(key in v for v in values):
                common = _common([v[key] for v in values])
                if common is not _MISSING:
                    out[key] = common
        return out
    if isinstance(first, list):
        if not all(isinstance(v, list) and len(v) == len(first) for v in values):
            return _MISSING
        if first and all(isinstance(x, dict) for x in first):
            items = [_common([v[i] for v in values]) for i in range(len(first))]
            return _MISSING if any(x is _MISSING for x in items) else items
        return first if all(v == first for v in values) else _MISSING
    return first if all(type(v) is type(first) and v == first for v in values) else _MISSING


def public_view(state: State) -> dict[str, Any]:
    """What anyone may see of ``state`` (see the module's description)."""
    own = get_game(state.config.game).public_view(state)
    if own is not None:
        return own
    n = state.num_players
    views = [state.view(p) for p in range(n)]
    if not state.is_terminal():
        rng = random.Random(f"{state.config.seed}:spectator:{state.step}")
        for p in range(n):
            for _ in range(RESAMPLES):
                other = state.determinize(p, rng)
                views.extend(other.view(q) for q in range(n) if q != p)
    common = _common(views)
    return common if isinstance(common, dict) else {}


def current_scores(state: State) -> list[float] | None:
    """Each seat's score now, when the game can tell (final scores once over)."""
    if state.is_terminal():
        out = state.outcome()
        return list(out.scores) if out is not None else None
    return get_game(state.config.game).current_scores(state)


class PublicFrames:
    """The spectators' messages of one state of a game, each built once and shared
    (by language and by where the spectator's log stands; in step, they all share one)."""

    def __init__(self, table: Table, key: tuple[Any, ...]) -> None:
        self.table = table
        self.key = key
        self._view: dict[str, Any] | None = None
        self._scores: list[float] | None = None
        self._messages: dict[tuple[str, int], tuple[dict[str, Any], str]] = {}

    def message(self, sub: Subscriber) -> tuple[dict[str, Any], str]:
        """``sub``'s next message (shared: never change it) and its JSON text; the
        log counts as sent to ``sub``."""
        state = self.table.state
        start = sub.log_start(NO_SEAT, len(state.log))
        key = (sub.lang, start)
        built = self._messages.get(key)
        if built is None:
            if self._view is None:
                self._view = public_view(state)
                self._scores = current_scores(state)
            msg = state_message_from(self.table, NO_SEAT, self._view, start, sub.lang)
            msg.update(seat=None, spectator=True, scores=self._scores)
            built = (msg, encode(msg))
            if len(self._messages) < 64:
                self._messages[key] = built
        return built


def _frames_key(table: Table) -> tuple[Any, ...]:
    """What the spectators' messages depend on (a new key: build them again)."""
    seats = tuple((s.get("name"), bool(s.get("joined"))) for s in table.seats)
    state = table.state
    return (table.version, id(state), state.step, id(table.ended), seats)


def public_frames(table: Table) -> PublicFrames:
    """The shared spectator messages of ``table`` as it is now."""
    key = _frames_key(table)
    frames = table.public_frames
    if not isinstance(frames, PublicFrames) or frames.key != key:
        frames = table.public_frames = PublicFrames(table, key)
    return frames


def spectator_message(table: Table, sub: Subscriber) -> dict[str, Any]:
    """The state message a spectator receives: public view, public log, no choices."""
    return public_frames(table).message(sub)[0]


async def watch(
    master: Any,
    game_id: str,
    send: Any,
    lang: str = "en",
    address: str | None = None,
    tokens: Sequence[str] = (),
) -> tuple[Table, Subscriber]:
    """Subscribe a spectator (no seats) to a game of ``master``; sends it the state now.

    Refused (``too_many``) past the server's spectators per game or per address, and
    (``no_game``) a private game unless ``tokens`` hold a seat's token or its share key."""
    table: Table = await master.fetch(game_id)
    check_open(table, tokens)
    sub = Subscriber((), send, lang, address=address)
    async with table.lock:
        master.add_spectator(table, sub)
        await master.push(table, [sub])
    return table, sub
