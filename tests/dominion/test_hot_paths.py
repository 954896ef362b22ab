"""The engine's short cuts give what the plain way gives: the remembered buy lists
(``buy_cache``) the legal actions of a state with nothing remembered, in games, in
copies and after a pile empties; drawing several cards at once what taking them one
by one gives (the same cards, the same shuffle, the same generator state); scores worked out from
the kept owned counts the scores of the cards."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kingdoms.dominion.data import BY_ID, IS_TREASURE
from kingdoms.dominion.rules import VP, score, score_counts, vp_by_card, vp_by_card_counts
from kingdoms.dominion.state import BUY_PHASE, NO_END, DominionState
from tests.dominion.helpers import do, make, soak_game


def fresh_legal(state: DominionState) -> list[int]:
    """The legal actions of ``state`` worked out with nothing remembered."""
    copy = state.clone()
    copy.buy_cache.clear()
    return copy.legal_actions()


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_remembered_buy_lists_give_the_legal_actions_of_a_fresh_state(seed: int) -> None:
    state, bots, rngs = soak_game(seed, "buy")
    side = random.Random(seed)
    copies: list[DominionState] = []
    for _ in range(3000):
        player = state.current_player
        if player < 0:
            break
        legal = state.legal_actions()
        assert legal == fresh_legal(state)
        if side.random() < 0.02:
            copies.append(state.clone())
        state.apply_checked(bots[player].act(state.view(player), legal, rngs[player]))
    # copies made along the way play on their own way: their lists stay right
    for copy in copies[:5]:
        for _ in range(200):
            if copy.is_terminal():
                break
            legal = copy.legal_actions()
            assert legal == fresh_legal(copy)
            copy.apply(legal[side.randrange(len(legal))])


def test_a_pile_emptied_is_no_longer_offered_at_the_same_coins() -> None:
    s = make(supply={"smithy": 1}, hands={0: ["silver", "silver"], 1: ["silver", "silver"]})
    do(s, "play all treasures")
    assert s.phase == BUY_PHASE and "buy Smithy" in s.describe_legal()
    assert s.buy_cache  # remembered for $4
    do(s, "buy Smithy")
    do(s, "play all treasures")  # seat 1 at $4 again: the pile is empty now
    assert s.coins == 4 and "buy Smithy" not in s.describe_legal()
    assert s.legal_actions() == fresh_legal(s)


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=30, deadline=None)
def test_a_remembered_end_check_is_the_end_check_of_the_supply(seed: int) -> None:
    """Clean-up remembers that the supply ends no game until a pile empties: wherever
    it is remembered, the supply ends none, and games end where a fresh check ends
    them (the soak's bots buy every kind of card, emptying piles)."""
    state, bots, rngs = soak_game(seed, "end")
    remembered = 0
    for _ in range(5000):
        player = state.current_player
        if player < 0:
            break
        if NO_END in state.buy_cache:
            remembered += 1
            assert state.game_end_reason() == ""
        state.apply_checked(
            bots[player].act(state.view(player), state.legal_actions(), rngs[player])
        )
    assert state.is_terminal() and state.ended_by == state.game_end_reason() != ""
    assert remembered > 0


def test_the_last_province_ends_the_game_though_earlier_turns_remembered_no_end() -> None:
    s = make(
        supply={"province": 1},
        hands={0: ["gold", "gold", "silver", "copper", "copper"]},
        decks={0: ["gold", "gold", "gold", "silver", "silver"]},
    )
    do(s, "play all treasures", "buy Silver")  # seat 0 buys no Province yet
    assert s.turn == 1 and NO_END in s.buy_cache and not s.is_terminal()
    do(s, "play all treasures", "end buys")
    assert s.turn == 0 and NO_END in s.buy_cache
    do(s, "play all treasures", "buy Province")
    assert s.is_terminal() and s.ended_by == "provinces"


def test_a_copy_starts_with_nothing_remembered_and_the_original_keeps_its_own() -> None:
    s = make(hands={0: ["gold", "gold"]})
    do(s, "play all treasures")
    legal = s.legal_actions()
    copy = s.clone()
    assert copy.buy_cache == {} and s.buy_cache
    copy.buy_cache[123] = [1]
    assert 123 not in s.buy_cache and s.legal_actions() == legal


def _one_by_one(state: DominionState, p: int, n: int) -> list[int]:
    out = []
    for _ in range(n):
        c = state.take_top(p)
        if c < 0:
            break
        out.append(c)
    return out


@given(
    deck=st.integers(0, 8),
    discard=st.integers(0, 8),
    n=st.integers(0, 12),
    seed=st.integers(0, 1000),
)
@settings(max_examples=200, deadline=None)
def test_taking_cards_at_once_is_taking_them_one_by_one(
    deck: int, discard: int, n: int, seed: int
) -> None:
    cards = ["copper", "silver", "gold", "estate", "duchy", "smithy", "village", "curse"]
    s = make(seed=seed)
    s.decks[0] = [BY_ID[cards[i % 8]] for i in range(deck)]
    s.discards[0] = [BY_ID[cards[(i * 3) % 8]] for i in range(discard)]
    a, b = s.clone(), s.clone()
    assert a.take_top_n(0, n) == _one_by_one(b, 0, n)
    assert (a.decks[0], a.discards[0]) == (b.decks[0], b.discards[0])
    assert a.rng.getstate() == b.rng.getstate()


SCORED = [
    "copper", "estate", "duchy", "province", "curse", "gardens", "vineyard",
    "village", "smithy", "golem", "silver",
]  # fmt: skip


@given(
    cards=st.lists(st.sampled_from(SCORED), max_size=60),
)
@settings(max_examples=300, deadline=None)
def test_scores_from_counts_are_the_scores_of_the_cards(cards: list[str]) -> None:
    owned = [BY_ID[c] for c in cards]
    counts = [0] * len(VP)
    for c in owned:
        counts[c] += 1
    assert score_counts(counts) == score(owned)
    assert vp_by_card_counts(counts) == dict(sorted(vp_by_card(owned).items()))
    # only the cards owned, as a state's owned_kinds (more kinds change nothing)
    kinds = sorted({*owned, BY_ID["gold"]})
    assert score_counts(counts, kinds) == score(owned)
    assert vp_by_card_counts(counts, kinds) == dict(sorted(vp_by_card(owned).items()))


TREASURE_KINGDOM = [
    "philosophers_stone", "merchant", "smithy", "village", "market",
    "moat", "mine", "cellar", "militia", "remodel",
]  # fmt: skip
HAND_CARDS = [
    "copper", "silver", "gold", "potion", "philosophers_stone", "estate", "smithy",
    "merchant", "curse",
]  # fmt: skip


@given(
    hand=st.lists(st.sampled_from(HAND_CARDS), max_size=9),
    merchants=st.integers(0, 2),
    silver_played=st.booleans(),
    coins=st.integers(0, 3),
    logging=st.booleans(),
)
@settings(max_examples=200, deadline=None)
def test_playing_all_treasures_is_playing_them_one_by_one(
    hand: list[str], merchants: int, silver_played: bool, coins: int, logging: bool
) -> None:
    s = make(
        kingdom=TREASURE_KINGDOM,
        hands={0: hand},
        discards={0: ["copper"] * 7},
    )
    s.merchants, s.silver_played, s.coins, s.logging = merchants, silver_played, coins, logging
    s.log.clear()
    a, b = s.clone(), s.clone()
    a.play_all_treasures(0)
    for c in list(b.hands[0]):
        if IS_TREASURE[c]:
            b.play_treasure(0, c)
    assert a.snapshot() == b.snapshot()
    assert a.log == b.log


def test_games_of_one_kingdom_start_alike_and_own_their_supply() -> None:
    """The piles and supply a kingdom starts with are worked out once per process:
    every game gets its own copy."""
    first = make(kingdom=TREASURE_KINGDOM)
    start = (first.piles.copy(), first.supply.copy())
    first.supply[BY_ID["smithy"]] = 0
    first.piles.append(999)
    second = make(kingdom=TREASURE_KINGDOM)
    assert (second.piles, second.supply) == start
    assert second.supply is not first.supply and second.piles is not first.piles
