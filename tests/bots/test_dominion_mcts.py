"""The generic search bot playing Dominion (rebuilt states, rollouts, ranking)."""

from __future__ import annotations

import random

from kingdoms.bots.base import bot_names, make_bot
from kingdoms.bots.dominion.search import bmu_playout, obvious_action, rank_actions
from kingdoms.bots.mcts import MCTSBot
from kingdoms.core.registry import new_game
from kingdoms.core.runner import play_out, seat_rngs
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import BY_ID, NUM_CARDS
from kingdoms.dominion.state import DominionState
from tests.dominion.helpers import FIRST_GAME, do, make

BUY0 = A.BUY * NUM_CARDS


def test_mcts_is_offered_with_dominion_defaults() -> None:
    assert "mcts" in bot_names("dominion")
    bot = make_bot("dominion", "mcts:time=0.5")
    assert isinstance(bot, MCTSBot)
    assert (bot.playout, bot.width, bot.keep, bot.time) == ("kingdom", 5, 1.5, 0.5)
    assert make_bot("dominion", "mcts:width=0").width is None  # type: ignore[attr-defined]


def test_mcts_plays_whole_games_legally() -> None:
    """Every move checked legal, with attacks and Alchemy cards in the kingdom."""
    for seed, kingdom in ((1, FIRST_GAME), (2, "Forbidden Arts")):
        state = new_game("dominion", 2, seed, {"kingdom": kingdom})
        state.logging = False
        bots = [make_bot("dominion", "mcts:iterations=8"), make_bot("dominion", "witch")]
        play_out(state, bots, seat_rngs(seed, 2), checked=True)
        assert state.outcome() is not None


def test_mcts_move_depends_only_on_the_view() -> None:
    """Two states differing only in hidden cards get the same move from the same seed."""
    for seed in range(6):
        state = new_game("dominion", 2, seed, {"kingdom": FIRST_GAME})
        assert isinstance(state, DominionState)
        rng = random.Random(seed)
        for _ in range(12 + 5 * seed):
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        me = state.current_player
        other = state.determinize(me, random.Random(seed + 100))
        moves = []
        for st in (state, other):
            bot = MCTSBot(iterations=30, playout="big-money-ultimate", width=5, seed=7)
            moves.append(bot.act(st.view(me), st.legal_actions(), random.Random(0)))
        assert moves[0] == moves[1]


def test_playing_all_treasures_is_not_searched() -> None:
    s = make(kingdom=FIRST_GAME, hands={0: ["copper", "copper", "silver", "estate", "gold"]})
    assert s.phase == 1
    legal = s.legal_actions()
    assert obvious_action(s, legal) == A.A_ALL_TREASURES
    bot = MCTSBot(iterations=50, playout="big-money-ultimate", width=5, seed=1)
    assert bot.act(s.view(0), legal, random.Random(0)) == A.A_ALL_TREASURES
    assert bot.last_iterations == 0


def test_ranking_puts_the_rollout_choice_first_and_dear_cards_next() -> None:
    s = make(
        kingdom=FIRST_GAME,
        hands={0: ["gold", "gold", "silver", "estate", "estate"]},
        decks={0: ["gold"] * 6},
    )
    do(s, "play all treasures")
    ranked = rank_actions(s, s.legal_actions())
    assert ranked[0] == BUY0 + BY_ID["province"]  # Big Money Ultimate with money > 18
    assert ranked[1] == BUY0 + BY_ID["gold"]
    assert set(ranked) == set(s.legal_actions())
    assert ranked.index(BUY0 + BY_ID["curse"]) > ranked.index(A.A_END_PHASE)


def test_rollout_policy_finishes_games_on_the_state() -> None:
    rng = random.Random(3)
    for seed in range(5):
        state = new_game("dominion", 2 + seed % 3, seed, {"sets": ["base", "alchemy"]})
        state.logging = False
        steps = 0
        while state.current_player >= 0:
            state.apply(bmu_playout(state, rng))
            steps += 1
            assert steps < 20_000
        assert state.outcome() is not None


def test_keep_holds_the_ranked_move_without_clear_evidence() -> None:
    """With a huge ``keep`` the searched move is always the ranking's first; with
    ``keep=0`` the search may overrule it."""
    import pytest

    from kingdoms.core.errors import InvalidConfig

    with pytest.raises(InvalidConfig, match="keep"):
        MCTSBot(keep=-1)
    differs = 0
    for seed in range(8):
        state = new_game("dominion", 2, seed, {"kingdom": FIRST_GAME})
        assert isinstance(state, DominionState)
        rng = random.Random(seed)
        while state.current_player >= 0 and (state.stack or state.phase != 1 or state.coins < 3):
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            if A.A_ALL_TREASURES in state.legal_actions() and not state.stack:
                state.apply(A.A_ALL_TREASURES)
        if state.current_player < 0:
            continue
        me, legal = state.current_player, state.legal_actions()
        first = rank_actions(state, legal)[0]
        held = MCTSBot(iterations=40, playout="kingdom", width=5, keep=1e9, seed=seed)
        assert held.act(state.view(me), legal, random.Random(0)) == first
        free = MCTSBot(iterations=40, playout="kingdom", width=5, keep=0, seed=seed)
        differs += free.act(state.view(me), legal, random.Random(0)) != first
    assert differs > 0


def test_kingdom_rollouts_buy_the_kingdoms_card() -> None:
    """In a Witch kingdom the rollout policy buys Witches (the bundled Witch strategy)."""
    from kingdoms.bots.dominion.search import kingdom_playout

    kingdom = ["witch", *FIRST_GAME[:9]]
    state = new_game("dominion", 2, 4, {"kingdom": kingdom})
    assert isinstance(state, DominionState)
    rng = random.Random(0)
    while state.current_player >= 0 and max(state.turns) < 12:
        state.apply(kingdom_playout(state, rng))
    assert all(BY_ID["witch"] in state.owned(p) for p in range(2))
