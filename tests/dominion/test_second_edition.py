"""Scenario tests for the seven second-edition kingdom cards (dominion-cards.md §4)."""

from __future__ import annotations

import random

import pytest

from kingdoms.core import IllegalAction
from tests.dominion.helpers import deck_top_first, do, ids, legal, make

K2 = [
    "artisan", "bandit", "harbinger", "merchant", "poacher",
    "sentry", "vassal", "throne_room", "village", "alchemist",
]  # fmt: skip


def test_artisan_gains_to_hand_then_topdecks_a_card() -> None:
    """§4.1 Artisan: gain a card up to $5 into the hand (no potion costs), then put a
    card from the hand onto the deck — it may be the gained card."""
    s = make(kingdom=K2, hands={0: ["artisan", "copper"]}, decks={0: ["estate"]})
    do(s, "play Artisan")
    gains = legal(s)
    assert "gain Bandit" in gains and "gain Duchy" in gains
    assert "gain Alchemist" not in gains  # $3 + potion: not "up to $5"
    assert "gain Potion" in gains  # Potion costs $4
    assert "gain Artisan" not in gains  # $6
    do(s, "gain Bandit")
    assert sorted(ids(s.hands[0])) == ["bandit", "copper"]
    assert sorted(legal(s)) == ["put Bandit on deck", "put Copper on deck"]
    do(s, "put Bandit on deck")
    assert deck_top_first(s, 0) == ["bandit", "estate"]
    assert ids(s.hands[0]) == ["copper"]


def test_bandit_gains_gold_then_trashes_a_non_copper_treasure() -> None:
    """§4.2 Bandit: Gold first; each other player reveals 2, trashes a non-Copper
    Treasure (the victim chooses between two), discards the rest."""
    s = make(
        3,
        K2,
        hands={0: ["bandit"], 1: ["estate"], 2: ["copper"]},
        decks={1: ["silver", "gold", "estate"], 2: ["copper", "estate", "gold"]},
    )
    do(s, "play Bandit")
    assert ids(s.discards[0]) == ["gold"]
    assert s.current_player == 1  # the victim chooses
    assert sorted(legal(s)) == ["trash Gold", "trash Silver"]
    do(s, "trash Silver")
    assert ids(s.trash) == ["silver"]
    assert ids(s.discards[1]) == ["gold"]
    # player 3 revealed Copper + Estate: nothing trashed, both discarded
    assert sorted(ids(s.discards[2])) == ["copper", "estate"]
    assert deck_top_first(s, 2) == ["gold"]


def test_bandit_trashes_potion_and_philosophers_stone() -> None:
    """§4.2: Potion and Philosopher's Stone are non-Copper Treasures."""
    s = make(
        kingdom=[*K2[:-1], "philosophers_stone"],
        hands={0: ["bandit"], 1: ["copper"]},
        decks={1: ["potion", "copper"]},
    )
    do(s, "play Bandit")
    assert ids(s.trash) == ["potion"]
    assert ids(s.discards[1]) == ["copper"]


def test_harbinger_draws_first_and_topdeck_is_optional() -> None:
    """§4.3 Harbinger: +1 Card +1 Action, then may put a card from the discard pile
    onto the deck."""
    s = make(
        kingdom=K2,
        hands={0: ["harbinger"]},
        decks={0: ["estate", "copper"]},
        discards={0: ["gold", "curse"]},
    )
    do(s, "play Harbinger")
    assert ids(s.hands[0]) == ["estate"]
    assert s.actions == 1
    assert sorted(legal(s)) == ["done", "put Curse on deck", "put Gold on deck"]
    do(s, "put Gold on deck")
    assert deck_top_first(s, 0) == ["gold", "copper"]
    assert ids(s.discards[0]) == ["curse"]


def test_merchant_bonus_on_the_first_silver_only() -> None:
    """§4.4 Merchant: each Merchant play gives +$1 on the first Silver; two Merchants
    +$2; later Silvers nothing."""
    s = make(
        kingdom=K2,
        hands={0: ["merchant", "merchant", "village", "silver", "silver"]},
        decks={0: ["copper", "copper", "copper"]},
    )
    do(s, "play Village", "play Merchant", "play Merchant")
    assert s.phase == 1  # no Action left in hand: Buy phase
    do(s, "play all treasures")
    assert s.coins == 2 + 2 + 2 + 3  # two Silvers, +$2 once, three Coppers


def test_throne_room_on_merchant_gives_two() -> None:
    """§6: Throne Room + Merchant = +$2 on the first Silver."""
    s = make(
        kingdom=K2,
        hands={0: ["throne_room", "merchant", "silver", "silver"]},
        decks={0: ["estate", "estate"]},
    )
    do(s, "play Throne Room", "play Merchant twice")
    do(s, "play Silver")
    assert s.coins == 4
    do(s, "play Silver")
    assert s.coins == 6


def test_merchant_after_the_first_silver_gives_nothing() -> None:
    """§4.4: a Merchant played after the first Silver gives nothing for later Silvers
    (Silvers are played in the Buy phase, after all Actions — so this is about the turn's
    first Silver; the bonus state resets each turn)."""
    s = make(kingdom=K2, hands={0: ["merchant", "silver"]}, decks={0: ["silver"] * 6})
    do(s, "play Merchant", "play Silver")
    assert s.coins == 3
    do(s, "play Silver")
    assert s.coins == 5
    do(s, "end buys")
    assert s.merchants == 0 and not s.silver_played


def test_poacher_discards_one_per_empty_supply_pile() -> None:
    """§4.5 Poacher: +1 Card +1 Action +$1, discard a card per empty Supply pile
    (every pile counts: Curse, Potion, ...)."""
    s = make(
        kingdom=K2,
        hands={0: ["poacher", "estate", "copper", "gold"]},
        decks={0: ["silver"]},
        supply={"curse": 0, "potion": 0},
    )
    do(s, "play Poacher")
    assert s.coins == 1 and s.actions == 1
    assert "discard Silver" in legal(s)  # drawn before discarding
    do(s, "discard Estate", "discard Copper")
    assert sorted(ids(s.hands[0])) == ["gold", "silver"]


def test_poacher_discards_the_whole_hand_when_short() -> None:
    """§4.5: not enough cards → discard the whole hand."""
    s = make(
        kingdom=K2,
        hands={0: ["poacher"]},
        decks={0: ["copper"]},
        supply={"curse": 0, "potion": 0, "estate": 0},
    )
    do(s, "play Poacher")
    assert s.hands[0] == [] and ids(s.discards[0]) == ["copper"]


def test_sentry_trash_then_discard_then_order() -> None:
    """§4.6 Sentry: look at the top 2; trash any, discard any (after trashing), put
    the rest back in any order."""
    s = make(kingdom=K2, hands={0: ["sentry"]}, decks={0: ["copper", "curse", "estate", "gold"]})
    do(s, "play Sentry")
    assert ids(s.looking[0]) == ["curse", "estate"]
    assert sorted(legal(s)) == ["done", "trash Curse", "trash Estate"]
    do(s, "trash Curse", "done")
    assert ids(s.trash) == ["curse"]
    do(s, "done")  # keep the Estate
    assert deck_top_first(s, 0) == ["estate", "gold"]
    s2 = make(kingdom=K2, hands={0: ["sentry"]}, decks={0: ["copper", "silver", "gold"]})
    do(s2, "play Sentry", "done", "done")
    assert sorted(legal(s2)) == ["put Gold on top", "put Silver on top"]
    do(s2, "put Gold on top")
    assert deck_top_first(s2, 0) == ["gold", "silver"]


def test_sentry_looks_privately() -> None:
    """Hidden information: only the Sentry player sees the looked-at cards."""
    s = make(kingdom=K2, hands={0: ["sentry"]}, decks={0: ["copper", "province", "gold"]})
    do(s, "play Sentry")
    assert s.view(0)["looking"] == ["province", "gold"]
    assert s.view(1)["looking"] == []
    assert s.view(1)["players"][0]["looking_count"] == 2
    det = s.determinize(1, random.Random(3))
    assert det.view(1) == s.view(1)


def test_vassal_plays_a_discarded_action_without_using_an_action() -> None:
    """§4.7 Vassal: +$2, discard the top card; an Action may be played from the discard."""
    s = make(kingdom=K2, hands={0: ["vassal"]}, decks={0: ["village", "copper", "copper"]})
    do(s, "play Vassal")
    assert s.coins == 2 and s.actions == 0
    assert legal(s) == ["play Village", "don't play Village"]
    assert s.view(1)["decision"]["about"] == {"player": 0, "card": "village"}
    do(s, "play Village")
    assert s.actions == 2  # Village's +2, no Action spent on it
    assert ids(s.in_play[0]) == ["vassal", "village"]
    s2 = make(kingdom=K2, hands={0: ["vassal"]}, decks={0: ["estate"]})
    do(s2, "play Vassal")
    assert ids(s2.discards[0]) == ["estate"]


def test_vassal_may_decline() -> None:
    s = make(kingdom=K2, hands={0: ["vassal"]}, decks={0: ["smithy", "copper"]})
    s = make(kingdom=[*K2[:-1], "smithy"], hands={0: ["vassal"]}, decks={0: ["smithy"]})
    do(s, "play Vassal", "don't play Smithy")
    assert ids(s.discards[0]) == ["smithy"]


@pytest.mark.parametrize("edition", [1, 2])
def test_base_edition_makes_throne_room_mine_moneylender_optional(edition: int) -> None:
    """§1.1a base_edition: first edition mandatory when possible, second optional."""
    kingdom = ["throne_room", "mine", "moneylender", *K2[:7]]
    s = make(
        kingdom=kingdom,
        hands={0: ["throne_room", "mine", "moneylender", "copper"]},
        base_edition=edition,
    )
    do(s, "play Throne Room")
    assert ("done" in legal(s)) == (edition == 2)
    if edition == 2:
        do(s, "done")  # Throne Room plays nothing
        assert s.phase == 1
    else:
        with pytest.raises(IllegalAction):
            s.apply_checked(s.legal_actions()[-1] + 10_000)
