"""States as text and back: :meth:`State.serialize` / :func:`new_state_from`
(OpenSpiel's ``state.serialize()`` / ``game.deserialize_state(text)``).

The text is one JSON object: the game's complete snapshot (config, the random
generator's state, every field, hidden parts included), the actions applied so far
(``history``) and the log.  :func:`new_state_from` gives back the same game, also in
the middle of a decision: the same legal actions, the same future under the same
actions (the random generator travels with it), the same fingerprint.

Pickling, ``copy.copy`` and ``copy.deepcopy`` of both games' states use the same
snapshot (``__reduce__``), so states cross process boundaries (multiprocessing, Ray)
and sit in replay buffers on the compiled build as on the pure one.

>>> from kingdoms.core.registry import get_game
>>> game = get_game("kingdomino")
>>> state = game.create(game.config(2, 7))
>>> state.apply(state.legal_actions()[0])
>>> again = new_state_from(state.serialize())
>>> again.fingerprint() == state.fingerprint(), again.history == state.history
(True, True)
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

from kingdoms.core.errors import InvalidArgument
from kingdoms.core.events import Event

if TYPE_CHECKING:
    from kingdoms.core.state import State

FORMAT: Final = 1
"""The version of the text form (the key ``"kingdoms_state"`` holds it)."""

STATE_CLASSES: Final[dict[str, str]] = {
    "dominion": "kingdoms.dominion.state:DominionState",
    "kingdomino": "kingdoms.kingdomino.state:KingdominoState",
}
"""Per game name, the state class whose ``from_data`` reads its text form."""


def event_to_json(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"type": event.type, "data": event.data}
    if event.player is not None:
        out["player"] = event.player
    if event.secret is not None:
        out["secret"] = event.secret
    if event.audience:
        out["audience"] = list(event.audience)
    return out


def event_from_json(data: Mapping[str, Any]) -> Event:
    return Event(
        str(data["type"]),
        None if data.get("player") is None else int(data["player"]),
        dict(data.get("data", {})),
        None if data.get("secret") is None else dict(data["secret"]),
        tuple(int(p) for p in data.get("audience", ())),
    )


def dumps(data: Mapping[str, Any], log: Iterable[Event]) -> str:
    """The text form of a state's ``data`` (snapshot, history, logging) and log."""
    out = {"kingdoms_state": FORMAT, **data, "log": [event_to_json(e) for e in log]}
    return json.dumps(out, separators=(",", ":"))


def loads(serialized: str) -> tuple[str, dict[str, Any], list[Event]]:
    """The game's name, the data and the log of a text form (checked)."""
    if not isinstance(serialized, str):
        raise InvalidArgument(f"a serialized state is a str, not {type(serialized).__name__}")
    try:
        data = json.loads(serialized)
    except json.JSONDecodeError as err:
        raise InvalidArgument(f"not a serialized state: {err}") from None
    if not isinstance(data, dict) or "kingdoms_state" not in data:
        raise InvalidArgument("not a serialized state: no 'kingdoms_state' version")
    if data["kingdoms_state"] != FORMAT:
        raise InvalidArgument(
            f"serialized state of format {data['kingdoms_state']!r}; this version reads {FORMAT}"
        )
    try:
        game = str(data["config"]["game"])
        log = [event_from_json(e) for e in data.pop("log", [])]
    except (KeyError, TypeError, ValueError) as err:
        raise InvalidArgument(f"not a serialized state: {type(err).__name__}: {err}") from None
    return game, data, log


def new_state_from(serialized: str) -> State:
    """The state whose :meth:`serialize` gave ``serialized`` (any game).  Text that is
    not a serialized state raises :class:`InvalidArgument`."""
    game, data, log = loads(serialized)
    target = STATE_CLASSES.get(game)
    if target is None:
        raise InvalidArgument(
            f"no serialized form for game {game!r}; known: {', '.join(sorted(STATE_CLASSES))}"
        )
    module, name = target.split(":")
    cls = getattr(importlib.import_module(module), name)
    state: State = cls.from_data(data, log)
    return state
