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


WITCH_AND_BUREAUCRAT = ["witch", "bureaucrat", *FIRST_GAME[:8]]


def _buying(
    owned: list[str], turns: int, coins: int = 5, kingdom: list[str] | None = None
) -> DominionState:
    """Seat 0 in its buy phase with ``coins`` from its hand, owning ``owned`` too (in
    its discard pile), after ``turns`` turns."""
    hand = ["silver", "silver", "copper", "estate", "estate"][: 5 if coins == 5 else 0]
    s = make(
        kingdom=kingdom or WITCH_AND_BUREAUCRAT,
        hands={0: hand},
        discards={0: owned},
    )
    s.turns[0] = turns
    do(s, "play all treasures")
    assert s.coins == coins
    return s


def test_rollouts_model_each_seat_by_the_cards_it_owns() -> None:
    """A seat owning a Bureaucrat buys as the Bureaucrat strategy (Silver at $5, having
    one), one owning no strategy card as the kingdom's (Witch), and, past the first
    turns, still owning none, as Big Money Ultimate (Silver)."""
    from kingdoms.bots.dominion.search import MONEY_AFTER, kingdom_playout

    rng = random.Random(0)
    fresh = _buying([], turns=1)
    assert kingdom_playout(fresh, rng) == BUY0 + BY_ID["witch"]
    bureaucrat = _buying(["bureaucrat"], turns=3)
    assert kingdom_playout(bureaucrat, rng) == BUY0 + BY_ID["silver"]
    money = _buying([], turns=MONEY_AFTER + 1)
    assert kingdom_playout(money, rng) == BUY0 + BY_ID["silver"]
    witch = _buying(["bureaucrat", "witch"], turns=MONEY_AFTER + 1)
    assert kingdom_playout(witch, rng) == BUY0 + BY_ID["witch"]  # Witch: a second one


def test_lazy_situation_buys_as_the_full_one() -> None:
    """The rollouts' situation (owned cards counted on demand, other seats' VP left out
    while no buy can end the game) makes every bundled strategy buy what a situation
    with everything counted makes it buy, in positions of whole games."""
    from collections import Counter

    from kingdoms.bots.dominion import adapter
    from kingdoms.bots.dominion.bundled import bundled_names, bundled_strategy
    from kingdoms.bots.dominion.search import kingdom_playout, situation_of
    from kingdoms.bots.dominion.strategy import Situation
    from kingdoms.dominion.data import CARDS

    strategies = [bundled_strategy(n) for n in bundled_names()]
    checked = 0
    for seed in range(4):
        state = new_game("dominion", 2, seed, {"kingdom": ["witch", *FIRST_GAME[:9]]})
        assert isinstance(state, DominionState)
        rng = random.Random(seed)
        while state.current_player >= 0:
            if state.phase == 1 and not state.stack:
                p = state.turn
                full = Situation(
                    coins=state.coins,
                    owned={CARDS[c].id: n for c, n in Counter(state.owned(p)).items()},
                    supply={CARDS[c].id: state.supply[c] for c in state.piles},
                    costs=adapter.COSTS,
                    potion_costs=adapter.POTION_COSTS,
                    potions=state.potions,
                    treasure_values=adapter.TREASURE_VALUES,
                    treasure_ids=adapter.TREASURE_IDS,
                    types=adapter.TYPES,
                    buys=state.buys,
                    turn=state.turns[p] + 1,
                    others=((state.vp_of(1 - p), state.turns[1 - p]),),
                    seat=p,
                    taken=state.turns[p] + 1,
                )
                for strategy in strategies:
                    lazy = situation_of(state, p, others=False)
                    assert strategy.choose(lazy) == strategy.choose(full), strategy.name
                    assert lazy.total_money() == full.total_money()
                    assert lazy.vp() == full.vp()
                checked += 1
            state.apply(kingdom_playout(state, rng))
    assert checked > 40


def test_search_is_reproducible_with_a_seed_and_an_iteration_budget() -> None:
    state = new_game("dominion", 2, 5, {"kingdom": ["witch", *FIRST_GAME[:9]]})
    assert isinstance(state, DominionState)
    rng = random.Random(5)
    searched = 0
    while state.current_player >= 0 and searched < 4:
        me, legal = state.current_player, state.legal_actions()
        moves, stats = [], []
        for _ in range(2):
            bot = MCTSBot(iterations=60, playout="kingdom", width=5, keep=1.5, seed=11)
            moves.append(bot.act(state.view(me), legal, random.Random(0)))
            stats.append(bot.last_stats)
        assert moves[0] == moves[1] and stats[0] == stats[1]
        searched += bool(stats[0] and bot.last_iterations)
        state.apply(legal[rng.randrange(len(legal))])
    assert searched == 4
