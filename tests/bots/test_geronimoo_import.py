"""``kingdoms strategy import``: Geronimoo's Dominion Simulator bot files converted
rule by rule, with the same buys in the same situations."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from kingdoms.bots.dominion import adapter
from kingdoms.bots.dominion.geronimoo import convert
from kingdoms.bots.dominion.lang import StrategyError, compile_condition, parse_strategy
from kingdoms.bots.dominion.roles import ROLES
from kingdoms.bots.dominion.strategy import Situation
from kingdoms.cli import main
from kingdoms.dominion.data import CARDS

XML = Path(__file__).parent / "data" / "dombots_small.xml"


def _bots() -> dict[str, object]:
    return {b.name: b for b in convert(XML.read_text())}


def test_each_rule_converts_to_the_same_condition() -> None:
    bot = _bots()["Test Smithy Money"]
    strategy = parse_strategy(bot.toml)  # type: ignore[attr-defined]
    assert [r.text for r in strategy.buy] == [
        "Province if total_money > 15",
        "Duchy if left(Province) <= 4",
        "Gold",
        "Smithy if count(Smithy) < (count(Treasure) / 11)",
        "Silver",
    ]
    assert strategy.kingdom[:2] == ("smithy", "cellar")
    every = parse_strategy(_bots()["Test Every Function"].toml)  # type: ignore[attr-defined]
    assert [r.text for r in every.buy] == [
        "Province if vp >= (opp_vp - 5) and gains_to_end > 2",
        "Council Room if in_hand(Council Room) == in_play(Moneylender) and "
        "(total_money + count(Moneylender)) < (deck_size * 0.5)",
        "Moneylender if coins == 4 and (draw_pile_size + discard_size) > (buys + 2)",
        "Silver if action_phase == 0 and opp_count(Curse) < turn",
    ]
    # gains (Workshop…) follow the buy rules
    assert [r.text for r in every.decisions["*.gain"]] == [r.text for r in every.buy]


def test_total_money_counts_the_fixed_coins_of_actions_as_there() -> None:
    # Geronimoo's getTotalMoney: Copper 1, Silver 2, Festival 2, Militia 2, Market 1,
    # Herbalist 1, Moneylender 1
    owned = {"copper": 7, "silver": 1, "festival": 1, "militia": 1, "market": 1, "herbalist": 1}
    s = Situation(coins=0, owned=owned)
    assert compile_condition("total_money").fn(s) == 7 + 2 + 2 + 2 + 1 + 1
    lender = Situation(coins=0, owned={"copper": 7, "moneylender": 1})
    assert compile_condition("(total_money + count(Moneylender))").fn(lender) == 8


def test_the_buys_are_the_same_in_the_same_situations() -> None:
    smithy = parse_strategy(_bots()["Test Smithy Money"].toml)  # type: ignore[attr-defined]
    supply = {"province": 8, "duchy": 8, "gold": 30, "silver": 40, "smithy": 10}

    def buy(coins: int, owned: dict[str, int], **left: int) -> str | None:
        return smithy.choose(Situation(coins=coins, owned=owned, supply={**supply, **left}))

    start = {"copper": 7, "estate": 3}
    assert buy(8, start) == "gold"  # total money 7: not above 15
    assert buy(8, {"copper": 7, "gold": 3}) == "province"  # 16 > 15
    assert buy(5, start, province=4) == "duchy"  # Provinces left <= 4
    assert buy(4, start) == "smithy"  # 0 Smithies < 7 Treasures / 11 (0.64)
    assert buy(4, {"copper": 7, "silver": 4}) == "smithy"  # 0 < 11 / 11
    assert buy(4, {"copper": 7, "silver": 4, "smithy": 1}) == "silver"  # 1 < 1: no


def test_the_end_of_game_guard_is_kept() -> None:
    smithy = parse_strategy(_bots()["Test Smithy Money"].toml)  # type: ignore[attr-defined]
    assert smithy.guard  # the last Province is not bought while behind
    s = Situation(
        coins=8,
        owned={"copper": 7, "gold": 3},
        supply={"province": 1, "gold": 30, "silver": 40},
        others=((30, 10),),
        taken=10,
    )
    assert smithy.choose(s) == "gold"


def test_bots_that_cannot_be_expressed_are_reported_with_every_reason() -> None:
    bots = _bots()
    assert bots["Test Unknown Card"].reason == "the card 'Castles' does not exist here"  # type: ignore[attr-defined]
    assert bots["Test Many Reasons"].reasons == [  # type: ignore[attr-defined]
        "the card 'Colony' does not exist here",
        "the condition function 'countGainedCards' has no equivalent here",
        "the card type 'Card_Advantage' has no equivalent here",
        "the card 'Platinum' does not exist here",
    ]
    assert bots["Test Start State"].reasons == [  # type: ignore[attr-defined]
        "its start state: the card 'Necropolis' does not exist here",
        "its start state: the card 'Overgrown Estate' does not exist here",
        "its start state: the card 'Hovel' does not exist here",
    ]
    notes = bots["Test Every Function"].notes  # type: ignore[attr-defined]
    assert any("bigTurnBridge" in n for n in notes)
    with pytest.raises(StrategyError, match="not a bot file"):
        convert("<playerCollection>")
    with pytest.raises(StrategyError, match=r"not a bot file: no <player> element .* <bots>"):
        convert("<bots><foo/></bots>")
    odd = convert(
        '<player name="A"><buy name="Silver"><condition><left type="countCardsInDeck" '
        'attribute="Gold"/><operator type="greaterThan"/><right type="constant" '
        'attribute="x"/></condition></buy></player>'
    )
    assert odd[0].reasons == ["a condition's value 'x' is not a number"]


def test_cli_import_writes_one_file_per_bot(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["strategy", "import", str(XML), "-o", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "test-card-type.toml",
        "test-every-function.toml",
        "test-lucky-start.toml",
        "test-play.toml",
        "test-smithy-money.toml",
        "test-token.toml",
    ]
    assert "skipped 'Test Unknown Card': the card 'Castles' does not exist here" in res.output
    assert "skipped 'Test Many Reasons': the card 'Colony' does not exist here\n" in res.output
    assert "  and the card 'Platinum' does not exist here\n" in res.output
    assert "6 of 9 bot(s) converted" in res.output
    again = CliRunner().invoke(main, ["strategy", "import", str(XML), "-o", str(tmp_path)])
    assert "exists (--force overwrites)" in again.output and again.exit_code == 1
    sim = CliRunner().invoke(
        main,
        [
            "sim",
            "dominion",
            "--bots",
            f"{tmp_path / 'test-smithy-money.toml'},big-money-ultimate",
            "-n",
            "10",
            "--kingdom",
            "Smithy",
        ],
    )
    assert sim.exit_code == 0 and "Test Smithy Money" in sim.output


def test_the_pseudo_types_are_the_roles_read_from_the_declarations() -> None:
    bot = _bots()["Test Card Type"]
    strategy = parse_strategy(bot.toml)  # type: ignore[attr-defined]
    assert strategy.buy[0].text == "Village if count(Terminal) > count(Village)"
    rule = strategy.buy[0].cond
    assert rule is not None
    types = adapter.TYPES
    # Smithy and Militia are terminals, the Village card a village (and a cycler)
    assert rule(Situation(coins=3, owned={"smithy": 1, "militia": 1, "village": 1}, types=types))
    assert not rule(Situation(coins=3, owned={"smithy": 1, "village": 1}, types=types))
    assert ROLES["festival"] == {"village"} and ROLES["laboratory"] == {"cycler"}
    assert ROLES["remodel"] == {"terminal", "trasher"} and ROLES["golem"] == {"village"}
    villages = compile_condition("count(Villages)").fn
    assert villages(Situation(coins=0, owned={"festival": 2, "village": 1}, types=types)) == 3


def test_a_start_state_becomes_the_files_start(tmp_path: Path) -> None:
    bot = _bots()["Test Lucky Start"]
    strategy = parse_strategy(bot.toml)  # type: ignore[attr-defined]
    # the hand as given, the draw deck in its order there (top card first, unshuffled)
    assert strategy.start == {
        "deck": ["silver", "copper", "copper", "copper", "copper", "estate", "estate"],
        "shuffle": False,
        "hand": ["potion", "estate", "copper", "copper", "copper"],
        "discard": [],
    }
    assert not any("start" in n for n in bot.notes)  # type: ignore[attr-defined]
    from kingdoms.sim.runner import new_sim_game

    path = tmp_path / "lucky-start.toml"
    path.write_text(bot.toml, encoding="utf-8")  # type: ignore[attr-defined]
    kingdom = ["familiar", "cellar", "moat", "village", "smithy", "market", "mine"]
    kingdom += ["witch", "laboratory", "festival"]
    state = new_sim_game("dominion", [str(path), "big-money"], 0, 1, {"kingdom": kingdom})
    names = [c.id for c in (CARDS[x] for x in state.hands[0])]
    assert names == ["potion", "estate", "copper", "copper", "copper"]
    assert CARDS[state.decks[0][-1]].id == "silver"  # its top card


def test_functions_of_other_sets_are_constants_here() -> None:
    bot = _bots()["Test Token"]
    strategy = parse_strategy(bot.toml)  # type: ignore[attr-defined]
    assert strategy.buy[0].text == "Gold if 0 == 0"
    assert any("always 0" in n for n in bot.notes)  # type: ignore[attr-defined]


REAL = os.environ.get("KINGDOMS_DOMBOTS")


@pytest.mark.skipif(not REAL, reason="KINGDOMS_DOMBOTS (the path of the real DomBots.xml) not set")
def test_the_real_file_imports_every_bot_whose_cards_exist_here() -> None:
    bots = convert(Path(str(REAL)).read_text(encoding="utf-8"))
    assert len(bots) >= 190
    for bot in bots:
        if bot.toml is None:
            assert bot.reasons and all("does not exist here" in r for r in bot.reasons), bot.name
        else:
            parse_strategy(bot.toml, bot.name)
    names = {b.name for b in bots if b.toml}
    assert {"First Game by michaeljb", "Burning Skull HTBD#1", "Lab/Militia/Chapel"} <= names


def _rule_cards(rules: object, s: Situation) -> list[str]:
    """The entries of a rule list that apply in ``s``, as their text."""
    out = []
    for r in rules:  # type: ignore[attr-defined]
        s.card = r.key
        if r.cond is None or r.cond(s):
            out.append(r.text)
    return out


def test_cards_are_played_as_that_simulator_plays_them() -> None:
    strategy = parse_strategy(_bots()["Test Play"].toml)  # type: ignore[attr-defined]
    # cantrips first, the curser before the other terminals, Moat late; an aggressive
    # Chapel before the terminals when the hand holds junk to trash
    assert [r.text for r in strategy.play] == [
        "Harbinger",
        "Spy",
        "Throne Room",
        "Cellar",
        "Chapel if actions == 1 and (in_hand(Curse) + in_hand(Victory) + in_hand(Copper)) > 1",
        "Witch if left(Curse) > 0",
        "Thief",
        "Witch",
        "Moat",
        "Chapel if in_hand(Curse) + in_hand(Estate) > 0 or "
        "(in_hand(Copper) > 0 and total_money - 1 >= 4)",
    ]
    d = strategy.decisions
    # Chapel keeps $4 of Treasure, and an Estate while the buy rules want Estates
    assert [r.text for r in d["chapel.trash"]][:3] == [
        "Curse",
        "Duchy",
        "Estate if not (left(Province) <= 2)",
    ]
    # Thief gains a Treasure only when its buy rules want it now
    assert [r.text for r in d["thief.gain"]] == ["Silver if count(Silver) < 4", "done"]
    rich = Situation(coins=0, owned={"copper": 2, "silver": 4}, types=adapter.TYPES)
    assert _rule_cards(d["thief.gain"], rich) == ["done"]
    # Spy leaves an opponent's Silver on top for a Thief in hand
    assert any("in_hand(Thief)" in r.text for r in d["spy.discard"])
    # Throne Room doubles the most valuable Action, a terminal only with an Action left
    assert [r.text for r in d["throne_room.play"]][:2] == [
        "Witch if actions > 0 or in_hand(Terminal) == in_hand(Action)",
        "Moat if actions > 0 or in_hand(Terminal) == in_hand(Action)",
    ]
    # Cellar drops excess terminals first, the least valued first; Harbinger tops
    # nothing worse than Silver
    excess = " if in_hand(Terminal) > actions"
    assert [r.text for r in d["cellar.discard"]][:5] == [
        f"{c}{excess}" for c in ("Chapel", "Thief", "Moat", "Witch", "Terminal")
    ]
    assert d["harbinger.topdeck"][-1].text == "done"
    # the penultimate Province rule guards every Province buy
    assert "left(Province) == 2 and vp < opp_vp" in strategy.buy[0].text
