"""Dominion bots: strategy files (the Big Money family, Smithy, Witch and the
classic single-card bots) played by one strategy bot.

Every bot sees only its seat's view and the legal actions.  Buy decisions
follow the bot's strategy file (:mod:`kingdoms.bots.dominion.lang`); every
other decision goes to the shared default policy
(:mod:`kingdoms.bots.dominion.policy`), so any bot can play any kingdom.
A path to a ``.toml`` file is a bot too (:func:`bot_from_file`).

The generic search bot ``mcts`` plays Dominion too, through the hooks below
(:func:`playout_policy`, :func:`rank_actions`, :func:`obvious_action`,
:data:`BOT_DEFAULTS`; see :mod:`kingdoms.bots.dominion.search`).

>>> sorted(BOTS)[:4]
['adventurer', 'best', 'big-money', 'big-money-ultimate']
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from kingdoms.bots.base import named_hook
from kingdoms.bots.dominion.bundled import attr_name, bundled_names

BOTS: Mapping[str, str] = MappingProxyType(
    {
        **{name: f"kingdoms.bots.dominion.bundled:{attr_name(name)}" for name in bundled_names()},
        "best": "kingdoms.bots.dominion.best:best_bot",
        # the network trained on every decision (kingdoms.bots.dominion.learned)
        "learned": "kingdoms.bots.dominion.learned:LearnedBot",
    }
)
"""Bot name -> ``module:factory`` (what the Dominion game's ``bot_names()`` returns):
the bundled strategies, ``best`` (:mod:`kingdoms.bots.dominion.best`) and
``learned`` (:mod:`kingdoms.bots.dominion.learned`)."""


def bot_from_file(path: str, **params: Any) -> Any:
    """The bot registry's hook for bot specs that are strategy file paths."""
    from kingdoms.bots.dominion.bots import file_bot

    return file_bot(path, **params)


def seat_options(options: Mapping[str, Any], seat_bots: Any) -> dict[str, Any]:
    """The bot registry's hook: each seat's bot start state in the ``start`` option
    (:func:`kingdoms.bots.dominion.starts.with_bot_starts`)."""
    from kingdoms.bots.dominion.starts import with_bot_starts

    return with_bot_starts(options, seat_bots)


_BMU_PLUS = re.compile(r"^bmu\+([A-Za-z][A-Za-z' _-]*?)(?::(\d+))?(:early)?$")


def bot_named(spec: str) -> Callable[[], Any] | None:
    """``bmu+X`` and ``bmu+X:N``: Big Money Ultimate plus card X (at most N copies,
    default 1), as ``kingdoms rank`` builds it; ``bmu+X:N:early`` buys X before Gold
    (:func:`~kingdoms.sim.rank.bmu_plus`); None for other names.

    >>> bot_named("bmu+smithy:2")().name, bot_named("bmu+witch:early")().name
    ('bmu+smithy:2', 'bmu+witch:early')
    """
    m = _BMU_PLUS.match(spec)
    if m is None:
        return None
    from kingdoms.bots.dominion.lang import card_id

    card = card_id(m.group(1))
    if card is None:
        from kingdoms.core.errors import InvalidConfig

        raise InvalidConfig(f"unknown card {m.group(1)!r} in the bot name {spec!r}")
    copies = int(m.group(2) or 1)
    early = bool(m.group(3))
    name = f"bmu+{card}" + (f":{copies}" if m.group(2) else "") + (":early" if early else "")

    def make() -> Any:
        return _bmu_plus_bot(card, copies, name, early)

    make()  # a bad card (a basic one, no pile) fails here, not in a worker
    return make


@functools.cache
def _bmu_plus_strategy(card: str, copies: int, name: str, early: bool = False) -> Any:
    import dataclasses

    from kingdoms.bots.dominion.lang import parse_strategy
    from kingdoms.sim.rank import bmu_plus

    return dataclasses.replace(parse_strategy(bmu_plus(card, copies, early)), name=name)


def _bmu_plus_bot(card: str, copies: int, name: str, early: bool = False) -> Any:
    from kingdoms.bots.dominion.bots import StrategyBot

    return StrategyBot(_bmu_plus_strategy(card, copies, name, early))


BOT_DEFAULTS: Mapping[str, Mapping[str, object]] = MappingProxyType(
    {
        "mcts": MappingProxyType({"playout": "kingdom", "width": 5, "keep": 1.5}),
        "review": MappingProxyType({"bot": "best:strong", "playout": "kingdom", "width": 3}),
    }
)
"""Parameters of the generic bots in Dominion unless the spec says otherwise:
``mcts`` = ``mcts:playout=kingdom,width=5,keep=1.5`` (the kingdom's bundled strategy
rolls out and ranks the root moves; the search overrules its choice only when
another move is better by more than 1.5 standard errors; ``width=0`` searches
every move).  ``review``: the bot the game review (:mod:`kingdoms.review`) evaluates
each decision as — ``best:strong``, its plan search, ranking and whole rollouts
(:mod:`kingdoms.review.player`); ``playout`` is ``best``'s rollout policy
(:data:`kingdoms.bots.dominion.best.PLAYOUT`; a test keeps them equal), for a review
asked to play a policy instead — and how many ranked moves it compares besides the
move made: 3 (wider, it flags more of ``big-money-ultimate``'s own debatable buys and
``bench/review_precision.py``'s precision falls under 78 %: ``docs/review.md``)."""


PLAYOUTS: Mapping[str, str] = MappingProxyType(
    {
        "big-money-ultimate": "kingdoms.bots.dominion.search:bmu_playout",
        "kingdom": "kingdoms.bots.dominion.search:kingdom_rollout",
    }
)


def playout_policy(name: str) -> Callable[[Any, random.Random], int] | None:
    """Rollout policies for ``mcts``, fast, on the state itself:
    ``big-money-ultimate``, ``kingdom`` (the bundled strategy fitting the kingdom);
    None (random) otherwise."""
    policy: Callable[[Any, random.Random], int] | None = named_hook(PLAYOUTS, name)
    return policy


def rank_actions(state: Any, legal: list[int]) -> list[int]:
    """Root moves best first, for ``mcts``'s ``width`` option."""
    from kingdoms.bots.dominion.search import rank_actions as rank

    return rank(state, legal)


def obvious_action(state: Any, legal: list[int]) -> int | None:
    """A root move ``mcts`` makes without searching (e.g. playing all Treasures)."""
    from kingdoms.bots.dominion.search import obvious_action as obvious

    return obvious(state, legal)


__all__ = [
    "BOTS",
    "BOT_DEFAULTS",
    "bot_from_file",
    "bot_named",
    "obvious_action",
    "playout_policy",
    "rank_actions",
    "seat_options",
]
