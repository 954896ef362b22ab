"""Steps that show what the acting seat could not know are final (no undo): every card
that reveals, looks at or moves hidden cards, and every draw that reshuffles.  Steps
that show nothing new stay undoable."""

from __future__ import annotations

import pytest
from tests.dominion.helpers import ALL_1E, make

from kingdoms.core.reveal import step_reveal
from kingdoms.dominion.state import DominionState

ALCHEMY_2E = [
    "vassal", "sentry", "bandit", "scrying_pool", "golem",
    "apothecary", "herbalist", "village", "smithy", "festival",
]  # fmt: skip
DECK = ["village", "copper", "estate", "silver", "gold", "copper", "smithy", "duchy"]
OTHER_HAND = ["copper", "estate", "silver", "duchy", "copper"]
OTHER_DECK = ["gold", "estate", "copper", "silver", "village", "copper"]


def _position(card: str, kingdom: list[str]) -> DominionState:
    return make(
        kingdom=kingdom,
        hands={0: [card, "copper", "copper", "silver", "estate"], 1: OTHER_HAND},
        decks={0: list(DECK), 1: list(OTHER_DECK)},
    )


def _step(state: DominionState, text: str) -> str | None:
    before = state.clone()
    action = state.parse_action(text)
    state.apply_checked(action)
    return step_reveal(before, action, state)


# card, its kingdom, the steps before, the step that shows hidden cards
REVEALING = [
    ("vassal", ALCHEMY_2E, [], "play Vassal"),  # the top card is discarded face up
    ("chancellor", ALL_1E, ["play Chancellor"], "discard deck"),  # a deck card on top
    ("sentry", ALCHEMY_2E, [], "play Sentry"),
    ("library", ALL_1E, [], "play Library"),
    ("adventurer", ALL_1E, [], "play Adventurer"),
    ("spy", ALL_1E, [], "play Spy"),
    ("thief", ALL_1E, [], "play Thief"),
    ("bandit", ALCHEMY_2E, [], "play Bandit"),
    ("bureaucrat", ALL_1E, [], "play Bureaucrat"),
    ("scrying_pool", ALCHEMY_2E, [], "play Scrying Pool"),
    ("golem", ALCHEMY_2E, [], "play Golem"),
    ("apothecary", ALCHEMY_2E, [], "play Apothecary"),
]


@pytest.mark.parametrize(("card", "kingdom", "before", "step"), REVEALING, ids=lambda x: str(x))
def test_a_step_that_shows_hidden_cards_is_final(
    card: str, kingdom: list[str], before: list[str], step: str
) -> None:
    state = _position(card, kingdom)
    for text in before:
        assert _step(state, text) is None, text  # playing a card from hand shows nothing new
    assert _step(state, step) == "that action revealed new information"


def test_herbalist_the_clean_up_draw_after_the_treasure_on_top_is_final() -> None:
    """Herbalist puts a Treasure from play on the deck (nothing hidden), then the
    clean-up draws a new hand: that step is final."""
    state = _position("herbalist", ALCHEMY_2E)
    assert _step(state, "play Herbalist") is None
    assert _step(state, "play all treasures") is None
    assert _step(state, "end buys") is None
    assert _step(state, "discard Herbalist from play") is None
    assert _step(state, "put Silver on deck") == "that action revealed new information"
    assert state.current_player == 1


def test_a_draw_that_reshuffles_is_final() -> None:
    state = make(
        kingdom=ALCHEMY_2E,
        hands={0: ["smithy", "copper", "copper", "silver", "estate"]},
        decks={0: ["gold"]},
        discards={0: ["copper", "estate", "silver", "village"]},
    )
    assert _step(state, "play Smithy") == "that action used chance (cards were shuffled or drawn)"


def test_a_draw_from_a_mixed_deck_is_final() -> None:
    state = _position("smithy", ALCHEMY_2E)
    assert _step(state, "play Smithy") == "that action revealed new information"


def test_a_draw_from_a_deck_of_one_kind_reveals_nothing() -> None:
    """Whatever the order, three Coppers come: the seat learns nothing it did not know."""
    state = make(
        kingdom=ALCHEMY_2E,
        hands={0: ["smithy", "copper", "copper", "silver", "estate"]},
        decks={0: ["copper"] * 4},
    )
    assert _step(state, "play Smithy") is None


def test_steps_that_show_nothing_new_stay_undoable() -> None:
    state = _position("festival", ALCHEMY_2E)
    assert _step(state, "play Festival") is None
    assert _step(state, "play all treasures") is None
    assert _step(state, "buy Silver") is None
