"""Scenario tests: one or more per first-edition card (dominion-cards.md §3)."""

from __future__ import annotations

from tests.dominion.helpers import ALL_1E, FIRST_GAME, OTHERS, deck_top_first, do, ids, legal, make


def test_adventurer_reveals_until_two_treasures() -> None:
    """§3.1 Adventurer: treasures to hand, other revealed cards discarded afterwards."""
    s = make(
        kingdom=ALL_1E,
        hands={0: ["adventurer"]},
        decks={0: ["estate", "silver", "moat", "gold", "copper"]},
        discards={0: []},
    )
    do(s, "play Adventurer")
    assert sorted(ids(s.hands[0])) == ["gold", "silver"]
    assert sorted(ids(s.discards[0])) == ["estate", "moat"]
    assert deck_top_first(s, 0) == ["copper"]


def test_adventurer_shuffles_without_revealed_cards() -> None:
    """§3.1: mid-reveal shuffle excludes the revealed cards; with too few, keep what was found."""
    s = make(
        kingdom=ALL_1E,
        hands={0: ["adventurer"]},
        decks={0: ["estate"]},
        discards={0: ["silver", "duchy"]},
    )
    do(s, "play Adventurer")
    assert ids(s.hands[0]) == ["silver"]
    assert sorted(ids(s.discards[0])) == ["duchy", "estate"]
    assert s.decks[0] == []


def test_bureaucrat() -> None:
    """§3.2 Bureaucrat: Silver on own deck; victims topdeck a Victory card of their choice."""
    s = make(
        3,
        ALL_1E,
        hands={0: ["bureaucrat"], 1: ["estate", "duchy", "copper"], 2: ["copper", "copper"]},
        decks={0: [], 1: []},
    )
    do(s, "play Bureaucrat")
    assert deck_top_first(s, 0) == ["silver"]
    assert s.current_player == 1
    assert sorted(legal(s)) == ["put Duchy on deck", "put Estate on deck"]
    do(s, "put Duchy on deck")
    assert deck_top_first(s, 1) == ["duchy"]
    assert ids(s.hands[2]) == ["copper", "copper"]
    assert s.current_player == 0


def test_bureaucrat_no_silver_still_attacks() -> None:
    """§3.2: no Silver left → no gain, the attack still happens."""
    s = make(
        kingdom=ALL_1E,
        hands={0: ["bureaucrat"], 1: ["estate", "copper"]},
        decks={0: [], 1: []},
        supply={"silver": 0},
    )
    do(s, "play Bureaucrat")
    assert s.decks[0] == []
    assert deck_top_first(s, 1) == ["estate"]


def test_cellar() -> None:
    """§3.3 Cellar: +1 Action, discard any number one at a time, then draw that many."""
    s = make(
        hands={0: ["cellar", "estate", "estate", "copper"]}, decks={0: ["gold", "silver", "copper"]}
    )
    do(s, "play Cellar")
    assert s.actions == 1  # one Action spent on Cellar, one given back by it
    do(s, "discard Estate", "discard Estate", "done")
    assert sorted(ids(s.hands[0])) == ["copper", "gold", "silver"]
    assert ids(s.discards[0]) == ["estate", "estate"]


def test_cellar_draw_shuffles_discards_in() -> None:
    """§3.3: if the Cellar draw needs a shuffle, the just-discarded cards are shuffled in."""
    s = make(hands={0: ["cellar", "estate"]}, decks={0: []}, discards={0: []})
    do(s, "play Cellar", "discard Estate", "done")
    assert ids(s.hands[0]) == ["estate"]


def test_chancellor() -> None:
    """§3.4 Chancellor: +2 coins; may put the whole deck into the discard pile."""
    s = make(
        kingdom=ALL_1E, hands={0: ["chancellor"]}, decks={0: ["gold", "estate"]}, discards={0: []}
    )
    do(s, "play Chancellor", "discard deck")
    assert s.decks[0] == [] and sorted(ids(s.discards[0])) == ["estate", "gold"]
    assert s.coins == 2
    s = make(kingdom=ALL_1E, hands={0: ["chancellor"]}, decks={0: ["gold"]})
    do(s, "play Chancellor", "keep deck")
    assert deck_top_first(s, 0) == ["gold"]


def test_chapel_up_to_four() -> None:
    """§3.5 Chapel: trash 0–4 cards, one pick at a time; stops automatically at four."""
    s = make(kingdom=ALL_1E, hands={0: ["chapel"] + ["copper"] * 3 + ["estate"] * 3})
    do(s, "play Chapel", "trash Estate", "trash Estate", "trash Estate", "trash Copper")
    assert len(s.trash) == 4 and s.stack == []
    s = make(kingdom=ALL_1E, hands={0: ["chapel", "copper"]})
    do(s, "play Chapel", "done")
    assert s.trash == []


def test_council_room() -> None:
    """§3.6 Council Room: +4 cards, +1 Buy, every other player draws 1 (not an attack)."""
    s = make(3, OTHERS, hands={0: ["council_room", "moat"], 1: ["moat"], 2: []})
    do(s, "play Council Room")
    assert len(s.hands[0]) == 5 and s.buys == 2
    assert len(s.hands[1]) == 2 and len(s.hands[2]) == 1


def test_feast() -> None:
    """§3.7 Feast: trash it, gain a card costing up to 5."""
    s = make(kingdom=ALL_1E, hands={0: ["feast"]})
    do(s, "play Feast")
    assert ids(s.trash) == ["feast"]
    assert "gain Province" not in legal(s) and "gain Duchy" in legal(s)
    do(s, "gain Duchy")
    assert ids(s.discards[0])[-1] == "duchy"


def test_throne_room_feast() -> None:
    """§3.7/§3.21: Throne Room + Feast trashes Feast once but gains two cards."""
    s = make(kingdom=ALL_1E, hands={0: ["throne_room", "feast", "feast"]})
    do(s, "play Throne Room", "play Feast twice", "gain Duchy", "gain Duchy")
    assert ids(s.trash) == ["feast"]
    assert ids(s.in_play[0]) == ["throne_room"]
    assert ids(s.hands[0]) == ["feast"]
    assert ids(s.discards[0])[-2:] == ["duchy", "duchy"]


def test_festival_laboratory_market_village_woodcutter_smithy_moat() -> None:
    """§3.8, 3.10, 3.12, 3.15, 3.18, 3.22, 3.25: the plain +cards/+actions/+buys/+coins cards."""
    s = make(kingdom=OTHERS, hands={0: ["festival", "laboratory"]})
    do(s, "play Festival")
    assert (s.actions, s.buys, s.coins) == (2, 2, 2)
    do(s, "play Laboratory")
    assert s.actions == 2 and len(s.hands[0]) == 2
    s = make(hands={0: ["market", "village", "smithy", "woodcutter", "moat"]})
    do(s, "play Market")
    assert (s.actions, s.buys, s.coins, len(s.hands[0])) == (1, 2, 1, 5)
    do(s, "play Village")
    assert s.actions == 2 and len(s.hands[0]) == 5
    do(s, "play Smithy")
    assert len(s.hands[0]) == 7
    do(s, "play Woodcutter")
    assert (s.buys, s.coins) == (3, 3)
    s = make(hands={0: ["moat"]})
    do(s, "play Moat")
    assert len(s.hands[0]) == 2


def test_gardens_scoring() -> None:
    """§3.9 Gardens: 1 VP per 10 cards owned (rounded down), counting every zone."""
    s = make(
        kingdom=OTHERS,
        hands={0: ["gardens"]},
        decks={0: ["copper"] * 20},
        discards={0: ["gardens"] + ["copper"] * 17},
    )
    # 1 + 20 + 18 = 39 cards → 3 VP per Gardens
    assert s.vp_of(0) == 6


def test_library_skips_actions_and_sets_aside() -> None:
    """§3.11 Library: draw to 7, may set aside Actions; set-aside cards are not reshuffled."""
    s = make(
        kingdom=["library", *OTHERS[:9]],
        hands={0: ["library", "copper", "copper", "copper", "copper"]},
        decks={0: ["smithy", "silver"]},
        discards={0: ["gold"]},
    )
    do(s, "play Library")
    assert legal(s) == ["set aside Smithy", "keep Smithy"]
    do(s, "set aside Smithy")
    # draws Silver, then reshuffles the discard (Gold only, not the Smithy) and draws Gold
    assert sorted(ids(s.hands[0])) == ["copper"] * 4 + ["gold", "silver"]
    assert ids(s.aside[0]) == [] and ids(s.discards[0]) == ["smithy"]


def test_library_full_hand_does_nothing() -> None:
    """§3.11: with 7+ cards in hand Library draws nothing."""
    s = make(kingdom=["library", *OTHERS[:9]], hands={0: ["library"] + ["copper"] * 7})
    deck = len(s.decks[0])
    do(s, "play Library")
    assert len(s.hands[0]) == 7 and len(s.decks[0]) == deck


def test_militia_discard_one_at_a_time() -> None:
    """§3.13 Militia: +2; each other player discards down to 3, their choice; ≤3 discard nothing."""
    s = make(
        3,
        hands={
            0: ["militia"],
            1: ["estate", "estate", "copper", "copper", "silver"],
            2: ["copper"] * 3,
        },
    )
    do(s, "play Militia")
    assert s.coins == 2 and s.current_player == 1
    do(s, "discard Estate", "discard Estate")
    assert sorted(ids(s.hands[1])) == ["copper", "copper", "silver"]
    assert len(s.hands[2]) == 3 and s.current_player == 0


def test_mine_first_edition_mandatory() -> None:
    """§3.14 Mine (1E): must trash a Treasure; gain a Treasure costing up to 3 more into hand."""
    s = make(hands={0: ["mine", "copper", "estate"]})
    do(s, "play Mine")
    assert legal(s) == ["trash Copper"]
    do(s, "trash Copper")
    assert sorted(legal(s)) == ["gain Copper", "gain Silver"]
    do(s, "gain Silver")
    assert sorted(ids(s.hands[0])) == ["estate", "silver"]


def test_mine_second_edition_optional() -> None:
    """§3.14 Mine (2E): trashing is optional."""
    s = make(hands={0: ["mine", "copper"]}, base_edition=2)
    do(s, "play Mine")
    assert "done" in legal(s)
    do(s, "done")
    assert ids(s.hands[0]) == ["copper"]


def test_moneylender_editions() -> None:
    """§3.16 Moneylender: 1E trashes a Copper automatically for +3; 2E asks; no Copper → nothing."""
    s = make(kingdom=ALL_1E, hands={0: ["moneylender", "copper"]})
    do(s, "play Moneylender")
    assert ids(s.trash) == ["copper"] and s.coins == 3
    s = make(kingdom=ALL_1E, hands={0: ["moneylender", "copper"]}, base_edition=2)
    do(s, "play Moneylender", "keep Copper")
    assert s.trash == [] and s.coins == 0
    s = make(kingdom=ALL_1E, hands={0: ["moneylender", "estate"]})
    do(s, "play Moneylender")
    assert s.trash == [] and s.coins == 0


def test_remodel() -> None:
    """§3.17 Remodel: trash a card (mandatory), gain one costing up to 2 more."""
    s = make(hands={0: ["remodel", "estate", "gold"]})
    do(s, "play Remodel", "trash Gold")
    assert "gain Province" in legal(s) and "buy" not in legal(s)
    do(s, "gain Province")
    assert ids(s.trash) == ["gold"] and ids(s.discards[0])[-1] == "province"


def test_spy_self_first_then_others() -> None:
    """§3.19 Spy: +1 card +1 action; you first, then each other player; you decide each."""
    s = make(
        3, ALL_1E, hands={0: ["spy"]}, decks={0: ["copper", "estate"], 1: ["gold"], 2: ["curse"]}
    )
    do(s, "play Spy")
    assert s.current_player == 0 and legal(s) == ["discard Estate", "put back Estate"]
    do(s, "put back Estate", "discard Gold", "put back Curse")
    assert deck_top_first(s, 0)[0] == "estate"
    assert s.decks[1] == [] and ids(s.discards[1])[-1] == "gold"
    assert deck_top_first(s, 2) == ["curse"]


def test_thief() -> None:
    """§3.20 Thief: reveal 2, thief picks the Treasure to trash, may gain it; rest discarded."""
    s = make(kingdom=ALL_1E, hands={0: ["thief"]}, decks={1: ["silver", "gold", "estate"]})
    do(s, "play Thief")
    assert sorted(legal(s)) == ["trash Gold", "trash Silver"]
    do(s, "trash Gold")
    assert ids(s.trash) == ["gold"] and ids(s.discards[1])[-1] == "silver"
    do(s, "gain Gold")
    assert ids(s.discards[0])[-1] == "gold" and s.trash == []


def test_thief_may_decline() -> None:
    """§3.20: untaken Treasures stay in the trash; no Treasures → all discarded."""
    s = make(kingdom=ALL_1E, hands={0: ["thief"]}, decks={1: ["copper", "estate"]})
    do(s, "play Thief", "done")
    assert ids(s.trash) == ["copper"]
    s = make(kingdom=ALL_1E, hands={0: ["thief"]}, decks={1: ["estate", "duchy"]})
    do(s, "play Thief")
    assert s.trash == [] and sorted(ids(s.discards[1])) == ["duchy", "estate"]


def test_throne_room_village_actions() -> None:
    """§3.21: TR + Village from 1 Action gives 4 Actions; plays use no Actions."""
    s = make(kingdom=["village", *ALL_1E[:9]], hands={0: ["throne_room", "village"]})
    do(s, "play Throne Room", "play Village twice")
    assert s.actions == 4


def test_throne_room_on_throne_room() -> None:
    """§3.21: TR on TR plays one Action twice, then another Action twice."""
    s = make(
        kingdom=["village", "smithy", *ALL_1E[:8]],
        hands={0: ["throne_room", "throne_room", "village", "smithy"]},
        decks={0: ["copper"] * 12},
    )
    do(s, "play Throne Room", "play Throne Room twice", "play Village twice", "play Smithy twice")
    assert s.actions == 4
    assert len(s.hands[0]) == 2 + 6


def test_throne_room_editions() -> None:
    """§3.21: 1E Throne Room is mandatory with an Action in hand; 2E may decline."""
    s = make(kingdom=["village", *ALL_1E[:9]], hands={0: ["throne_room", "village"]})
    do(s, "play Throne Room")
    assert legal(s) == ["play Village twice"]
    s = make(
        kingdom=["village", *ALL_1E[:9]], hands={0: ["throne_room", "village"]}, base_edition=2
    )
    do(s, "play Throne Room")
    assert "done" in legal(s)


def test_witch_too_few_curses() -> None:
    """§3.24 Witch: +2 cards; curses in turn order from the left until none are left."""
    s = make(3, OTHERS, hands={0: ["witch"], 1: [], 2: []}, supply={"curse": 1}, turn=0)
    do(s, "play Witch")
    assert len(s.hands[0]) == 2
    assert ids(s.discards[1])[-1:] == ["curse"] and "curse" not in ids(s.discards[2])


def test_workshop() -> None:
    """§3.25 Workshop: gain a card costing up to 4."""
    s = make(hands={0: ["workshop"]})
    do(s, "play Workshop")
    assert "gain Duchy" not in legal(s) and "gain Smithy" in legal(s)
    do(s, "gain Smithy")
    assert ids(s.discards[0])[-1] == "smithy"


def test_moat_against_each_attack() -> None:
    """§3.15 Moat: a revealing player is unaffected by any Attack; the attacker still benefits."""
    kingdom = [
        "bureaucrat",
        "militia",
        "spy",
        "thief",
        "witch",
        "moat",
        "cellar",
        "chapel",
        "feast",
        "market",
    ]
    for attack in ("bureaucrat", "militia", "spy", "thief", "witch"):
        s = make(
            kingdom=kingdom,
            hands={0: [attack], 1: ["moat", "estate", "copper", "copper", "silver"]},
            decks={1: ["gold", "silver"]},
        )
        before = (list(s.hands[1]), list(s.decks[1]), list(s.discards[1]))
        do(s, f"play {attack.capitalize()}")
        assert s.current_player == 1 and legal(s) == ["reveal Moat", "don't reveal"]
        do(s, "reveal Moat")
        if attack == "spy":
            do(s, "put back")
        assert (s.hands[1], s.decks[1], s.discards[1]) == before, attack
        assert s.stack == []


def test_moat_not_revealed_militia_applies() -> None:
    """§3.15: declining to reveal Moat leaves the player attacked."""
    s = make(hands={0: ["militia"], 1: ["moat", "estate", "copper", "copper", "silver"]})
    do(s, "play Militia", "don't reveal", "discard Estate", "discard Copper")
    assert len(s.hands[1]) == 3


def test_library_stops_when_out_of_cards() -> None:
    """§3.11: if deck and discard run out Library stops with fewer than 7 cards."""
    s = make(
        kingdom=["library", *OTHERS[:9]],
        hands={0: ["library", "copper"]},
        decks={0: ["silver"]},
        discards={0: ["gold"]},
    )
    do(s, "play Library")
    assert sorted(ids(s.hands[0])) == ["copper", "gold", "silver"]


def test_cellar_chapel_remodel_cannot_pick_themselves() -> None:
    """§3.3/§3.5/§3.17: the played card is in play, so it cannot be discarded or trashed."""
    for name in ("cellar", "chapel", "remodel"):
        s = make(kingdom=["chapel", *FIRST_GAME[:9]], hands={0: [name, "estate"]})
        do(s, f"play {name.capitalize()}")
        assert all(name.capitalize() not in t for t in legal(s))


def test_mine_gained_treasure_playable_this_turn() -> None:
    """§3.14: the Treasure gained by Mine goes to hand and can be played this turn."""
    s = make(hands={0: ["mine", "silver"]})
    do(s, "play Mine", "trash Silver", "gain Gold", "play Gold")
    assert s.coins == 3


def test_thief_reshuffles_for_second_card() -> None:
    """§3.20: one card left → reveal it, shuffle, reveal another."""
    s = make(kingdom=ALL_1E, hands={0: ["thief"]}, decks={1: ["estate"]}, discards={1: ["silver"]})
    do(s, "play Thief")
    assert ids(s.trash) == ["silver"]
    do(s, "done")
    assert ids(s.discards[1]) == ["estate"]


def test_council_room_others_shuffle() -> None:
    """§3.6: other players must draw, shuffling if needed."""
    s = make(kingdom=OTHERS, hands={0: ["council_room"]}, decks={1: []}, discards={1: ["gold"]})
    do(s, "play Council Room")
    assert ids(s.hands[1])[-1] == "gold"
