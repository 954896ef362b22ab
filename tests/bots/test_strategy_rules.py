"""One rule form everywhere: conditions on the turn's own state, fall-through to the
default policy, the default as a bundled file, the lint's findings with columns."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from kingdoms.bots.dominion import adapter
from kingdoms.bots.dominion.bots import StrategyBot
from kingdoms.bots.dominion.bundled import bundled_strategy, bundled_text
from kingdoms.bots.dominion.lang import (
    PLAY_PURPOSES,
    PURPOSES,
    StrategyError,
    check_text,
    compile_condition,
    parse_strategy,
)
from kingdoms.bots.dominion.observation import Observation, observe
from kingdoms.bots.dominion.strategy import Situation
from kingdoms.cli import main
from kingdoms.dominion.state import DominionState

KINGDOM = ["chapel", "village", "smithy", "throne_room", "festival", "laboratory", "militia"]
KINGDOM += ["cellar", "market", "workshop"]


def _state(**zones: dict[int, list[str]]) -> DominionState:
    return DominionState.scenario(2, KINGDOM, turn=0, **zones)  # type: ignore[arg-type]


def _situation(st: DominionState, seat: int = 0) -> Situation:
    return adapter.situation_observed(observe(st, seat))


def _value(cond: str, s: Situation) -> object:
    return compile_condition(cond).fn(s)


def _turn(bot: StrategyBot, st: DominionState, seat: int = 0) -> list[str]:
    """What ``bot`` does until its turn ends."""
    done = []
    rng = random.Random(0)
    turn = st.turn
    while st.current_player == seat and st.turn == turn:
        action = bot.act(st.view(seat), st.legal_actions(), rng)
        done.append(st.action_to_str(action))
        st.apply_checked(action)
    return done


# -- the turn's own state ------------------------------------------------------------


def test_conditions_read_the_turns_own_state() -> None:
    st = _state(
        hands={0: ["village", "smithy", "copper", "copper", "estate"]},
        decks={0: ["gold", "silver", "estate"]},
        discards={0: ["copper", "copper", "curse"]},
    )
    s = _situation(st)
    assert _value("actions", s) == 1 and _value("buys", s) == 1 and _value("coins", s) == 0
    assert _value("hand_size", s) == 5 and _value("draw_pile_size", s) == 3
    assert _value("discard_size", s) == 3
    assert _value("in_hand(Smithy) == 1 and in_hand(Action) == 2 and in_hand(Copper) == 2", s)
    assert _value("in_deck(Gold) == 1 and in_deck(Treasure) == 2 and in_deck(Estate) == 1", s)
    assert _value("in_discard(Curse) == 1 and in_discard(Copper) == 2", s)
    assert _value("in_play(Village) == 0", s)
    assert _value("turn", s) == 1 and _value("my_turns", s) == 0
    st.apply_checked(st.parse_action("play Village"))
    s = _situation(st)
    assert _value("in_play(Village) == 1 and actions == 2 and hand_size == 5", s)
    assert _value("in_hand(Gold) == 1 and draw_pile_size == 2", s)  # Gold was drawn


def test_gains_to_end_counts_provinces_or_the_smallest_piles() -> None:
    st = _state()
    assert _value("gains_to_end", _situation(st)) == 8  # the Provinces
    st = _state()
    st.supply[st.piles[0]] = 0  # one empty pile: two more piles end it
    for c in sorted(st.piles, key=lambda c: st.supply[c])[1:3]:
        st.supply[c] = 1
    st.recount()
    assert _value("gains_to_end", _situation(st)) == 2


def test_opponents_public_facts() -> None:
    s = Situation(
        coins=0,
        owned={"copper": 7, "estate": 3},
        seats=(
            {"owned": {"copper": 7, "estate": 3}, "turns": 3},
            {"owned": {"copper": 7, "estate": 3, "curse": 2, "witch": 1}, "turns": 3},
        ),
        others=None,
    )
    assert _value("opp_count(Curse)", s) == 2 and _value("opp_count(Action)", s) == 1
    assert _value("opp_vp", s) == 1  # 3 Estates, 2 Curses
    assert _value("opponents_max(count(Curse)) == 2 and opponents_max(deck_size) == 13", s)
    with pytest.raises(StrategyError, match="public facts only"):
        parse_strategy('buy = ["Silver if opponents_max(hand_size) > 3"]')


def test_card_cost_and_is_name_the_card_being_decided() -> None:
    s = Situation(coins=0)
    s.card = "smithy"
    assert _value("cost(card) == 4 and is(card, Action) and is(card, Smithy)", s)
    assert not _value("is(card, Treasure) or is(card, Throne Room)", s)
    s.card = "philosophers_stone"
    assert _value("cost(card) == 4 and is(card, Philosopher's Stone)", s)  # 3 coins + a Potion
    with pytest.raises(StrategyError, match="'card' is the card being decided"):
        parse_strategy('buy = ["Silver if card > 3"]')


def test_the_view_gives_the_same_hand_and_play() -> None:
    st = _state(hands={0: ["village", "smithy", "copper", "copper", "estate"]})
    st.apply_checked(st.parse_action("play Village"))
    from_state, from_view = observe(st, 0), Observation.from_view(st.view(0))
    for zone in (0, 1):
        assert from_state.zone(zone) == from_view.zone(zone)
    total = {c: from_view.zone(2).get(c, 0) + from_view.zone(3).get(c, 0) for c in ("copper",)}
    assert total["copper"] == from_state.zone(2).get("copper", 0) + from_state.zone(3).get(
        "copper", 0
    )


# -- plays ---------------------------------------------------------------------------


def test_play_entries_take_conditions_and_the_default_order_follows() -> None:
    hand = ["village", "smithy", "copper", "copper", "estate"]
    smithy_only = StrategyBot(parse_strategy('play = ["Smithy"]\nbuy = ["Silver"]'))
    assert _turn(smithy_only, _state(hands={0: hand}))[0] == "play Smithy"
    # a partial list does not stop the other Actions: Village is played by the default
    village_first = StrategyBot(
        parse_strategy('play = ["Village if in_hand(Smithy) >= 1", "Smithy"]\nbuy = ["Silver"]')
    )
    assert _turn(village_first, _state(hands={0: hand}))[:2] == ["play Village", "play Smithy"]
    only_listed = StrategyBot(
        parse_strategy('play = ["Smithy"]\nplay_others = false\nbuy = ["Silver"]')
    )
    plays = _turn(only_listed, _state(hands={0: ["village", "festival", *hand[2:]]}))
    assert not any(p in plays for p in ("play Village", "play Festival"))
    listed_too = StrategyBot(parse_strategy('play = ["Smithy"]\nbuy = ["Silver"]'))
    plays = _turn(listed_too, _state(hands={0: ["village", "festival", *hand[2:]]}))
    assert plays[:2] == ["play Village", "play Festival"]


def test_throne_room_only_with_a_target_and_its_choice_follows_the_play_list() -> None:
    bot = StrategyBot(
        parse_strategy(
            'play = ["Throne Room if in_hand(Action) >= 2", "Smithy"]\nbuy = ["Silver"]\n'
            "play_others = false"
        )
    )
    alone = _turn(bot, _state(hands={0: ["throne_room", "copper", "copper", "copper", "estate"]}))
    assert "play Throne Room" not in alone
    st = _state(hands={0: ["throne_room", "smithy", "village", "copper", "copper"]})
    done = _turn(bot, st)
    assert done[:2] == ["play Throne Room", "play Smithy twice"]


# -- decisions fall through ----------------------------------------------------------


def test_a_decision_list_falls_through_to_the_default() -> None:
    # The listed Curse and Estate first; then the default's rule: Copper while the
    # total money stays above 6 (7 Coppers: down to 6, not to none)
    bot = StrategyBot(
        parse_strategy('buy = ["Silver"]\n[decisions]\n"chapel.trash" = ["Curse", "Estate"]')
    )
    st = _state(
        hands={0: ["chapel", "estate", "copper", "copper", "copper"]},
        decks={0: ["copper"] * 4 + ["estate"] * 2},
    )
    trashed = [t for t in _turn(bot, st) if t.startswith("trash")]
    assert trashed == ["trash Estate", "trash Copper"]
    # "done" stops a list that may stop
    keep = StrategyBot(
        parse_strategy('buy = ["Silver"]\n[decisions]\n"chapel.trash" = ["Estate", "done"]')
    )
    st = _state(
        hands={0: ["chapel", "estate", "copper", "copper", "copper"]},
        decks={0: ["copper"] * 4 + ["estate"] * 2},
    )
    assert [t for t in _turn(keep, st) if t.startswith("trash")] == ["trash Estate"]


def test_wildcard_purposes_and_conditions_on_the_card() -> None:
    bot = StrategyBot(
        parse_strategy(
            'buy = ["Silver"]\n[decisions]\n'
            '"*.gain" = ["cheapest Action if cost(card) >= 3", "Silver"]'
        )
    )
    st = _state(hands={0: ["workshop", "copper", "copper", "copper", "estate"]})
    done = _turn(bot, st)
    assert done[1] == "gain Village"  # the cheapest Action costing 3 or more


def test_yes_no_lists() -> None:
    strategy = parse_strategy(
        'buy = ["Silver"]\n[decisions]\n"moat.reveal" = ["no if left(Province) > 7", "yes"]'
    )
    assert [r.text for r in strategy.decisions["moat.reveal"]] == [
        "no if left(Province) > 7",
        "yes",
    ]
    with pytest.raises(StrategyError, match="yes/no decision"):
        parse_strategy('buy = ["Silver"]\n[decisions]\n"moat.reveal" = ["Moat"]')
    with pytest.raises(StrategyError, match="cards or types"):
        parse_strategy('buy = ["Silver"]\n[decisions]\n"chapel.trash" = ["yes"]')


# -- the default policy is a bundled file ----------------------------------------------


def test_the_default_policy_is_the_bundled_default_file() -> None:
    default = bundled_strategy("default")
    bot = StrategyBot(parse_strategy('buy = ["Silver"]'))
    assert bot.default is default
    for purpose in PURPOSES:  # every decision has default rules (or the play list)
        chain = bot._chain(purpose)
        assert chain, purpose
        assert (
            purpose in default.decisions
            or purpose in PLAY_PURPOSES
            or any(purpose.endswith(w[1:]) for w in default.decisions if w.startswith("*."))
        ), purpose
    res = CliRunner().invoke(main, ["strategy", "show", "default"])
    assert res.exit_code == 0 and res.output == bundled_text("default")
    assert check_text(bundled_text("default"), "default") == []


# -- the lint ------------------------------------------------------------------------


def test_check_finds_contradictions_division_by_zero_and_unknown_names_with_columns() -> None:
    text = (
        "buy = [\n"
        '  "Province if left(Province) > 8 and left(Province) < 3",\n'
        '  "Gold if 1 < count(Gold) < 1",\n'
        '  "Silver if total_money / 0 > 1",\n'
        '  "Smithy if coins / count(Treasure) > 1",\n'
        '  "Village if handsize > 3",\n'
        "]\n"
        "[decisions]\n"
        '"militia.discard" = ["Victory", "Estate", "Council Room if in_hand(Council Room) > 0"]\n'
    )
    found = {(f.line, f.col, f.level): f.message for f in check_text(text)}
    assert "can never hold" in found[(2, 4, "warning")]
    assert "can never hold" in found[(3, 4, "warning")]
    assert "division by zero" in found[(4, 28, "error")]
    assert "divisor can be 0" in found[(5, 22, "warning")]
    assert "unknown name 'handsize'" in found[(6, 15, "error")]
    unreachable = found[(9, 34, "warning")]
    assert "militia.discard entry 2 (Estate): unreachable" in unreachable
    assert "'Victory' always decides first" in unreachable


def test_check_names_cards_as_the_player_reads_them() -> None:
    found = check_text('buy = ["Gold", "Council Room", "Council Room"]', kingdom=["smithy"])
    messages = " ".join(f.message for f in found)
    assert "Council Room is not in this kingdom" in messages
    assert "council_room" not in messages


def test_a_file_names_its_kingdom_and_check_uses_it() -> None:
    text = 'kingdom = ["Smithy"]\nbuy = ["Witch", "Silver"]'
    assert any("Witch is not in this kingdom" in f.message for f in check_text(text))
    with pytest.raises(StrategyError, match="'Gold' is not a kingdom card"):
        parse_strategy('kingdom = ["Gold"]\nbuy = ["Silver"]')
