"""The player behind a review: Dominion reviews evaluate every decision as
``best:strong`` does (its plan search, its ranking, its whole rollouts), reproducibly."""

from __future__ import annotations

from typing import Any

import pytest

from kingdoms.bots.dominion.best import LEVELS, BestBot
from kingdoms.bots.dominion.bots import bundled_bot
from kingdoms.core.runner import run_game
from kingdoms.review import Budget, analyse_position, review_game
from kingdoms.review.game import analyse_steps, positions
from kingdoms.review.player import BestPlayer, PolicyPlayer, _seat_plan, review_player

LIBRARY_KINGDOM = [
    "cellar", "chapel", "feast", "gardens", "harbinger",
    "spy", "thief", "throne_room", "village", "library",
]  # fmt: skip
"""No bundled plan uses Library, and ``best``'s plan search prefers Big Money with one
or two Libraries (``bmu+library``, ``bmu+library:2``) to the table's Big Money
Ultimate here."""


def _five_coins() -> Any:
    from kingdoms.dominion.state import DominionState

    state = DominionState.scenario(
        2, LIBRARY_KINGDOM, hands={0: ["silver", "silver", "copper", "estate", "estate"]}
    )
    state.apply_checked(state.parse_action("play all treasures"))
    return state


def test_dominion_reviews_play_as_best_strong() -> None:
    player = review_player("dominion")
    assert isinstance(player, BestPlayer) and player.name == "best:strong"
    assert isinstance(player.bot, BestBot) and player.bot.level == "strong"
    assert player.keep == LEVELS["strong"]["keep"]
    assert player.searches_plan  # best's plan search and whole rollouts
    assert isinstance(review_player("kingdomino"), PolicyPlayer)
    # a review asked for a playout policy plays that policy instead
    assert isinstance(review_player("dominion", "kingdom"), PolicyPlayer)


def test_the_review_ranks_and_rolls_out_by_bests_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """At $5 in a Library kingdom: ``best``'s plan (two Libraries) gives the first
    candidate, and every rollout plays the reviewed seat by that plan.  The earlier
    review (each seat by its default model: Big Money Ultimate here) ranked Silver
    first and rolled the seat out as Big Money."""
    from kingdoms.bots.dominion import search

    state = _five_coins()
    plan = review_player("dominion").plan(state, 0, 0, 100)
    assert plan is not None and plan.startswith("bmu+library")
    seen: list[Any] = []
    original = search.finish_rollout

    def spy(st: Any, rng: Any, max_steps: int, plans: Any = None) -> None:
        seen.append(dict(plans) if plans is not None else None)
        original(st, rng, max_steps, plans)

    monkeypatch.setattr(search, "finish_rollout", spy)
    decision = analyse_position(state, state.parse_action("buy Village"), Budget(iterations=100))
    assert decision is not None
    assert decision.candidates[0].text["en"] == "buy Library"
    assert decision.candidates[-1].text["en"] == "buy Village"  # the move made, last
    assert len(seen) == 100 * len(decision.candidates)
    assert all(plans == {0: plan} for plans in seen)
    # the old path (a playout policy, each seat by its default model) ranks otherwise
    old = analyse_position(
        state, state.parse_action("buy Village"), Budget(iterations=4), playout="kingdom"
    )
    assert old is not None and old.candidates[0].text["en"] == "buy Silver"


def test_a_review_is_the_same_whatever_order_its_decisions_are_analysed_in() -> None:
    """Each seat's plan comes from a seeded search of a fixed number of rounds (kept
    for the game): analysing the decisions one by one, last first (as the server's
    review processes may), gives the analyses of a whole review, number for number."""
    bots = [bundled_bot("big-money-ultimate"), bundled_bot("smithy")]
    state = run_game("dominion", bots, seed=5, options={"kingdom": LIBRARY_KINGDOM})
    record = state.record()
    budget = Budget(iterations=16, game_seconds=None)
    review = review_game(record, budget=budget, seed=2)
    steps = positions(record)[:12]
    _seat_plan.cache_clear()  # each seat's plan searched again, from the last decision
    backwards = {}
    for step in reversed(steps):
        backwards[step] = analyse_steps(record, [step], budget, seed=2)[0][1]
    whole = {d.step: d for d in review.decisions}
    for step in steps:
        a, b = whole.get(step), backwards[step]
        if a is None or b is None:
            assert a is b
            continue
        a.cpu_seconds = b.cpu_seconds = 0.0
        assert a == b
