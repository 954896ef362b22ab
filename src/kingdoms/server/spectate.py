"""Spectators: anyone with a game's public link may watch it live.

A spectator holds no seat, so it must receive only what *every* seat may see and
nothing that depends on hidden parts.  A game may say so itself with an optional
``public_view()`` method; otherwise the public view is built from the seats' own
views: a value is kept only when it is the same in every seat's view, both of the
real state and of states with every hidden part resampled (``determinize``) — so a
coincidence (two hands that happen to be equal) does not leak either.  The log is
the public part of every event.

>>> from kingdoms.core.registry import get_game
>>> spec = get_game("kingdomino")
>>> state = spec.create(spec.config(2, 3, {}))
>>> view = public_view(state)
>>> "seat" in view, len(view["kingdoms"])
(False, 2)
"""

from __future__ import annotations

import random
from typing import Any

from kingdoms.core.registry import get_game
from kingdoms.core.state import State
from kingdoms.server.table import Subscriber, Table, state_message

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


def spectator_message(table: Table, sub: Subscriber) -> dict[str, Any]:
    """The state message a spectator receives: public view, public log, no choices."""
    msg = state_message(table, sub, NO_SEAT, public_view(table.state))
    msg.update(seat=None, spectator=True, scores=current_scores(table.state))
    return msg


async def watch(master: Any, game_id: str, send: Any, lang: str = "en") -> tuple[Table, Subscriber]:
    """Subscribe a spectator (no seats) to a game of ``master``; sends it the state now."""
    table: Table = master.get(game_id)
    sub = Subscriber((), send, lang)
    async with table.lock:
        table.subscribers.append(sub)
        await master.push(table, [sub])
    return table, sub
