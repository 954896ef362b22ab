"""Start states of bots: a strategy's ``start`` given to its seat in any game.

A strategy file may say how its seat starts (``start``, see
:mod:`kingdoms.dominion.start`); a bot spec may too, with the ``start`` parameter:
``big-money-ultimate:start=5/2`` (an opening split, ``5/2`` or ``4/3``) or
``big-money:start=Silver+Silver`` (cards added to the usual deck, joined by ``+``).
:func:`with_bot_starts` writes the start states of a game's bots into its ``start``
option, one entry per seat, so the simulator, ``kingdoms play`` and the server deal
the same games (and a saved game replays them).

>>> spec_start("5/2")["split"]
'5/2'
>>> spec_start("Silver+silver")["deck"][-2:]
['silver', 'silver']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from kingdoms.bots.dominion.strategy import Strategy
from kingdoms.core.errors import InvalidConfig


def spec_start(value: Any) -> dict[str, Any]:
    """A bot spec's ``start=`` value as a seat's start state: an opening split
    (``"5/2"``, ``"4/3"``) or cards added to the usual deck joined by ``+``."""
    from kingdoms.dominion.start import SPLITS, check_seat, usual_deck

    text = str(value).strip()
    if text in SPLITS:
        entry: dict[str, Any] = {"split": text}
    elif "/" in text:
        raise InvalidConfig(
            f"bot parameter start={value!r}: an opening split is one of {', '.join(SPLITS)}"
        )
    else:
        cards = [c.strip() for c in text.split("+")]
        if not text or any(not c for c in cards):
            raise InvalidConfig(
                f"bot parameter start={value!r}: give an opening split "
                f"({', '.join(SPLITS)}) or cards added to the usual deck joined by '+' "
                "(start=Silver+Silver)"
            )
        entry = {"deck": [*usual_deck(), *cards]}
    return check_seat(entry, "bot parameter start")


_STARTED: dict[tuple[int, str], tuple[Strategy, Strategy]] = {}


def strategy_with_start(strategy: Strategy, value: Any) -> Strategy:
    """``strategy`` starting as the spec's ``start=`` value says (the same object
    for the same strategy and value, so its compiled play plan is kept)."""
    key = (id(strategy), str(value))
    hit = _STARTED.get(key)
    if hit is not None and hit[0] is strategy:
        return hit[1]
    started = dataclasses.replace(strategy, start=spec_start(value))
    if len(_STARTED) >= 64:
        _STARTED.clear()
    _STARTED[key] = (strategy, started)
    return started


def bot_start(bot: Any) -> Mapping[str, Any] | None:
    """The start state a bot's strategy declares (None: the usual start; a seat with
    no bot — a human — has none)."""
    start = getattr(getattr(bot, "strategy", None), "start", None)
    return start if isinstance(start, Mapping) else None


def with_bot_starts(options: Mapping[str, Any], seat_bots: Sequence[Any]) -> dict[str, Any]:
    """The Dominion game ``options`` with each seat's bot start state in the ``start``
    option (``seat_bots``: one entry per seat, None for a human seat).  Unchanged
    (a copy) when no bot declares a start.  A seat the ``start`` option already
    gives a start keeps it when its bot declares none or the same; a bot whose own
    start differs is an error naming the seat (a seat has one start)."""
    out = dict(options)
    starts = [bot_start(b) for b in seat_bots]
    if all(s is None for s in starts):
        return out
    given = out.get("start")
    if given is None:
        entries: list[Any] = [None] * len(seat_bots)
    elif isinstance(given, list | tuple) and len(given) == len(seat_bots):
        entries = list(given)
    else:
        raise InvalidConfig(
            f"start must be a list with one entry per seat ({len(seat_bots)}), not {given!r}"
        )
    for i, start in enumerate(starts):
        if start is None:
            continue
        if entries[i] is not None and dict(entries[i]) != dict(start):
            name = getattr(seat_bots[i], "name", "the bot")
            raise InvalidConfig(
                f"seat {i + 1}: the game's start option and the start state of bot "
                f"{name!r} differ; give the seat one start"
            )
        entries[i] = dict(start)
    out["start"] = entries
    return out


__all__ = ["bot_start", "spec_start", "strategy_with_start", "with_bot_starts"]
