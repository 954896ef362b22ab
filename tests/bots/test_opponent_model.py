"""``best``'s opponent model: fitted to the other seat's visible gains, used by the
rollouts, blind to hidden information, reproducible."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from kingdoms.bots.base import make_bot
from kingdoms.bots.dominion import best as best_module
from kingdoms.bots.dominion.bots import StrategyBot
from kingdoms.bots.dominion.opponent import OpponentModel, model_candidates, rush_strategy
from kingdoms.bots.dominion.search import finish_rollout, seat_strategy
from kingdoms.core.errors import InvalidConfig
from kingdoms.core.registry import new_game
from kingdoms.core.runner import seat_rngs
from kingdoms.dominion.state import DominionState

RUSH_KINGDOM = [
    "woodcutter",
    "gardens",
    "cellar",
    "festival",
    "laboratory",
    "market",
    "militia",
    "moat",
    "smithy",
    "village",
]
RUSH = "rush:woodcutter+gardens"


def _start(seed: int) -> DominionState:
    state = new_game("dominion", 2, seed, {"kingdom": RUSH_KINGDOM})
    assert isinstance(state, DominionState)
    return state


def _watch(opponent: Any, seed: int, turns: int = 99) -> tuple[OpponentModel, DominionState]:
    """Seat 1 played by ``opponent``, seat 0 by Big Money Ultimate; seat 0's views fed
    to a model until seat 1 has taken ``turns`` turns."""
    state = _start(seed)
    model = OpponentModel(tuple(RUSH_KINGDOM), 0)
    me = make_bot("dominion", "big-money-ultimate")
    rngs = seat_rngs(seed, 2)
    while state.current_player >= 0 and state.turns[1] < turns:
        p = state.current_player
        legal = state.legal_actions()
        if p == 0:
            model.observe(state.view(0))
            state.apply(me.act(state.view(0), legal, rngs[0]))
        else:
            state.apply(opponent.act(state.view(1), legal, rngs[1]))
    return model, state


def test_a_gardens_rush_is_recognised_after_its_buys() -> None:
    """A seat rushing Woodcutters then Gardens is modelled as the rush once it has
    shown it (no bundled strategy names Woodcutter: the default model is money);
    before it has bought anything the default model stands."""
    rush = StrategyBot(rush_strategy(RUSH))
    for seed in (1, 2, 3):
        model, state = _watch(rush, seed)
        assert model.model(1) == RUSH, seed
        post = model.posterior(1)
        assert post[model.names.index(RUSH)] > 0.9
        assert model.seats[1].watched >= 8
        # the default model would have been something else
        default = seat_strategy(tuple(RUSH_KINGDOM), state.owned(1), state.turns[1] + 1)
        assert default != RUSH
    early, _ = _watch(rush, 1, turns=1)
    assert early.model(1) is None  # nothing seen yet: the default model


def test_money_and_single_card_players_are_told_apart() -> None:
    """Big Money Ultimate is not taken for a rush (nor Big Money + Militia for plain
    money): each is modelled by a strategy of its kind."""
    from kingdoms.bots.dominion import bot_named

    bmu, _ = _watch(make_bot("dominion", "big-money-ultimate"), 4)
    assert bmu.model(1) in (None, "big-money-ultimate", "big-money")
    make = bot_named("bmu+militia:2")
    assert make is not None
    militia, _ = _watch(make(), 4)
    assert militia.model(1) in ("militia", "bmu+militia", "bmu+militia:2")


def test_the_model_reads_only_public_parts_of_the_view() -> None:
    """Fed views stripped to the public parts it reads (turns, owned, supply), and
    fed the full views, it reaches the same posterior; twice the same views, the
    same posterior (deterministic)."""
    rush = StrategyBot(rush_strategy(RUSH))
    state = _start(5)
    full = OpponentModel(tuple(RUSH_KINGDOM), 0)
    bare = OpponentModel(tuple(RUSH_KINGDOM), 0)
    again = OpponentModel(tuple(RUSH_KINGDOM), 0)
    me = make_bot("dominion", "big-money-ultimate")
    rngs = seat_rngs(5, 2)
    while state.current_player >= 0:
        p = state.current_player
        legal = state.legal_actions()
        if p == 0:
            view = state.view(0)
            full.observe(view)
            again.observe(copy.deepcopy(view))
            bare.observe(
                {
                    "supply": view["supply"],
                    "players": [
                        {"turns": s["turns"], "owned": s["owned"]} for s in view["players"]
                    ],
                }
            )
            state.apply(me.act(view, legal, rngs[0]))
        else:
            state.apply(rush.act(state.view(1), legal, rngs[1]))
    assert full.posterior(1) == bare.posterior(1) == again.posterior(1)
    assert full.model(1) == RUSH


def test_best_rolls_the_other_seat_out_by_its_model(monkeypatch: Any) -> None:
    """Once the model names a strategy for the other seat, ``best``'s rollouts play
    that seat by it (``opponent=bundled``: never); and the model changes rollouts:
    from the same state and random numbers the rush plays differently from the
    default model."""
    seen: list[dict[int, str]] = []
    real = best_module.finish_rollout

    def spy(state: Any, rng: Any, steps: int, plans: Any = None) -> None:
        seen.append(dict(plans or {}))
        real(state, rng, steps, plans)

    monkeypatch.setattr(best_module, "finish_rollout", spy)
    rush = StrategyBot(rush_strategy(RUSH))
    for spec, expect in (
        ("best:iterations=12,seed=3", True),
        ("best:iterations=12,seed=3,opponent=bundled", False),
    ):
        seen.clear()
        bot = make_bot("dominion", spec)
        state = _start(8)
        rngs = seat_rngs(8, 2)
        while state.current_player >= 0 and state.turns[0] < 12:
            p = state.current_player
            legal = state.legal_actions()
            actor = bot if p == 0 else rush
            state.apply(actor.act(state.view(p), legal, rngs[p]))
        named = [s.get(1) for s in seen]
        assert (RUSH in named) == expect, spec
        if expect:
            assert bot.opponents is not None and bot.opponents.model(1) == RUSH
    with pytest.raises(InvalidConfig, match="opponent must be one of fit, bundled"):
        make_bot("dominion", "best:opponent=guess")
    # the model changes the rollouts: the same start, the same random numbers
    state = _start(9)
    for _ in range(40):
        state.apply(state.legal_actions()[0] if state.current_player else state.legal_actions()[-1])
    differ = 0
    for seed in range(6):
        a, b = state.clone(), state.clone()
        a.logging = b.logging = False
        finish_rollout(a, random.Random(seed), 100_000, None)
        finish_rollout(b, random.Random(seed), 100_000, {1: RUSH})
        differ += a.owned(1) != b.owned(1)
    assert differ >= 5


def test_candidates_and_bad_names() -> None:
    """The candidates: bundled strategies, the kingdom's rushes, Big Money + each card."""
    names = model_candidates(tuple(RUSH_KINGDOM))
    assert RUSH in names and "bmu+militia:2" in names and "militia" in names
    assert not any(n.startswith("rush:") for n in model_candidates(("cellar", "smithy")))
    with pytest.raises(ValueError, match="not a rush strategy name"):
        rush_strategy("rush:smithy+gardens")


def test_decisions_do_not_change_when_only_hidden_information_changes_mid_game() -> None:
    """With its model of the other seat fitted over a game, ``best``'s move is the
    same from a twin state that differs only in what seat 0 cannot see (the other
    seat's hand and deck, every deck's order): the bot (its model and plan search
    as they stand) copied and asked from the twin's view."""
    rush = StrategyBot(rush_strategy(RUSH))
    bot = make_bot("dominion", "best:iterations=16,seed=2")
    state = _start(11)
    rngs = seat_rngs(11, 2)
    checked = 0
    while state.current_player >= 0:
        p = state.current_player
        legal = state.legal_actions()
        if p == 1:
            state.apply(rush.act(state.view(1), legal, rngs[1]))
            continue
        if len(legal) > 1 and state.turns[0] >= 4 and checked < 6:
            twin = state.clone()
            mix = random.Random(checked)
            pool = twin.hands[1] + twin.decks[1]
            mix.shuffle(pool)
            twin.hands[1][:] = pool[: len(twin.hands[1])]
            twin.decks[1][:] = pool[len(twin.hands[1]) :]
            mix.shuffle(twin.decks[0])
            assert twin.view(0) == state.view(0)
            copied = copy.deepcopy(bot)
            move = bot.act(state.view(0), legal, random.Random(3))
            assert copied.act(twin.view(0), twin.legal_actions(), random.Random(3)) == move
            checked += 1
            state.apply(move)
            continue
        state.apply(bot.act(state.view(0), legal, rngs[0]))
    assert checked == 6
    assert bot.opponents is not None and bot.opponents.model(1) == RUSH
