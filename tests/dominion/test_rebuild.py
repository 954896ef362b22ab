"""Rebuilding a full Dominion state from one seat's view (what search bots simulate)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingdoms.core import new_game
from kingdoms.core.errors import InvalidArgument
from kingdoms.core.registry import get_game
from kingdoms.dominion.data import BY_ID, IS_ACTION, NUM_CARDS
from kingdoms.dominion.rebuild import state_from_view
from kingdoms.dominion.state import DominionState
from tests.dominion.helpers import OTHERS, do, ids, make

ALL_SETS = ["base", "base-1e", "base-2e", "alchemy"]
GAME = get_game("dominion")


def _random_position(
    seed: int, players: int, steps: int, kingdom: list[str] | None = None
) -> DominionState:
    """A game of random moves stopped after ``steps`` moves (or at its end)."""
    options: dict[str, object] = {"sets": ALL_SETS, "base_edition": 1 + seed % 2}
    if kingdom is not None:
        options = {"kingdom": kingdom, "alchemy_errata": bool(seed % 2)}
    state = new_game("dominion", players, seed, options)
    assert isinstance(state, DominionState)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.current_player < 0:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def _check_rebuilds(state: DominionState, rng: random.Random) -> None:
    for p in range(state.num_players):
        view = state.view(p)
        rebuilt = GAME.state_from_view(view, rng)
        assert isinstance(rebuilt, DominionState)
        rebuilt.check_invariants()
        assert rebuilt.view(p) == view
        if state.current_player == p:
            assert rebuilt.legal_actions() == state.legal_actions()


@given(
    seed=st.integers(0, 2**31),
    players=st.integers(2, 6),
    steps=st.integers(0, 400),
)
@settings(max_examples=60, deadline=None)
def test_rebuilt_view_equals_the_view(seed: int, players: int, steps: int) -> None:
    """Random kingdoms (every set), random positions, decisions pending or not: the
    rebuilt state's view for the seat is the seat's view, and it plays on."""
    state = _random_position(seed, players, steps)
    _check_rebuilds(state, random.Random(seed))


POSSESSION_KINGDOM = [
    "possession", "golem", "spy", "thief", "library",
    "moat", "bureaucrat", "harbinger", "sentry", "militia",
]  # fmt: skip


def test_every_step_of_attack_and_possession_games_rebuilds() -> None:
    """Every position of games with attacks, reactions, Library, Sentry, Harbinger,
    Golem and Possession turns (the players buy Possession and Potions first)."""
    wanted = {BY_ID["possession"], BY_ID["potion"], BY_ID["golem"]}
    possessed = decided = 0
    for seed in range(12):
        players = 2 + seed % 3
        state = new_game(
            "dominion",
            players,
            seed,
            {"kingdom": POSSESSION_KINGDOM, "alchemy_errata": bool(seed % 2)},
        )
        assert isinstance(state, DominionState)
        rng = random.Random(seed)
        for _ in range(3000):
            if state.current_player < 0:
                break
            possessed += state.controller >= 0
            decided += bool(state.stack)
            _check_rebuilds(state, rng)
            legal = state.legal_actions()
            pref = [a for a in legal if a % NUM_CARDS in wanted]
            pick = pref[-1] if pref and rng.random() < 0.7 else legal[rng.randrange(len(legal))]
            state.apply(pick)
    assert decided > 50
    assert possessed > 0


def test_states_differing_only_in_hidden_cards_rebuild_alike() -> None:
    """Two states that differ only in what seat 0 cannot see give seat 0 the same
    view, and the same rebuild (nothing hidden reaches the rebuilt state)."""
    differ = 0
    for seed in range(20):
        state = _random_position(seed, 3, 30 + seed * 7)
        if state.current_player < 0:
            continue
        other = state.determinize(0, random.Random(seed))
        differ += (state.hands[1:], state.decks) != (other.hands[1:], other.decks)
        assert state.view(0) == other.view(0)
        a = state_from_view(state.view(0), random.Random(99))
        b = state_from_view(other.view(0), random.Random(99))
        assert a.snapshot() == b.snapshot()
    assert differ > 10


def test_other_seats_hidden_cards_are_resampled() -> None:
    """The rebuild does not copy the true hidden cards: other hands vary between samples."""
    state = _random_position(3, 2, 60)
    me = state.current_player
    other = 1 - me
    hands = {
        tuple(sorted(state_from_view(state.view(me), random.Random(i)).hands[other]))
        for i in range(30)
    }
    assert len(hands) > 1


def test_library_card_is_hidden_from_others_and_resampled() -> None:
    """Library's drawn Action is in its owner's hand: only that seat sees which one;
    a rebuild for another seat puts some Action card it may own there."""
    s = make(
        kingdom=["library", *OTHERS[:9]],
        hands={0: ["library", "copper", "copper", "copper", "copper"]},
        decks={0: ["smithy", "silver"]},
        discards={1: ["witch"]},
    )
    do(s, "play Library")
    assert s.view(0)["engine"]["frames"][-1][3] == BY_ID["smithy"]
    assert s.view(1)["engine"]["frames"][-1][3] is None
    assert s.public_view()["engine"]["frames"][-1][3] is None
    for i in range(10):
        r = state_from_view(s.view(1), random.Random(i))
        drawn = r.stack[-1].a
        assert IS_ACTION[drawn] and drawn in r.hands[0]
        assert r.view(1) == s.view(1)


def test_moat_question_keeps_a_moat_in_the_hidden_hand() -> None:
    s = make(
        kingdom=OTHERS,
        hands={0: ["militia"], 1: ["moat", "copper", "copper", "estate", "estate"]},
    )
    do(s, "play Militia")
    assert s.stack[-1].code == "moat"
    for i in range(10):
        r = state_from_view(s.view(0), random.Random(i))
        assert BY_ID["moat"] in r.hands[1]
        assert r.view(0) == s.view(0)


def test_harbinger_shows_the_discard_pile_to_its_player() -> None:
    s = make(
        kingdom=["harbinger", *OTHERS[:9]],
        base_edition=2,
        hands={0: ["harbinger", "copper"]},
        decks={0: ["estate", "copper", "copper"]},
        discards={0: ["gold", "silver", "gold", "curse"]},
    )
    do(s, "play Harbinger")
    for i in range(10):
        r = state_from_view(s.view(0), random.Random(i))
        assert sorted(ids(r.discards[0])) == ["curse", "gold", "gold", "silver"]
        assert r.legal_actions() == s.legal_actions()


def test_bad_views_raise_clear_errors() -> None:
    state = _random_position(5, 2, 20)
    with pytest.raises(InvalidArgument, match="spectator"):
        state_from_view(state.public_view(), random.Random(0))
    view = state.view(0)
    with pytest.raises(InvalidArgument, match="not a Dominion view"):
        state_from_view({**view, "game": "kingdomino"}, random.Random(0))
    with pytest.raises(InvalidArgument, match="no field"):
        state_from_view({k: v for k, v in view.items() if k != "engine"}, random.Random(0))
    seats = [dict(s) for s in view["players"]]
    seats[1]["deck_size"] += 1
    with pytest.raises(InvalidArgument, match="seat 1 owns"):
        state_from_view({**view, "players": seats}, random.Random(0))
