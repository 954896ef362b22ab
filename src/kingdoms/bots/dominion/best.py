"""``best``: the strongest Dominion player of the package, at two settings.

``best`` decides every decision of its seat — Action plays, every card's question
(Militia discards, Moat reveals, gains, trashing), buys — by a determinized search
from its own seat's view: each iteration rebuilds a full state from the view with
the hidden parts (the other seats' hands, every deck's order) sampled anew
(``Game.state_from_view`` and ``determinize``), plays one candidate move in it and
finishes the game with the rollout policy of :mod:`kingdoms.bots.dominion.search`
(each seat modelled by the bundled strategy of the cards it owns; the kingdom's
strongest bundled single-card strategy as the prior).  The candidates are that
policy's own choice and the next best-ranked moves (``width``); the search overrules
the prior only when another move wins more by ``keep`` standard errors.  A move with
one sensible answer (one legal move, playing all Treasures) is made without search.

Budgets are in CPU time of the searching thread, never wall time, or in iterations:
the same seed and ``iterations`` give the same move on any machine and build.

* ``best`` (``level=default``): at most :data:`DEFAULT_SECONDS` CPU seconds of search
  per decision (a person never waits);
* ``best:strong`` (``level=strong``): :data:`STRONG_SECONDS` CPU seconds, a wider
  root — for analysis; the game review (:mod:`kingdoms.review`) plays its rollouts
  and ranks its candidates the same way.

Parameters (``best:level=strong,iterations=400,seed=3``): ``level``, ``time`` (CPU
seconds per decision), ``iterations`` (a cap on iterations; alone: no time limit),
``seed`` (the search's own random numbers: reproducible moves), ``width``, ``keep``.

>>> BestBot().name, BestBot(level="strong").name
('best', 'best:strong')
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from kingdoms.bots.base import View
from kingdoms.bots.mcts import MCTSBot
from kingdoms.core.errors import InvalidConfig

DEFAULT_SECONDS = 0.085
"""CPU seconds of search per decision at the default level (the view's rebuild and
the ranking come on top: a decision stays under 0.1 s of CPU)."""
STRONG_SECONDS = 1.0
"""CPU seconds of search per decision at the strong level."""

PLAYOUT = "kingdom"
"""The rollout policy (``kingdoms.bots.dominion.search.kingdom_playout``)."""

LEVELS: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {
        "default": MappingProxyType({"time": DEFAULT_SECONDS, "width": 5, "keep": 1.5}),
        "strong": MappingProxyType({"time": STRONG_SECONDS, "width": 6, "keep": 1.0}),
    }
)
"""Each level's search settings (CPU seconds per decision, root width, keep)."""


class BestBot:
    """The ``best`` bot: determinized flat Monte Carlo search over the rollout
    policy's best-ranked moves, from the seat's view only (see the module)."""

    def __init__(
        self,
        level: str = "default",
        time: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        width: int | None = None,
        keep: float | None = None,
    ) -> None:
        if level not in LEVELS:
            raise InvalidConfig(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        settings = dict(LEVELS[level])
        if time is not None:
            settings["time"] = time
        elif iterations is not None:
            settings["time"] = None  # iterations alone: reproducible on any machine
        if width is not None:
            settings["width"] = width
        if keep is not None:
            settings["keep"] = keep
        self.level = level
        self.name = "best" if level == "default" else f"best:{level}"
        self.search = MCTSBot(
            time=settings["time"],
            iterations=iterations,
            algorithm="flat",
            playout=PLAYOUT,
            scoring="relative",
            seed=seed,
            width=settings["width"],
            keep=settings["keep"],
            clock="cpu",
        )

    def check_game(self, game: str) -> None:
        if game != "dominion":
            raise InvalidConfig(f"bot 'best' plays Dominion, not {game}")
        self.search.check_game(game)

    @property
    def last_iterations(self) -> int:
        """Iterations of the last decision (0: made without searching)."""
        return int(self.search.last_iterations)

    def act(self, view: View, legal_actions: Sequence[int], rng: random.Random) -> int:
        return int(self.search.act(view, legal_actions, rng))


def best_bot(**params: Any) -> BestBot:
    """The registry's factory for ``best`` (``best:level=strong,...``)."""
    return BestBot(**params)


def review_settings() -> Mapping[str, Any]:
    """What the game review takes from ``best``'s strong level: its rollout policy and
    its root width."""
    strong = LEVELS["strong"]
    return {"playout": PLAYOUT, "width": int(strong["width"])}


__all__ = ["LEVELS", "BestBot", "best_bot", "review_settings"]
