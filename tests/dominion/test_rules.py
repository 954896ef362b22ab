"""Scenario tests for the rules in dominion.md (setup, turn, shuffling, end, scoring)."""

from __future__ import annotations

import json
import random

import pytest

from kingdoms.core import InvalidConfig, get_game, new_game
from kingdoms.dominion.data import BY_ID
from kingdoms.dominion.state import DominionState
from tests.dominion.helpers import deck_top_first, do, ids, legal, make

GAME = get_game("dominion")


@pytest.mark.parametrize(
    ("players", "province", "curse", "copper", "estate"),
    [
        (2, 8, 10, 46, 8),
        (3, 12, 20, 39, 12),
        (4, 12, 30, 32, 12),
        (5, 15, 40, 85, 12),
        (6, 18, 50, 78, 12),
    ],
)
def test_setup(players: int, province: int, curse: int, copper: int, estate: int) -> None:
    """Setup: 7 Copper + 3 Estate, 5 in hand; supply sizes for 2–6 players."""
    s = new_game("dominion", players, seed=1)
    assert isinstance(s, DominionState)
    for p in range(players):
        assert len(s.hands[p]) == 5 and len(s.decks[p]) == 5
        owned = ids(s.owned(p))
        assert owned.count("copper") == 7 and owned.count("estate") == 3
    sup = {c: s.supply[BY_ID[c]] for c in ("province", "curse", "copper", "estate")}
    assert sup == {"province": province, "curse": curse, "copper": copper, "estate": estate}
    assert len(s.config.options["kingdom"]) == 10


def test_first_player_random_but_seeded() -> None:
    """First player random in the first game, reproducible from the seed."""
    firsts = {new_game("dominion", 4, seed=k).turn for k in range(30)}  # type: ignore[attr-defined]
    assert len(firsts) > 1
    assert new_game("dominion", 4, seed=5).turn == new_game("dominion", 4, seed=5).turn  # type: ignore[attr-defined]


def test_shuffle_only_when_needed() -> None:
    """Never shuffle before it is needed: an empty deck stays empty until a draw."""
    s = make(hands={0: ["copper"] * 5}, decks={0: ["estate"] * 5}, discards={0: ["gold"]})
    do(s, "play all treasures", "end buys")
    # clean-up draws the 5 Estates; deck now empty, discard holds 6 cards, unshuffled
    assert s.decks[0] == [] and len(s.discards[0]) == 6


def test_draw_takes_rest_then_shuffles() -> None:
    """Too few cards: take what is there, then shuffle the discard pile and continue."""
    s = make(hands={0: ["smithy"]}, decks={0: ["gold"]}, discards={0: ["silver", "silver"]})
    do(s, "play Smithy")
    assert sorted(ids(s.hands[0])) == ["gold", "silver", "silver"]
    assert s.discards[0] == []


def test_put_on_top_of_empty_deck() -> None:
    """A card put on an empty deck becomes its only card (Bureaucrat's Silver)."""
    s = make(
        kingdom=[
            "bureaucrat",
            "cellar",
            "chapel",
            "feast",
            "market",
            "mine",
            "moat",
            "spy",
            "thief",
            "witch",
        ],
        hands={0: ["bureaucrat"]},
        decks={0: []},
        discards={0: ["copper"]},
    )
    do(s, "play Bureaucrat")
    assert deck_top_first(s, 0) == ["silver"]


def test_play_all_treasures_is_one_action_and_none_after_buy() -> None:
    """Buy phase: play all treasures is one action; no Treasure after the first buy."""
    s = make(hands={0: ["copper", "copper", "silver", "estate"]})
    assert s.phase == 1
    do(s, "play Silver")
    assert s.coins == 2
    do(s, "play all treasures")
    assert s.coins == 4 and ids(s.hands[0]) == ["estate"]
    s = make(hands={0: ["copper", "copper", "silver"]})
    s.buys = 2
    do(s, "play Silver", "buy Copper")
    assert not any(t.startswith("play") for t in legal(s))
    assert "buy Copper" in legal(s)


def test_actions_limit_and_auto_buy_phase() -> None:
    """Playing an Action costs an Action; with none left the Buy phase starts."""
    s = make(hands={0: ["smithy", "smithy", "copper"]}, decks={0: ["estate"] * 6})
    assert "end actions" in legal(s)
    do(s, "play Smithy")
    assert s.phase == 1 and "play Smithy" not in legal(s)


def test_cleanup_and_next_turn() -> None:
    """Clean-up discards hand and play, draws 5; the next player's turn starts with 1/1/0."""
    s = make(hands={0: ["copper", "estate"]}, decks={0: ["silver"] * 5})
    do(s, "play all treasures", "buy Copper")
    assert ids(s.hands[0]) == ["silver"] * 5
    assert s.turn == 1 and (s.actions, s.buys, s.coins) == (1, 1, 0)
    assert s.turns == [1, 0]


def test_end_on_provinces() -> None:
    """The game ends at the end of the turn that empties the Province pile."""
    s = make(hands={0: ["gold"] * 3}, supply={"province": 1})
    do(s, "play all treasures", "buy Province")
    assert s.is_terminal()
    out = s.outcome()
    assert out is not None and out.details["ended_by"] == "provinces"
    summary = GAME.summarize(s)
    assert summary["turns"] == 1.0 and summary["three_pile_ending"] is False
    assert summary["ending"] == "Provinces"


@pytest.mark.parametrize(("players", "needed"), [(2, 3), (4, 3), (5, 4), (6, 4)])
def test_end_on_piles(players: int, needed: int) -> None:
    """Three empty supply piles end the game (four with 5–6 players); any pile counts."""
    s = make(
        players,
        hands={0: ["copper"]},
        supply={"cellar": 0, "moat": 0, "curse": 0, "smithy": 1 if needed == 4 else 0},
    )
    do(s, "end buys")
    assert s.is_terminal() is (needed == 3)
    if needed == 4:
        s = make(
            players, hands={0: ["copper"]}, supply={"cellar": 0, "moat": 0, "curse": 0, "smithy": 0}
        )
        do(s, "end buys")
        assert s.is_terminal()
        assert GAME.summarize(s)["three_pile_ending"] is True


def test_tie_break_fewer_turns_then_shared() -> None:
    """Ties: the tied player with fewer turns wins; still tied, the win is shared."""
    zones = {"hands": {0: ["gold"] * 3, 1: []}, "decks": {0: ["copper"] * 5, 1: []}}
    s = make(**zones, supply={"province": 1}, discards={1: ["province"]})  # type: ignore[arg-type]
    do(s, "play all treasures", "buy Province")
    out = s.outcome()
    assert out is not None and out.scores[0] == out.scores[1]
    assert out.winners == (1,)
    zones = {"hands": {1: ["gold"] * 3, 0: []}, "decks": {1: ["copper"] * 5, 0: []}}
    s = make(**zones, supply={"province": 1}, discards={0: ["province"]}, turn=1)  # type: ignore[arg-type]
    s.turns = [1, 0]
    do(s, "play all treasures", "buy Province")
    out = s.outcome()
    assert out is not None and out.winners == (0, 1) and out.shared


def test_curse_can_be_bought_with_zero() -> None:
    """Any supply card can be bought, Curse included (cost 0, still uses a Buy)."""
    s = make(hands={0: ["estate"]})
    do(s, "buy Curse")
    assert "curse" in ids(s.discards[0]) and s.turn == 1


def test_options_normalize_idempotent() -> None:
    """normalize_options resolves a random kingdom from the seed; normalizing again is a no-op."""
    opts = GAME.normalize_options({}, 2, 7)
    assert len(opts["kingdom"]) == 10 and opts["sets"] == ["base", "base-1e"]
    assert opts["base_edition"] == 1 and opts["alchemy_errata"] is False
    assert GAME.normalize_options(opts, 2, 99) == opts
    assert GAME.normalize_options({}, 2, 7) == opts


def test_recommended_sets_by_name() -> None:
    """The five recommended sets by English and Polish name, case-insensitive."""
    a = GAME.normalize_options({"kingdom": "First Game"}, 2, 1)["kingdom"]
    b = GAME.normalize_options({"kingdom": "pierwsza ROZGRYWKA"}, 2, 1)["kingdom"]
    assert a == b and "cellar" in a
    for name in ("Big Money", "Interakcja", "Size Distortion", "Rynek wioskowy"):
        assert len(GAME.normalize_options({"kingdom": name}, 3, 1)["kingdom"]) == 10


def test_partial_kingdom_by_names_filled() -> None:
    """Card names in en/pl/cs fill the kingdom; fewer than 10 are filled at random."""
    k = GAME.normalize_options({"kingdom": "Kuźnia, wiedźma, Trůnní sál"}, 2, 3)["kingdom"]
    assert {"smithy", "witch", "throne_room"} <= set(k) and len(k) == 10
    k2 = GAME.normalize_options({"kingdom": ["Smithy", "village"]}, 2, 3)["kingdom"]
    assert {"smithy", "village"} <= set(k2)


@pytest.mark.parametrize(
    "bad",
    ["Smithy, Smithy", "Copper", "Nonsense", ",".join(["smithy"] + ["village"] * 0) + ",x"],
)
def test_invalid_kingdoms(bad: str) -> None:
    """Unknown names, duplicates and basic cards raise InvalidConfig listing valid names."""
    with pytest.raises(InvalidConfig):
        GAME.normalize_options({"kingdom": bad}, 2, 1)


def test_too_many_cards_and_bad_options() -> None:
    """More than 10 cards, unknown options or editions are rejected."""
    eleven = "cellar,chapel,moat,village,smithy,market,mine,militia,remodel,witch,festival"
    with pytest.raises(InvalidConfig):
        GAME.normalize_options({"kingdom": eleven}, 2, 1)
    with pytest.raises(InvalidConfig):
        GAME.normalize_options({"base_edition": 3}, 2, 1)
    with pytest.raises(InvalidConfig):
        GAME.normalize_options({"colour": 3}, 2, 1)
    assert GAME.normalize_options({"alchemy_errata": True}, 2, 1)["alchemy_errata"] is True


def test_view_hides_other_hands_and_decks() -> None:
    """Views are JSON and never show another player's hand or any deck order."""
    s = new_game("dominion", 3, seed=4)
    v = s.view(1)
    json.dumps(v)
    assert v["game"] == "dominion" and len(v["hand"]) == 5
    assert all("hand" not in pl and "deck" not in pl for pl in v["players"])
    det = s.determinize(1, random.Random(1))
    assert det.view(1) == v


def test_action_text_languages_and_parse() -> None:
    """Actions read in en/pl/cs by card name; parse_action accepts text and prefixes."""
    s = make(hands={0: ["smithy", "copper"]})
    a = s.parse_action("play Smithy")
    assert s.action_to_str(a, "pl") == "zagraj: Kuźnia"
    assert s.action_to_str(a, "cs") == "zahraj: Kovář"
    assert s.parse_action("end", "en") == s.parse_action("end actions")


def test_events_and_text() -> None:
    """Draws are secret to the drawer; events render in en/pl/cs."""
    s = make(hands={0: ["smithy"]}, decks={0: ["gold"] * 3})
    do(s, "play Smithy")
    mine = [e for e in s.log_for(0) if e["type"] == "draw"]
    theirs = [e for e in s.log_for(1) if e["type"] == "draw"]
    assert mine[-1]["cards"] == ["gold"] * 3 and "cards" not in theirs[-1]
    for lang in ("en", "pl", "cs"):
        for e in s.log_for(None):
            assert s.event_to_str(e, lang)
    assert (
        s.event_to_str({"type": "play", "player": 0, "card": "smithy"}, "pl")
        == "gracz 1 zagrywa: Kuźnia"
    )


def test_determinize_keeps_cards_pending_decisions_need() -> None:
    """A determinized state stays playable: a pending Moat / Bureaucrat choice keeps its cards."""
    kingdom = [
        "bureaucrat",
        "moat",
        "cellar",
        "chapel",
        "feast",
        "market",
        "mine",
        "spy",
        "thief",
        "witch",
    ]
    s = make(kingdom=kingdom, hands={0: ["bureaucrat"], 1: ["moat", "estate", "duchy", "copper"]})
    do(s, "play Bureaucrat")
    for seed in range(10):
        det = s.determinize(0, random.Random(seed))
        assert det.legal_actions() == s.legal_actions()
    do(s, "don't reveal")
    for seed in range(10):
        det = s.determinize(0, random.Random(seed))
        assert sorted(det.describe_legal()) == ["put Duchy on deck", "put Estate on deck"]


def test_moat_each_play_of_throne_roomed_attack() -> None:
    """§3.15: Moat may be revealed for each play of a Throne-Roomed Attack."""
    kingdom = [
        "militia",
        "moat",
        "throne_room",
        "chapel",
        "feast",
        "market",
        "mine",
        "spy",
        "thief",
        "witch",
    ]
    s = make(kingdom=kingdom, hands={0: ["throne_room", "militia"], 1: ["moat"] + ["copper"] * 5})
    do(s, "play Throne Room", "play Militia twice", "reveal Moat", "don't reveal")
    do(s, "discard Copper", "discard Copper", "discard Copper")
    assert len(s.hands[1]) == 3 and s.coins == 4


def test_spy_empty_deck_and_discard_reveals_nothing() -> None:
    """§3.19: with deck and discard empty there is nothing to reveal."""
    kingdom = [
        "spy",
        "moat",
        "throne_room",
        "chapel",
        "feast",
        "market",
        "mine",
        "militia",
        "thief",
        "witch",
    ]
    s = make(
        kingdom=kingdom,
        hands={0: ["spy"]},
        decks={0: ["copper", "estate"], 1: []},
        discards={1: []},
    )
    do(s, "play Spy", "discard Estate")
    assert s.stack == [] and s.phase == 1
