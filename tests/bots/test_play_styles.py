"""Named play styles (``[styles]``): Remodel upgrading what the buy rules would gain
at a card's cost + $2, Mine upgrading the Treasure whose gain ranks first in the buy
rules, as Geronimoo's Dominion Simulator plays them."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from kingdoms.bots.dominion.bots import StrategyBot
from kingdoms.bots.dominion.geronimoo import convert
from kingdoms.bots.dominion.lang import StrategyError, parse_strategy
from kingdoms.bots.dominion.observation import observe
from kingdoms.core.registry import new_game
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import BY_ID, CARDS

KINGDOM = ["remodel", "smithy", "village", "cellar", "market", "militia", "mine", "moat"]
KINGDOM += ["workshop", "woodcutter"]
BUY = '["Province", "Gold", "Remodel if count(Remodel) < 1", "Smithy", "Silver"]'
STYLED = f'name = "R"\nbuy = {BUY}\nplay = ["Remodel"]\n[styles]\nremodel = "upgrade"\n'
STYLED += f'[decisions]\n"*.gain" = {BUY}\n'
PLAIN = STYLED.replace('[styles]\nremodel = "upgrade"\n', "")


def _state(hand: list[str]) -> Any:
    deck = ["copper"] * 5 + ["estate"] * 2
    start = [{"hand": hand, "deck": deck, "shuffle": False}, None]
    options = {"kingdom": KINGDOM, "start": start, "first_player": 0}
    return new_game("dominion", players=2, seed=1, options=options)


def _act(bot: StrategyBot, state: Any) -> int:
    return bot.act(observe(state, 0), state.legal_actions(), random.Random(0))


def _play(card: str) -> int:
    return A.encode(A.PLAY, BY_ID[card])


def _remodel_turn(text: str, hand: list[str]) -> tuple[str | None, str | None]:
    """(the card trashed, the card gained) when the bot plays Remodel from ``hand``;
    (None, None) when it does not play it."""
    bot = StrategyBot(parse_strategy(text))
    state = _state(hand)
    action = _act(bot, state)
    if action != _play("remodel"):
        return None, None
    state.apply(action)
    before = Counter(CARDS[c].id for c in state.hands[0])
    state.apply(_act(bot, state))  # the card to trash
    trashed = list((before - Counter(CARDS[x].id for x in state.hands[0])).elements())
    owned_before = sorted(CARDS[c].id for c in state.discards[0])
    state.apply(_act(bot, state))  # the card to gain
    gained = [CARDS[c].id for c in state.discards[0]]
    for c in owned_before:
        gained.remove(c)
    return (trashed[0] if trashed else None), (gained[0] if gained else None)


def test_the_style_is_read_and_checked() -> None:
    assert dict(parse_strategy(STYLED).styles) == {"remodel": "upgrade"}
    assert dict(parse_strategy(PLAIN).styles) == {}
    with pytest.raises(StrategyError, match=r"no play style for 'Remodle'.*did you mean 'Remodel'"):
        parse_strategy(STYLED.replace("remodel = ", "Remodle = "))
    with pytest.raises(StrategyError, match="play style is one of 'upgrade', not 'upgrad'"):
        parse_strategy(STYLED.replace('"upgrade"', '"upgrad"'))
    with pytest.raises(StrategyError, match="styles must be a table"):
        parse_strategy(f'name = "R"\nbuy = {BUY}\nstyles = 3\n')


def test_remodel_upgrades_the_card_the_buy_rules_gain_most_from() -> None:
    # an Estate at $2 + 2 gets the Smithy the buy rules want, better than the hand's
    # Silver; a Copper at $2 gets nothing they name
    assert _remodel_turn(STYLED, ["remodel", "estate", "copper", "copper", "copper"]) == (
        "estate",
        "smithy",
    )
    # a Gold becomes a Province, which the hand buys too: it costs the turn nothing
    assert _remodel_turn(STYLED, ["remodel", "gold", "silver", "silver", "copper"]) == (
        "gold",
        "province",
    )


def test_remodel_ranks_cards_as_that_simulator_does() -> None:
    # a Smithy is valued as much as a Gold: not remodelled into one
    assert _remodel_turn(STYLED, ["remodel", "smithy", "copper", "copper", "copper"]) == (
        None,
        None,
    )
    # a Market is valued above a Gold, a Mine below it
    market = STYLED.replace('"Smithy"', '"Market", "Mine"')
    hand = ["remodel", "market", "mine", "copper", "copper"]
    assert _remodel_turn(market, hand) == ("mine", "gold")
    assert _remodel_turn(market, hand[:2] + ["copper"] * 3) == (None, None)


def test_remodel_is_not_played_when_nothing_is_worth_remodelling() -> None:
    hand = ["remodel", "copper", "copper", "copper", "copper"]
    assert _remodel_turn(STYLED, hand) == (None, None)  # Coppers would gain nothing
    bot = StrategyBot(parse_strategy(STYLED))
    state = _state(hand)
    assert _act(bot, state) in state.legal_actions()
    # without the style the play list plays it, and the default trashes a Copper
    assert _remodel_turn(PLAIN, hand)[0] == "copper"
    # a Silver at $3 + 2 would get a Smithy, but the whole hand buys a Province and
    # the hand without the Silver buys less: no Remodel
    assert _remodel_turn(STYLED, ["remodel", "silver", "silver", "silver", "silver"]) == (
        None,
        None,
    )
    # a Smithy is worth what the hand's Gold is: it buys the Gold anyway, so a Silver
    # becomes a Smithy
    assert _remodel_turn(STYLED, ["remodel", "silver", "silver", "copper", "copper"]) == (
        "silver",
        "smithy",
    )


def test_a_styled_bot_plays_the_same_game_in_the_fast_loop() -> None:
    """The simulator's loop for strategy bots (no observation where the legal
    actions decide) gives the style its say, as the generic loop does; the native
    core leaves such a seat to the Python engine."""
    from kingdoms.bots.dominion.native import NotNative, _plan

    with pytest.raises(NotNative, match="play styles"):
        _plan(StrategyBot(parse_strategy(STYLED)), False)
    for seed in range(4):
        histories = _both_loops(seed)
        assert histories[0] == histories[1], seed
        assert _play("remodel") in histories[0]  # it did play Remodel, when worth it


def _both_loops(seed: int, text: str = STYLED) -> list[list[int]]:
    from kingdoms.bots.dominion.bots import _play_game, bundled_bot

    histories = []
    for fast in (True, False):
        state = new_game("dominion", players=2, seed=seed, options={"kingdom": KINGDOM})
        bots = [StrategyBot(parse_strategy(text)), bundled_bot("big-money-ultimate")]
        rngs = [random.Random(0), random.Random(1)]
        if fast:
            assert _play_game(state, bots, rngs, 100_000)
        else:
            while state.current_player >= 0:
                legal = state.legal_actions()
                p = state.current_player
                pick = (
                    legal[0] if len(legal) == 1 else bots[p].act(observe(state, p), legal, rngs[p])
                )
                state.apply(pick)
        histories.append(list(state.history))
    return histories


def test_the_import_gives_remodel_its_style() -> None:
    xml = """<?xml version="1.0" encoding="UTF-8"?>
<playerCollection>
    <player name="Remodeller">
        <buy name="Province"/>
        <buy name="Gold"/>
        <buy name="Remodel"><condition><left type="countCardsInDeck" attribute="Remodel"/>
            <operator type="smallerThan"/><right type="constant" attribute="1.0"/></condition></buy>
        <buy name="Silver"/>
    </player>
    <player name="No Remodel"><buy name="Gold"/><buy name="Silver"/></player>
</playerCollection>"""
    bots = {b.name: b for b in convert(xml)}
    text = bots["Remodeller"].toml
    assert text is not None and '[styles]\nremodel = "upgrade"' in text
    assert dict(parse_strategy(text).styles) == {"remodel": "upgrade"}
    plain = bots["No Remodel"].toml
    assert plain is not None and "[styles]" not in plain


MINE_BUY = (
    '["Province", "Gold", "Mine if count(Mine) < 1", "Silver if action_phase == 1", "Smithy"]'
)
MINED = f'name = "M"\nbuy = {MINE_BUY}\nplay = ["Mine", "Smithy"]\n[styles]\nmine = "upgrade"\n'
MINE_PLAIN = MINED.replace('[styles]\nmine = "upgrade"\n', "")


def _mine_turn(text: str, hand: list[str]) -> tuple[str | None, str | None]:
    """(the Treasure trashed, the Treasure gained to hand) when the bot plays Mine
    from ``hand``; (None, None) when it plays something else first."""
    bot = StrategyBot(parse_strategy(text))
    state = _state(hand)
    action = _act(bot, state)
    if action != _play("mine"):
        return None, None
    state.apply(action)
    before = Counter(CARDS[c].id for c in state.hands[0])
    state.apply(_act(bot, state))  # the Treasure to trash
    middle = Counter(CARDS[c].id for c in state.hands[0])
    state.apply(_act(bot, state))  # the Treasure to gain
    after = Counter(CARDS[c].id for c in state.hands[0])
    trashed = list((before - middle).elements())
    gained = list((after - middle).elements())
    return (trashed[0] if trashed else None), (gained[0] if gained else None)


def test_mine_upgrades_the_treasure_whose_gain_ranks_first_in_the_buy_rules() -> None:
    assert dict(parse_strategy(MINED).styles) == {"mine": "upgrade"}
    # Silver -> Gold (Gold is the second buy entry) beats Copper -> Silver
    assert _mine_turn(MINED, ["mine", "copper", "silver", "gold", "estate"]) == ("silver", "gold")
    # only Coppers: Copper -> Silver, the Treasure the buy rules take at $3
    assert _mine_turn(MINED, ["mine", "copper", "copper", "estate", "estate"]) == (
        "copper",
        "silver",
    )
    # the buy rules want no Silver in the action phase: a Copper is not worth mining
    no_silver = MINED.replace('"Silver if action_phase == 1"', '"Silver if action_phase == 0"')
    assert _mine_turn(no_silver, ["mine", "copper", "copper", "estate", "estate"]) == (None, None)


def test_mine_is_not_played_when_no_treasure_is_worth_mining() -> None:
    # a Gold would become a Gold: Mine is passed over and the Smithy is played
    hand = ["mine", "smithy", "gold", "estate", "estate"]
    bot = StrategyBot(parse_strategy(MINED))
    assert _act(bot, _state(hand)) == _play("smithy")
    # without the style the play list plays Mine first, on the Gold
    assert _act(StrategyBot(parse_strategy(MINE_PLAIN)), _state(hand)) == _play("mine")
    assert _mine_turn(MINE_PLAIN, hand) == ("gold", "gold")


def test_a_mine_styled_bot_plays_the_same_game_in_both_loops() -> None:
    from kingdoms.bots.dominion.native import NotNative, _plan

    with pytest.raises(NotNative, match="play styles"):
        _plan(StrategyBot(parse_strategy(MINED)), False)
    played = False
    for seed in range(4):
        histories = _both_loops(seed, MINED)
        assert histories[0] == histories[1], seed
        played = played or _play("mine") in histories[0]
    assert played


def test_the_import_gives_mine_its_style() -> None:
    xml = """<?xml version="1.0" encoding="UTF-8"?>
<playerCollection>
    <player name="Miner"><buy name="Province"/><buy name="Gold"/><buy name="Mine"/>
        <buy name="Silver"/></player>
</playerCollection>"""
    (bot,) = convert(xml)
    assert bot.toml is not None and 'mine = "upgrade"' in bot.toml
    assert dict(parse_strategy(bot.toml).styles) == {"mine": "upgrade"}


def test_imported_cellar_discards_the_least_valued_excess_terminals() -> None:
    xml = """<?xml version="1.0" encoding="UTF-8"?>
<playerCollection>
    <player name="Cellarer"><buy name="Province"/><buy name="Gold"/><buy name="Militia"/>
        <buy name="Smithy"/><buy name="Remodel"/><buy name="Cellar"/><buy name="Silver"/>
    </player>
</playerCollection>"""
    (imported,) = convert(xml)
    assert imported.toml is not None
    bot = StrategyBot(parse_strategy(imported.toml))
    state = _state(["cellar", "militia", "smithy", "remodel", "gold"])
    assert _act(bot, state) == _play("cellar")
    state.apply(_play("cellar"))
    while state.current_player == 0 and observe(state, 0).purpose == "cellar.discard":
        state.apply(_act(bot, state))
    # one Action left for three terminals: the Remodel and the Smithy go, the Militia
    # (valued most) stays; the Gold stays too
    assert sorted(CARDS[c].id for c in state.discards[0]) == ["remodel", "smithy"]
