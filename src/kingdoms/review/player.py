"""The player behind a review: what ranks the moves a review compares and plays the
rollouts that value them.

A review is only as good as the player behind it.  A game's bot package names the bot
its reviews play as in ``BOT_DEFAULTS["review"]["bot"]``; Dominion names ``best:strong``
(:mod:`kingdoms.bots.dominion.best`), and its review evaluates every decision as that
bot's search does (:class:`BestPlayer`):

* **its plan** — for each reviewed seat, ``best``'s plan search
  (:class:`~kingdoms.bots.dominion.best.PlanSearch`: the bundled plans and Big Money
  with one or two of each Kingdom card, paired whole-game rollouts, the weak plans
  pruned) is run from that seat's view of the game's first position, and its choice
  kept with the strong level's ``keep``; once per game and seat, from a seeded
  generator and a number of rounds (never a time), so a review is reproducible;
* **its candidates** — the moves ranked by
  :func:`~kingdoms.bots.dominion.search.rank_actions` with that plan's move first;
* **its rollouts** — whole-game rollouts
  (:func:`~kingdoms.bots.dominion.search.finish_rollout`, on the native core where it
  can): the seat played by its plan (or its default model when the plan search kept
  the table's plan, as ``best`` does), the other seats by their models.

A game without a review bot (Kingdomino) is reviewed with its ``mcts`` playout policy
and ranker (:class:`PolicyPlayer`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from kingdoms.bots.base import game_bot_hook, make_bot
from kingdoms.bots.mcts import (
    MAX_PLAYOUT_STEPS,
    PlayoutPolicy,
    game_playout_policy,
    game_ranker,
    play_to_end,
)
from kingdoms.core.errors import InvalidConfig
from kingdoms.core.registry import get_game, state_from_config
from kingdoms.core.state import State

PLAN_ROUNDS_MAX = 200
"""The plan search of a reviewed seat plays as many rounds as a decision gets samples
(``Budget.iterations``), at most this many."""

PLAN_CHUNK = 8
"""Rounds of the plan search between two prunings (``best``'s plan search prunes the
plans far behind before each decision's rounds)."""

Ranker = Callable[[State, list[int]], list[int]]


@dataclass(frozen=True, slots=True)
class Evaluator:
    """How one decision is evaluated: the moves' ranking (None: every legal move) and
    a whole rollout (plays the state to its end)."""

    rank: Ranker | None
    finish: Callable[[State, random.Random], None]
    plan: str | None = None
    """The reviewed seat's plan in the rollouts (None: its default model)."""


def review_defaults(game: str) -> dict[str, Any]:
    """The game's settings for reviews: its bot package's ``BOT_DEFAULTS["review"]``
    over those of its ``mcts``."""
    defaults = game_bot_hook(game, "BOT_DEFAULTS") or {}
    return {**dict(defaults.get("mcts", {})), **dict(defaults.get("review", {}))}


class PolicyPlayer:
    """A review played by the game's ``mcts`` playout policy and ranker."""

    def __init__(self, game: str, playout: str) -> None:
        self.name = f"mcts:playout={playout}"
        self.policy: PlayoutPolicy = game_playout_policy(game, playout)
        self.ranker = game_ranker(game)

    def evaluator(self, state: State, seat: int, seed: int, rounds: int) -> Evaluator:
        policy = self.policy

        def finish(sim: State, rng: random.Random) -> None:
            play_to_end(sim, policy, rng)

        return Evaluator(self.ranker, finish)


class BestPlayer:
    """A Dominion review played as ``best`` at the given spec (``best:strong``): its
    plan search, its ranking with the plan's move first, its whole rollouts (see the
    module)."""

    def __init__(self, spec: str = "best:strong") -> None:
        from kingdoms.bots.dominion.best import BestBot

        bot = make_bot("dominion", spec)
        if not isinstance(bot, BestBot):
            raise InvalidConfig(f"a Dominion review plays as a 'best' bot, not {spec!r}")
        self.name = spec
        self.bot = bot
        self.keep = float(bot.search.keep or 0.0)
        self.searches_plan = bot.plan_mode == "search" and bot.rollout == "whole"

    def evaluator(self, state: State, seat: int, seed: int, rounds: int) -> Evaluator:
        from kingdoms.bots.dominion.search import finish_rollout, rank_actions

        plan = self.plan(state, seat, seed, rounds) if self.searches_plan else None
        plans = None if plan is None else {seat: plan}

        def rank(base: State, legal: list[int]) -> list[int]:
            return rank_actions(base, legal, plan)

        def finish(sim: State, rng: random.Random) -> None:
            finish_rollout(sim, rng, MAX_PLAYOUT_STEPS, plans)

        return Evaluator(rank, finish, plan)

    def plan(self, state: State, seat: int, seed: int, rounds: int) -> str | None:
        """The plan ``best`` plays ``seat`` by in the game of ``state`` (None: the
        table's, i.e. the seat's default model): its plan search from the seat's view
        of the game's first position."""
        config = json.dumps(state.config.to_json(), sort_keys=True)
        return _seat_plan(config, seat, seed, max(1, min(rounds, PLAN_ROUNDS_MAX)), self.keep)


@lru_cache(maxsize=64)
def _seat_plan(config: str, seat: int, seed: int, rounds: int, keep: float) -> str | None:
    from kingdoms.bots.dominion.best import PlanSearch
    from kingdoms.core.state import GameConfig
    from kingdoms.dominion.state import DominionState

    data = json.loads(config)
    start = state_from_config(
        GameConfig(data["game"], data["players"], data["seed"], data["options"])
    )
    rng = random.Random(f"review plan {data['seed']} {seat} {seed}")
    base = get_game("dominion").state_from_view(start.view(seat), rng)  # the seat's view only
    base.logging = False
    assert isinstance(base, DominionState)
    search = PlanSearch(tuple(base.config.options["kingdom"]), seat)
    while search.rounds < rounds:
        chunk = min(PLAN_CHUNK, rounds - search.rounds)
        search.run(base, seat, rng, None, chunk * len(search.alive))
    chosen = search.choice(keep)
    return None if chosen == search.names[0] else chosen


@lru_cache(maxsize=16)
def review_player(game: str, playout: str | None = None) -> BestPlayer | PolicyPlayer:
    """The player behind ``game``'s reviews: the bot its package names
    (``BOT_DEFAULTS["review"]["bot"]``), else its ``mcts`` playout policy; ``playout``
    forces a playout policy instead."""
    get_game(game)  # a clear error for an unknown game
    defaults = review_defaults(game)
    spec = defaults.get("bot")
    if playout is None and isinstance(spec, str):
        return BestPlayer(spec)
    return PolicyPlayer(game, playout or str(defaults.get("playout", "random")))


def player_name(game: str) -> str:
    """The spec of the player behind ``game``'s reviews (``best:strong`` in Dominion)."""
    return review_player(game).name


__all__ = [
    "BestPlayer",
    "Evaluator",
    "PolicyPlayer",
    "player_name",
    "review_defaults",
    "review_player",
]
