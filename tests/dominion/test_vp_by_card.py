"""Where a player's points come from (the end screen's breakdown) adds up to the score."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kingdoms.dominion.data import BY_ID, NUM_CARDS
from kingdoms.dominion.rules import score, vp_by_card


@given(st.lists(st.integers(min_value=0, max_value=NUM_CARDS - 1), max_size=60))
def test_the_breakdown_adds_up_to_the_score(cards: list[int]) -> None:
    assert sum(vp_by_card(cards).values()) == score(cards)


def test_gardens_and_vineyards_count_what_they_are_worth() -> None:
    cards = [BY_ID["gardens"]] * 2 + [BY_ID["copper"]] * 19 + [BY_ID["province"]]
    assert vp_by_card(cards) == {BY_ID["gardens"]: 4, BY_ID["province"]: 6}
    vineyard = [BY_ID["vineyard"], BY_ID["village"], BY_ID["smithy"], BY_ID["curse"]]
    assert vp_by_card(vineyard) == {BY_ID["vineyard"]: 0, BY_ID["curse"]: -1}
