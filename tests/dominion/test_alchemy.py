"""Scenario tests for Alchemy (dominion-cards.md §1.4, §5, §6; alchemy.md)."""

from __future__ import annotations

import random

import pytest

from kingdoms.core import InvalidConfig, get_game, new_game
from kingdoms.dominion.data import BY_ID, CARDS
from kingdoms.dominion.rules import score
from kingdoms.dominion.state import DominionState
from tests.dominion.helpers import deck_top_first, do, ids, legal, make

KA = sorted(c.id for c in CARDS if c.set == "alchemy" and c.id not in ("transmute", "vineyard"))
"""Every Alchemy kingdom card but the two in ``KB``."""
KB = [
    "transmute", "vineyard", "remodel", "mine", "workshop",
    "throne_room", "feast", "moat", "witch", "thief",
]  # fmt: skip
KC = [
    "possession", "feast", "mine", "bureaucrat", "moneylender",
    "thief", "witch", "moat", "throne_room", "golem",
]  # fmt: skip


# -- §1.4 costs --------------------------------------------------------------------------
def test_buying_needs_both_coins_and_potion() -> None:
    """§1.4: a cost is (coins, potions); both parts are needed to buy."""
    s = make(kingdom=KA, hands={0: ["potion", "silver", "copper", "copper"]})
    do(s, "play all treasures")
    assert s.coins == 4 and s.potions == 1
    buys = legal(s)
    assert "buy Golem" in buys  # $4P
    assert "buy Possession" not in buys  # $6P
    s2 = make(kingdom=KA, hands={0: ["gold", "gold"]})
    do(s2, "play all treasures")
    assert "buy Golem" not in legal(s2)  # coins never stand in for a potion
    assert "buy Gold" in legal(s2)


def test_potion_pile_joins_only_with_potion_costs_and_ends_the_game() -> None:
    """Setup: 16 Potions whatever the player count, only if a kingdom card costs a
    potion; the Potion pile counts for the end condition."""
    for players in (2, 6):
        s = new_game("dominion", players=players, seed=1, options={"kingdom": KA})
        assert s.supply[BY_ID["potion"]] == 16
    s = new_game("dominion", players=2, seed=1, options={"kingdom": "First Game"})
    assert BY_ID["potion"] not in s.piles
    s = make(
        kingdom=KA,
        hands={0: ["gold", "silver"]},
        supply={"potion": 1, "curse": 0, "golem": 0},
    )
    do(s, "play all treasures", "buy Potion")
    assert s.ended_by == "piles"


def test_up_to_limits_exclude_potion_costs() -> None:
    """§1.4: "up to $4" (Workshop) may gain Potion ($4) but no potion-cost card."""
    s = make(kingdom=KB, hands={0: ["workshop"]})
    do(s, "play Workshop")
    assert "gain Potion" in legal(s)
    assert "gain Transmute" not in legal(s) and "gain Vineyard" not in legal(s)


def test_remodel_keeps_the_potion_of_the_trashed_card() -> None:
    """§1.4: Remodel on Golem ($4P) reaches $6P; on Gold ($6) no potion card."""
    s = make(kingdom=[*KA[:9], "remodel"], hands={0: ["remodel", "golem", "gold"]})
    do(s, "play Remodel", "trash Golem")
    assert "gain Possession" in legal(s) and "gain Gold" in legal(s)
    s2 = make(kingdom=[*KA[:9], "remodel"], hands={0: ["remodel", "gold"]})
    do(s2, "play Remodel", "trash Gold")
    assert "gain Province" in legal(s2)
    assert not any(t in legal(s2) for t in ("gain Alchemist", "gain Golem", "gain Possession"))


def test_mine_on_philosophers_stone_and_on_potion() -> None:
    """§1.4: Mine on Philosopher's Stone ($3P) → a Treasure up to $6P; on Potion ($4)
    → up to $7 without potion (not Philosopher's Stone)."""
    kingdom = [*KA[:9], "mine"]
    s = make(kingdom=kingdom, hands={0: ["mine", "philosophers_stone"]})
    do(s, "play Mine", "trash Philosopher's Stone")
    assert sorted(legal(s)) == sorted(
        ["gain Copper", "gain Silver", "gain Gold", "gain Potion", "gain Philosopher's Stone"]
    )
    s2 = make(kingdom=kingdom, hands={0: ["mine", "potion"]})
    do(s2, "play Mine", "trash Potion")
    assert "gain Philosopher's Stone" not in legal(s2) and "gain Gold" in legal(s2)


# -- §5 cards ----------------------------------------------------------------------------
def test_potion_produces_a_potion_not_coins() -> None:
    """§5.0 Potion: +1 potion when played."""
    s = make(kingdom=KA, hands={0: ["potion"]})
    do(s, "play Potion")
    assert s.potions == 1 and s.coins == 0


def test_alchemist_printed_wording_topdecks_if_discarded_before_the_potion() -> None:
    """§5.1 (printed): when discarded from play with a Potion in play, the Alchemist may
    go onto the deck; the player chooses the Clean-up order."""
    s = make(
        kingdom=KA,
        hands={0: ["alchemist", "potion", "copper"]},
        decks={0: ["estate", "estate", "copper", "copper", "copper", "copper", "copper"]},
    )
    do(s, "play Alchemist", "play all treasures", "end buys")
    assert s.current_player == 0 and s.phase == 3
    assert "discard Alchemist from play" in legal(s) and "done" in legal(s)
    do(s, "discard Alchemist from play", "put Alchemist on deck")
    assert "alchemist" in ids(s.hands[0])  # topdecked, then drawn in the new hand
    # Potion first: the Alchemist can no longer go on the deck
    s2 = make(
        kingdom=KA,
        hands={0: ["alchemist", "potion"]},
        decks={0: ["estate"] * 8},
    )
    do(s2, "play Alchemist", "play all treasures", "end buys", "discard Potion from play")
    assert s2.current_player == 1  # nothing left to decide: Clean-up finished
    assert "alchemist" not in ids(s2.hands[0])


def test_alchemist_errata_topdecks_at_the_start_of_cleanup() -> None:
    """§5.1 (2022): at the start of Clean-up, with a Potion in play, may topdeck."""
    s = make(
        kingdom=KA,
        hands={0: ["alchemist", "alchemist", "potion"]},
        decks={0: ["estate"] * 9},
        alchemy_errata=True,
    )
    do(s, "play Alchemist", "play Alchemist", "play all treasures", "end buys")
    assert legal(s) == ["put Alchemist on deck", "discard Alchemist"]
    do(s, "put Alchemist on deck", "put Alchemist on deck")
    assert ids(s.hands[0]).count("alchemist") == 2


def _topdecked(s: DominionState) -> list[str]:
    """The cards player 0 put onto the deck, in order (the last one ends on top)."""
    return [e.data["card"] for e in s.log if e.type == "topdeck" and e.player == 0]


@pytest.mark.parametrize("alchemist_first", [True, False])
def test_alchemist_and_herbalist_printed_wording_the_player_orders_cleanup(
    alchemist_first: bool,
) -> None:
    """§5.1 / §5.6 (printed wording): each ability triggers as its card is discarded
    from play, and the player picks the order cards leave play.  Alchemist first: it
    goes onto the deck (the Potion is still in play), then the Herbalist puts the
    Potion on top of it.  Herbalist first: the Potion goes onto the deck and the
    Alchemist, with no Potion left in play, is discarded."""
    s = make(
        kingdom=KA,
        hands={0: ["alchemist", "herbalist", "potion"]},
        decks={0: ["estate"] * 9},
    )
    do(s, "play Alchemist", "play Herbalist", "play all treasures", "end buys")
    s.log.clear()
    options = legal(s)
    assert "discard Alchemist from play" in options
    assert "discard Herbalist from play" in options
    if alchemist_first:
        do(s, "discard Alchemist from play", "put Alchemist on deck")
        do(s, "discard Herbalist from play", "put Potion on deck")
        assert _topdecked(s) == ["alchemist", "potion"]
        assert ids(s.hands[0])[:2] == ["potion", "alchemist"]  # drawn from the top
    else:
        do(s, "discard Herbalist from play", "put Potion on deck")
        assert s.current_player == 1  # the Alchemist asks nothing: no Potion in play
        assert _topdecked(s) == ["potion"]
        assert "alchemist" in ids(s.discards[0])


def test_alchemist_and_herbalist_errata_alchemists_first() -> None:
    """§5.1 / §5.6 (2022 wording): the Alchemist's ability happens at the start of
    Clean-up, before any card is discarded from play; the Herbalist's happens as a
    Treasure is discarded from play, later.  So the Alchemists are asked first and go
    onto the deck first, and the Herbalist's Treasure lands on top of them."""
    s = make(
        kingdom=KA,
        hands={0: ["alchemist", "alchemist", "herbalist", "potion", "silver"]},
        decks={0: ["estate"] * 9},
        alchemy_errata=True,
    )
    do(s, "play Alchemist", "play Alchemist", "play Herbalist", "play all treasures")
    do(s, "end buys")
    s.log.clear()
    assert legal(s) == ["put Alchemist on deck", "discard Alchemist"]
    do(s, "put Alchemist on deck", "put Alchemist on deck")
    assert sorted(legal(s)) == ["done", "put Potion on deck", "put Silver on deck"]
    do(s, "put Silver on deck")
    assert s.current_player == 1
    assert _topdecked(s) == ["alchemist", "alchemist", "silver"]
    assert ids(s.hands[0])[:3] == ["silver", "alchemist", "alchemist"]  # drawn from the top


def test_cleanup_asks_only_when_the_order_matters() -> None:
    """Clean-up order: ordinary turns stay one click."""
    s = make(kingdom=KA, hands={0: ["alchemist", "copper"]}, decks={0: ["estate"] * 8})
    do(s, "play Alchemist", "play all treasures", "end buys")
    assert s.current_player == 1  # no Potion in play: nothing to ask


def test_apothecary_takes_coppers_and_potions_and_orders_the_rest() -> None:
    """§5.2 Apothecary: draw first; revealed Coppers and Potions to hand, the others
    back in any order."""
    s = make(
        kingdom=KA,
        hands={0: ["apothecary"]},
        decks={0: ["silver", "copper", "potion", "estate", "gold", "duchy"]},
    )
    do(s, "play Apothecary")
    assert sorted(ids(s.hands[0])) == ["copper", "potion", "silver"]
    assert sorted(legal(s)) == ["put back Estate now", "put back Gold now"]
    do(s, "put back Gold now")  # Gold first, so the Estate ends on top
    assert deck_top_first(s, 0) == ["estate", "gold", "duchy"]


def test_apprentice_draws_by_cost() -> None:
    """§5.3 Apprentice: +1 Card per $1 of the trashed card, +2 if it costs a potion."""
    for trashed, drawn in (("golem", 6), ("potion", 4), ("transmute", 2), ("copper", 0)):
        kingdom = [*KA[:9], "transmute"]
        s = make(kingdom=kingdom, hands={0: ["apprentice", trashed]}, decks={0: ["copper"] * 9})
        do(s, "play Apprentice")
        do(s, s.describe_legal()[0])  # the only card in hand
        assert len(s.hands[0]) == drawn, trashed
        assert s.actions == 1


def test_familiar_curses_moat_blocks_and_works_without_curses() -> None:
    """§5.4 Familiar: +1 Card +1 Action, others gain a Curse; Moat blocks; no Curses
    left: still draws."""
    s = make(3, [*KC[:7], "familiar", "moat", "golem"], hands={0: ["familiar"], 1: ["moat"]})
    do(s, "play Familiar", "reveal Moat")
    assert "curse" not in ids(s.discards[1])
    assert ids(s.discards[2]) == ["curse"]
    s2 = make(kingdom=KA, hands={0: ["familiar"]}, supply={"curse": 0})
    do(s2, "play Familiar")
    assert len(s2.hands[0]) == 1 and s2.actions == 1


def test_golem_finds_two_non_golem_actions_and_plays_them_in_chosen_order() -> None:
    """§5.5 Golem: revealed Golems and non-Actions are discarded; the two found are
    played in the order chosen, without using Actions."""
    s = make(
        kingdom=[*KA[:9], "village"],
        hands={0: ["golem"]},
        decks={0: ["golem", "copper", "village", "estate", "university", "gold"]},
    )
    do(s, "play Golem")
    assert sorted(ids(s.discards[0])) == ["copper", "estate", "golem"]
    assert sorted(legal(s)) == ["play University first", "play Village first"]
    do(s, "play Village first")
    assert ids(s.in_play[0]) == ["golem", "village", "university"]
    assert s.actions == 0 + 2 + 2  # Golem used the only Action; plays are free
    assert ids(s.hands[0]) == ["gold"]  # Village drew the card under them


def test_golem_found_throne_room_cannot_target_the_other_found_card() -> None:
    """§5.5 / §6: found cards are not in hand; a found Throne Room targets the hand."""
    s = make(
        kingdom=KC,
        hands={0: ["golem", "moat"]},
        decks={0: ["throne_room", "witch", "copper", "copper", "copper", "copper"]},
    )
    do(s, "play Golem", "play Throne Room first")
    assert legal(s) == ["play Moat twice"]
    do(s, "play Moat twice")
    assert "witch" in ids(s.in_play[0])


def test_golem_plays_what_it_finds_when_cards_run_out() -> None:
    """§5.5: deck and discard exhausted → play what was found (0 or 1)."""
    s = make(kingdom=KA, hands={0: ["golem"]}, decks={0: ["herbalist", "copper"]})
    do(s, "play Golem")
    assert ids(s.in_play[0]) == ["golem", "herbalist"]
    assert ids(s.discards[0]) == ["copper"] and s.decks[0] == []


def test_herbalist_printed_wording_one_topdeck_per_card() -> None:
    """§5.6 (printed): discarding a Herbalist from play lets one Treasure in play go on
    the deck; a Throne-Roomed Herbalist is still one card."""
    s = make(
        kingdom=[*KB[:9], "herbalist"],
        hands={0: ["throne_room", "herbalist", "gold", "silver"]},
        decks={0: ["estate"] * 8},
    )
    do(s, "play Throne Room", "play Herbalist twice", "play all treasures", "end buys")
    do(s, "discard Herbalist from play")
    assert sorted(legal(s)) == ["done", "put Gold on deck", "put Silver on deck"]
    do(s, "put Gold on deck")
    assert s.current_player == 1  # one Herbalist card: one Treasure
    assert "gold" in ids(s.hands[0])


def test_herbalist_errata_one_topdeck_per_play() -> None:
    """§5.6 (2022 errata) / §6: Throne Room + Herbalist = up to 2 Treasures."""
    s = make(
        kingdom=[*KB[:9], "herbalist"],
        hands={0: ["throne_room", "herbalist", "gold", "silver"]},
        decks={0: ["estate"] * 8},
        alchemy_errata=True,
    )
    do(s, "play Throne Room", "play Herbalist twice", "play all treasures", "end buys")
    do(s, "put Gold on deck", "put Silver on deck")
    assert sorted(ids(s.hands[0]))[:2] == ["estate", "estate"]
    assert {"gold", "silver"} <= set(ids(s.hands[0]))


def test_philosophers_stone_counts_deck_and_discard_when_played() -> None:
    """§5.7 Philosopher's Stone: $1 per full 5 cards in deck + discard, when played."""
    s = make(
        kingdom=KA,
        hands={0: ["philosophers_stone", "philosophers_stone", "copper"]},
        decks={0: ["estate"] * 7},
        discards={0: ["copper"] * 7},
    )
    do(s, "play Philosopher's Stone")
    assert s.coins == 14 // 5
    do(s, "play all treasures")
    assert s.coins == 2 * (14 // 5) + 1


def test_scrying_pool_chooses_for_each_player_then_draws_until_non_action() -> None:
    """§5.9 Scrying Pool: each player's top card (turn order, from you): you choose
    discard or put back; then reveal until a non-Action, all to hand."""
    s = make(
        3,
        [*KA[:9], "village"],
        hands={0: ["scrying_pool"], 1: ["copper"], 2: ["copper"]},
        decks={
            0: ["estate", "village", "university", "silver", "gold"],
            1: ["gold"],
            2: ["curse"],
        },
    )
    do(s, "play Scrying Pool")
    assert s.view(1)["decision"]["about"] == {"player": 0, "card": "estate"}
    do(s, "discard Estate", "discard Gold", "put back Curse")
    assert ids(s.discards[1]) == ["gold"] and deck_top_first(s, 2) == ["curse"]
    assert sorted(ids(s.hands[0])) == ["silver", "university", "village"]
    assert deck_top_first(s, 0) == ["gold"]


def test_scrying_pool_skips_moat_players() -> None:
    s = make(
        kingdom=[*KA[:9], "moat"],
        hands={0: ["scrying_pool"], 1: ["moat"]},
        decks={0: ["copper"], 1: ["gold"]},
    )
    do(s, "play Scrying Pool", "reveal Moat", "put back Copper")
    assert ids(s.hands[0]) == ["copper"]
    assert s.stack == [] and s.decks[1][-1] == BY_ID["gold"]


@pytest.mark.parametrize(
    ("trashed", "gains"),
    [
        ("moat", ["duchy"]),
        ("potion", ["transmute"]),
        ("philosophers_stone", ["transmute"]),
        ("estate", ["gold"]),
        ("vineyard", ["gold"]),
        ("curse", []),
    ],
)
def test_transmute_gains_by_type(trashed: str, gains: list[str]) -> None:
    """§5.10 Transmute: Action → Duchy, Treasure → Transmute, Victory → Gold, Curse → nothing."""
    kingdom = [
        "transmute", "vineyard", "philosophers_stone", "moat", "village",
        "smithy", "market", "festival", "laboratory", "cellar",
    ]  # fmt: skip
    s = make(kingdom=kingdom, hands={0: ["transmute", trashed]})
    do(s, "play Transmute")
    do(s, s.describe_legal()[0])
    assert ids(s.discards[0]) == gains
    assert ids(s.trash) == [trashed]


def test_university_optionally_gains_an_action_up_to_five() -> None:
    """§5.11 University: +2 Actions; may gain an Action costing up to $5, not potion costs."""
    s = make(kingdom=KA, hands={0: ["university"]})
    do(s, "play University")
    options = legal(s)
    assert "gain Apprentice" in options and "gain Herbalist" in options
    assert "gain Golem" not in options and "gain Silver" not in options
    assert "done" in options
    do(s, "done")
    assert s.actions == 2 and s.discards[0] == []


def test_vineyard_scores_one_per_three_actions() -> None:
    """§5.12 Vineyard: 1 VP per 3 Action cards owned, rounded down."""
    cards = [BY_ID[c] for c in ["vineyard", "vineyard", *["village"] * 11, "estate"]]
    assert score(cards) == 2 * 3 + 1


# -- Possession ----------------------------------------------------------------------------
def _possess(s, *texts: str) -> None:  # type: ignore[no-untyped-def]
    do(s, "play Possession", *texts)


def test_possession_extra_turn_after_this_one_decided_by_the_possessor() -> None:
    """§5.8: the player to the left takes an extra turn after this one; the possessor
    makes every decision and sees their hand."""
    s = make(
        3,
        KC,
        hands={0: ["possession"], 1: ["feast", "copper", "copper", "copper", "copper"]},
        decks={0: ["copper"] * 5},
    )
    _possess(s)
    do(s, "end buys")
    assert s.turn == 1 and s.controller == 0 and s.extra_turn
    assert s.current_player == 0  # the possessor decides
    v0, v1, v2 = s.view(0), s.view(1), s.view(2)
    assert v0["possession"]["hand"] == ["copper"] * 4 + ["feast"]
    assert "hand" not in v2["possession"] and "hand" not in v1["possession"]
    assert v0["decision"] is None and s.legal_actions()
    det = s.determinize(0, random.Random(1))
    assert det.view(0) == v0


def test_possession_gains_go_to_the_possessor_and_trashes_come_back() -> None:
    """§5.8 with Feast: the gain goes to the possessor's discard; the trashed Feast is
    set aside and returns to its owner's discard pile after Clean-up."""
    s = make(
        kingdom=KC,
        hands={0: ["possession"], 1: ["feast", "copper", "copper", "copper", "copper"]},
        decks={0: ["copper"] * 5, 1: ["estate"] * 5},
    )
    _possess(s, "end buys")
    do(s, "play Feast", "gain Duchy")
    assert "duchy" in ids(s.discards[0])
    assert s.trash == [] and ids(s.possessed_trash) == ["feast"]
    do(s, "play all treasures", "buy Silver")  # bought: also the possessor's
    assert "silver" in ids(s.discards[0]) and "silver" not in ids(s.discards[1])
    assert "feast" in ids(s.discards[1])  # back after Clean-up
    assert "feast" not in ids(s.hands[1])
    assert s.turn == 1 and not s.extra_turn  # then their own normal turn (2 players)


def test_possession_with_mine_gains_to_the_possessors_discard() -> None:
    """§5.8 with Mine: a gain to the hand goes to the possessor's discard instead."""
    s = make(
        kingdom=KC,
        hands={0: ["possession"], 1: ["mine", "silver", "estate"]},
        decks={0: ["copper"] * 5},
    )
    _possess(s, "end buys", "play Mine", "trash Silver", "gain Gold")
    assert "gold" in ids(s.discards[0]) and "gold" not in ids(s.hands[1])
    assert ids(s.possessed_trash) == ["silver"]


def test_possession_with_moneylender_still_gives_three() -> None:
    """§5.8 with Moneylender: the Copper counts as trashed (+$3) and comes back."""
    s = make(
        kingdom=KC,
        hands={0: ["possession"], 1: ["moneylender", "copper", "estate"]},
        decks={0: ["copper"] * 5},
    )
    _possess(s, "end buys", "play Moneylender")
    assert s.coins == 3 and ids(s.possessed_trash) == ["copper"]


def test_possession_with_bureaucrat_silver_goes_to_possessors_discard() -> None:
    """§5.8 with Bureaucrat: the Silver would go on their deck; it goes to the
    possessor's discard pile; the attack hits the possessor."""
    s = make(
        kingdom=KC,
        hands={0: ["possession"], 1: ["bureaucrat", "copper"]},
        decks={0: ["estate", "copper", "copper", "copper", "copper"]},
    )
    _possess(s, "end buys")
    deck0 = list(s.decks[0])
    do(s, "play Bureaucrat")
    assert "silver" in ids(s.discards[0])
    assert s.decks[0][-1] == BY_ID["estate"] and len(s.decks[0]) == len(deck0) + 1


def test_possession_with_witch_curses_the_possessor_who_may_reveal_moat() -> None:
    """§5.8 with Witch: the possessor is an "other player"; they decide their own Moat."""
    s = make(
        kingdom=KC,
        hands={0: ["possession"], 1: ["witch", "copper"]},
        decks={0: ["moat", "copper", "copper", "copper", "copper"]},
    )
    _possess(s, "end buys", "play Witch")
    assert s.current_player == 0 and legal(s) == ["reveal Moat", "don't reveal"]
    do(s, "don't reveal")
    assert "curse" in ids(s.discards[0])


def test_possession_with_thief_the_possessor_gains_the_treasures() -> None:
    """§5.8 with Thief: "you may gain" → the possessor gains (even their own Treasures)."""
    s = make(
        kingdom=KC,
        hands={0: ["possession"], 1: ["thief", "estate"]},
        decks={0: ["estate", "estate", "estate", "estate", "estate", "gold", "estate"]},
    )
    _possess(s, "end buys", "play Thief")
    assert ids(s.trash) == ["gold"]  # the possessor's own Gold was revealed and trashed
    assert s.current_player == 0 and legal(s) == ["gain Gold", "done"]
    do(s, "gain Gold")
    assert "gold" in ids(s.discards[0]) and "gold" not in ids(s.discards[1])


def test_possession_turns_do_not_count_for_the_tiebreak() -> None:
    """§1.3 / §5.8: extra turns don't count as turns."""
    s = make(
        kingdom=KC,
        hands={0: ["possession"], 1: ["copper"] * 5},
        decks={0: ["copper"] * 5},
    )
    _possess(s, "end buys", "end buys")
    assert s.turns == [1, 0] and s.turn == 1 and not s.extra_turn


def test_no_possession_turn_once_the_game_has_ended() -> None:
    """§1.3: if the game ended with this turn, the Possession turn never happens."""
    s = make(
        kingdom=KC,
        hands={0: ["possession", "gold", "gold", "gold"]},
        supply={"province": 1},
    )
    do(s, "play Possession", "play all treasures", "buy Province")
    assert s.is_terminal() and s.extra_queue == []


@pytest.mark.parametrize(("errata", "extra"), [(False, 2), (True, 1)])
def test_throne_room_possession_printed_two_turns_errata_one(errata: bool, extra: int) -> None:
    """§5.8 / §6: Throne Room + Possession: 2 extra turns (printed), 1 (2023 errata)."""
    s = make(
        kingdom=KC,
        hands={0: ["throne_room", "possession"], 1: ["copper"] * 5},
        decks={0: ["copper"] * 5, 1: ["copper"] * 20},
        alchemy_errata=errata,
    )
    do(s, "play Throne Room", "play Possession twice", "end buys")
    extra_turns = 0
    while s.turn == 1 and s.extra_turn:
        extra_turns += 1
        do(s, "end buys")
    assert extra_turns == extra
    assert s.turn == 1 and not s.extra_turn


def test_golem_finding_possession_plays_it() -> None:
    """§5.5: a found Possession is played."""
    s = make(
        kingdom=KC,
        hands={0: ["golem"]},
        decks={0: ["possession", "copper", "copper", "copper", "copper", "copper"]},
    )
    do(s, "play Golem")
    assert s.created == [(1, 0)]


def test_possessed_player_playing_possession_possesses_after_their_normal_turn() -> None:
    """§5.8: a Possession played in a possessed turn gives its extra turn after that
    player's own next normal turn."""
    s = make(
        kingdom=KC,
        hands={0: ["possession"], 1: ["possession", "copper"]},
        decks={0: ["copper"] * 10, 1: ["copper"] * 10},
    )
    _possess(s, "end buys")
    assert s.turn == 1 and s.extra_turn
    do(s, "play Possession", "end buys")
    assert s.turn == 1 and not s.extra_turn  # player 2's normal turn first
    do(s, "end buys")
    assert s.turn == 0 and s.extra_turn and s.controller == 1


# -- sets and options ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "name", ["Forbidden Arts", "Potion Mixers", "Chemistry Lesson", "Zakázané umění"]
)
def test_alchemy_recommended_sets(name: str) -> None:
    """The three base + Alchemy sets of the Alchemy rulebook, by name."""
    opts = get_game("dominion").normalize_options({"kingdom": name}, 2, 1)
    assert len(opts["kingdom"]) == 10
    assert any(c in opts["kingdom"] for c in ("possession", "alchemist"))


def test_random_kingdom_with_three_to_five_alchemy_cards() -> None:
    """Randomizer: mixed sets, and "3–5 Alchemy cards" as the rulebook advises."""
    from kingdoms.dominion.data import CARDS

    for seed in range(20):
        opts = get_game("dominion").normalize_options(
            {"sets": ["base", "base-1e", "base-2e", "alchemy"], "alchemy_cards": "3-5"}, 3, seed
        )
        n = sum(1 for c in opts["kingdom"] if CARDS[BY_ID[c]].set == "alchemy")
        assert 3 <= n <= 5
    with pytest.raises(InvalidConfig, match="alchemy_cards"):
        get_game("dominion").normalize_options({"alchemy_cards": "many"}, 2, 1)


def test_options_are_in_the_record_and_the_log_shows_extra_turns() -> None:
    """base_edition / alchemy_errata are stored in the game record."""
    st = new_game(
        "dominion",
        players=2,
        seed=3,
        options={"kingdom": "Forbidden Arts", "base_edition": 2, "alchemy_errata": True},
    )
    rec = st.record().to_json()
    assert rec["options"]["base_edition"] == 2
    assert rec["options"]["alchemy_errata"] is True


@pytest.mark.parametrize(
    ("lang", "edition", "errata", "text"),
    [
        ("en", 1, False, "(base cards: 1st edition; Alchemy errata: off)"),
        ("pl", 2, True, "(karty podstawowe: 2. edycja; errata Alchemii: włączona)"),
        ("cs", 2, False, "(základní karty: 2. edice; errata Alchymie: vypnuta)"),
    ],
)
def test_options_are_shown_in_the_log_and_the_view(
    lang: str, edition: int, errata: bool, text: str
) -> None:
    """The rules-version options open the log (with the kingdom) and are in every view."""
    from kingdoms.dominion.data import BY_ID, CARDS
    from kingdoms.dominion.view import event_text

    st = new_game(
        "dominion",
        players=2,
        seed=3,
        options={"kingdom": "Forbidden Arts", "base_edition": edition, "alchemy_errata": errata},
    )
    first = st.log[0].visible_to(1)
    assert first["type"] == "setup" and first["kingdom"] == st.config.options["kingdom"]
    line = event_text(first, lang)
    assert line.endswith(text)
    assert CARDS[BY_ID["possession"]].name(lang) in line
    for seat in range(2):
        assert st.view(seat)["rules"] == {"base_edition": edition, "alchemy_errata": errata}


@pytest.mark.parametrize("trasher", ["chapel", "remodel", "mine", "moneylender", "transmute"])
def test_possession_trash_comes_back_when_clean_up_reshuffles(trasher: str) -> None:
    """§5.8: cards the possessed player trashes come back to their discard pile after
    Clean-up, also when the Clean-up draw shuffles the discard pile into a new deck."""
    kingdom = [
        "possession", "chapel", "remodel", "mine", "moneylender",
        "transmute", "witch", "moat", "throne_room", "golem",
    ]  # fmt: skip
    s = make(
        kingdom=kingdom,
        hands={0: ["possession"], 1: [trasher, "copper", "silver", "estate"]},
        decks={0: ["copper"] * 5, 1: ["estate"]},
        discards={1: ["estate", "copper", "copper", "copper", "copper"]},
    )
    _possess(s, "end buys")
    assert s.turn == 1 and s.extra_turn
    total = len(s.owned(1))
    play = {
        "chapel": ["play Chapel", "trash Copper", "done"],
        "remodel": ["play Remodel", "trash Copper", "gain Curse"],
        "mine": ["play Mine", "trash Copper", "gain Silver"],
        "moneylender": ["play Moneylender"],
        "transmute": ["play Transmute", "trash Copper"],
    }[trasher]
    do(s, *play)
    assert ids(s.possessed_trash) == ["copper"]
    if "end actions" in legal(s):
        do(s, "end actions")
    do(s, "end buys")
    assert not s.extra_turn and s.possessed_trash == []
    assert s.trash == []
    s.check_invariants()
    assert "copper" in ids(s.discards[1])
    # the possessed player keeps every card they had (gains went to the possessor)
    assert len(s.owned(1)) == total


# -- Golem's found cards belong to Golem, not to a shared set-aside zone ------------------
GOLEM_KINGDOM = [
    "golem", "library", "adventurer", "apothecary", "scrying_pool",
    "throne_room", "village", "laboratory", "market", "smithy",
]  # fmt: skip
GOLEM_PAIRINGS = {
    # first found card -> (deck under the two found cards, top first; answers after it)
    "library": (["smithy"] + ["copper"] * 6, ["set aside Smithy"]),
    "adventurer": (["estate", "copper", "smithy", "copper", "gold"], []),
    "apothecary": (["copper", "estate", "smithy", "potion", "gold"], ["put back Estate now"]),
    "scrying_pool": (["copper", "estate", "gold"], ["put back Copper"]),
}  # fmt: skip


@pytest.mark.parametrize("first", sorted(GOLEM_PAIRINGS))
@pytest.mark.parametrize("order", ["found first", "found second"])
def test_golem_second_card_is_played_whatever_the_first_sets_aside(first: str, order: str) -> None:
    """§5.5: both found cards are played.  A found Library, Adventurer, Apothecary or
    Scrying Pool sets cards aside and then discards or puts back what it set aside:
    Golem's other card is not among them."""
    under, answers = GOLEM_PAIRINGS[first]
    s = make(
        kingdom=GOLEM_KINGDOM,
        hands={0: ["golem"]},
        decks={0: [first, "village", *under]},
    )
    name = {"library": "Library", "adventurer": "Adventurer"}.get(first)
    name = name or {"apothecary": "Apothecary", "scrying_pool": "Scrying Pool"}[first]
    do(s, "play Golem")
    if order == "found first":
        do(s, f"play {name} first", *answers)
    else:
        do(s, "play Village first")
    while s.stack:  # whatever the cards still ask
        do(s, legal(s)[0])
    s.check_invariants()
    assert sorted(ids(s.in_play[0])) == sorted(["golem", first, "village"])
    assert s.aside[0] == [] and s.set_aside_of(0) == []


def test_golem_played_by_a_found_throne_room_keeps_the_outer_golems_card() -> None:
    """§5.5 with Golem itself: Golem finds Throne Room and Village; the Throne Room plays
    a Golem from the hand twice.  Each Golem offers only what it found, and the first
    Golem's Village is still played at the end."""
    s = make(
        kingdom=GOLEM_KINGDOM,
        hands={0: ["golem", "golem"]},
        decks={
            0: ["throne_room", "village", "laboratory", "market"]
            + ["copper"] * 3  # drawn by Laboratory and Market
            + ["smithy", "library"]
            + ["copper"] * 12
        },
    )
    do(s, "play Golem", "play Throne Room first", "play Golem twice")
    assert sorted(legal(s)) == ["play Laboratory first", "play Market first"]
    assert ids(s.set_aside_of(0)) == ["village", "laboratory", "market"]
    do(s, "play Laboratory first")
    assert sorted(legal(s)) == ["play Library first", "play Smithy first"]
    do(s, "play Smithy first")
    while s.stack:
        do(s, legal(s)[0])
    s.check_invariants()
    played = ids(s.in_play[0])
    assert sorted(played) == sorted(
        ["golem", "throne_room", "golem", "village", "laboratory", "market", "smithy", "library"]
    )
    assert s.set_aside_of(0) == []
