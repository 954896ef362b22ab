"""The ``start`` option: a seat's own starting cards (start states, opening splits)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from kingdoms.core import new_game
from kingdoms.core.errors import InvalidConfig
from kingdoms.core.record import GameRecord
from kingdoms.dominion.data import CARDS
from kingdoms.dominion.state import DominionState
from kingdoms.dominion.turn import TREASURE_COINS

ALCHEMY = [
    "familiar", "cellar", "moat", "village", "smithy",
    "market", "mine", "witch", "laboratory", "festival",
]  # fmt: skip
LUCKY = {
    "hand": ["Potion", "Estate", "Copper", "Copper", "Copper"],
    "deck": ["Copper"] * 4 + ["Silver", "Estate", "Estate"],
}


def _game(start: Any, seed: int = 1, kingdom: Any = None, players: int = 2) -> DominionState:
    options = {"kingdom": kingdom or ALCHEMY, "start": start}
    state = new_game("dominion", players=players, seed=seed, options=options)
    assert isinstance(state, DominionState)
    return state


def _ids(cards: list[int]) -> list[str]:
    return [CARDS[c].id for c in cards]


def test_a_given_hand_deck_and_supply() -> None:
    state = _game([LUCKY, None])
    plain = _game(None)
    assert _ids(state.hands[0]) == ["potion", "estate", "copper", "copper", "copper"]
    assert Counter(_ids(state.decks[0])) == {"copper": 4, "silver": 1, "estate": 2}
    assert len(state.hands[1]) == 5 and len(state.decks[1]) == 5
    silver = next(c.index for c in CARDS if c.id == "silver")
    potion = next(c.index for c in CARDS if c.id == "potion")
    # the Silver and the Potion come from the supply; Coppers and Estates as usual
    assert state.supply[silver] == plain.supply[silver] - 1
    assert state.supply[potion] == plain.supply[potion] - 1
    assert state.supply[:1] == plain.supply[:1]
    state.check_invariants()


def test_the_usual_start_is_unchanged_and_the_deal_is_seeded() -> None:
    plain = _game(None, seed=7)
    nones = _game([None, None], seed=7)
    assert "start" not in nones.config.options
    assert nones.snapshot() == plain.snapshot()
    a, b = _game([LUCKY, {"split": "4/3"}], seed=7), _game([LUCKY, {"split": "4/3"}], seed=7)
    assert a.snapshot() == b.snapshot()


def test_a_fixed_order_keeps_the_deck_as_listed() -> None:
    deck = ["Gold", "Silver", "Copper", "Copper", "Estate", "Copper", "Estate"]
    state = _game([{"deck": deck, "shuffle": False}, None])
    assert _ids(state.hands[0]) == ["gold", "silver", "copper", "copper", "estate"]
    assert _ids(state.decks[0][::-1]) == ["copper", "estate"]  # top card first


@pytest.mark.parametrize("split", ["5/2", "4/3"])
def test_an_opening_split(split: str) -> None:
    want = sorted(int(x) for x in split.split("/"))
    for seed in range(30):
        state = _game([{"split": split}, {"split": split}], seed=seed)
        for p in range(2):
            first = sum(TREASURE_COINS[c] for c in state.hands[p])
            second = sum(TREASURE_COINS[c] for c in state.decks[p][-5:])
            assert sorted((first, second)) == want


def test_the_option_is_saved_and_replayed() -> None:
    state = _game([{"discard": ["Silver"]}, LUCKY], seed=3)
    rng = random.Random(0)
    for _ in range(60):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    record = GameRecord.loads(GameRecord.from_state(state).dumps())
    again = record.replay()
    assert again.snapshot() == state.snapshot()
    assert record.config.options["start"][0]["discard"] == ["silver"]


@pytest.mark.parametrize(
    ("start", "message"),
    [
        ([LUCKY], "start must be a list of 2 entries"),
        ([{"deck": ["Silvr"]}, None], "unknown card 'Silvr' (did you mean 'Silver'?)"),
        ([{"hand": "Copper"}, None], "hand must be a list of card names"),
        ([{"cards": []}, None], "unknown keys ['cards']"),
        ([{"split": "6/1"}, None], "split must be one of 5/2, 4/3"),
        ([{"split": "5/2", "deck": ["Silver"] * 10}, None], "cannot be dealt as a 5/2"),
        ([{"split": "5/2", "hand": ["Copper"]}, None], "needs a shuffled deck"),
        ([{"shuffle": "yes"}, None], "shuffle must be true or false"),
        ([{"deck": ["Gold"] * 31}, None], "31 Gold beyond the usual start"),
        ([{"deck": ["Province"] * 5}, {"deck": ["Province"] * 4}], "9 Province"),
        (["Copper", None], "must be null or a mapping"),
    ],
)
def test_bad_start_states_are_refused(start: Any, message: str) -> None:
    with pytest.raises(InvalidConfig) as err:
        _game(start)
    assert message in str(err.value)


def test_cards_not_in_the_game_are_refused() -> None:
    with pytest.raises(InvalidConfig, match=r"1 Potion beyond the usual start.*has 0"):
        _game([LUCKY, None], kingdom="First Game")
