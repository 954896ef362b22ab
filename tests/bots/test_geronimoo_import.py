"""``kingdoms strategy import``: Geronimoo's Dominion Simulator bot files converted
rule by rule, with the same buys in the same situations."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kingdoms.bots.dominion.geronimoo import convert
from kingdoms.bots.dominion.lang import StrategyError, compile_condition, parse_strategy
from kingdoms.bots.dominion.strategy import Situation
from kingdoms.cli import main

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


def test_bots_that_cannot_be_expressed_are_reported_with_the_reason() -> None:
    bots = _bots()
    assert bots["Test Unknown Card"].reason == "the card 'Castles' does not exist here"  # type: ignore[attr-defined]
    assert "isPlusOneCardTokenSet" in bots["Test Token"].reason  # type: ignore[attr-defined]
    assert "'Terminal'" in bots["Test Card Type"].reason  # type: ignore[attr-defined]
    notes = bots["Test Every Function"].notes  # type: ignore[attr-defined]
    assert any("bigTurnBridge" in n for n in notes)
    with pytest.raises(StrategyError, match="not a bot file"):
        convert("<playerCollection>")


def test_cli_import_writes_one_file_per_bot(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["strategy", "import", str(XML), "-o", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "test-every-function.toml",
        "test-smithy-money.toml",
    ]
    assert "skipped 'Test Unknown Card': the card 'Castles' does not exist here" in res.output
    assert "2 of 5 bot(s) converted" in res.output
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
