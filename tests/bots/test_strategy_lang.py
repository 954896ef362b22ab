"""Strategy files: conditions, buy semantics, play priorities, overrides, lint, CLI."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kingdoms.bots.base import make_bot
from kingdoms.bots.dominion import adapter
from kingdoms.bots.dominion.bots import StrategyBot, decision_purpose
from kingdoms.bots.dominion.bundled import bundled_names, bundled_text
from kingdoms.bots.dominion.lang import (
    StrategyError,
    check_text,
    compile_condition,
    parse_strategy,
)
from kingdoms.bots.dominion.strategy import Situation, always
from kingdoms.cli import main

FULL = {
    "copper": 46,
    "silver": 40,
    "gold": 30,
    "estate": 8,
    "duchy": 8,
    "province": 8,
    "curse": 10,
    "smithy": 10,
    "village": 10,
    "festival": 10,
    "gardens": 8,
}


def sit(coins: int = 0, owned: dict[str, int] | None = None, **kw: object) -> Situation:
    supply = {**FULL, **kw.pop("supply", {})}  # type: ignore[dict-item]
    return Situation(
        coins=coins,
        owned=owned if owned is not None else {"copper": 7, "estate": 3},
        supply=supply,
        costs=adapter.COSTS,
        potion_costs=adapter.POTION_COSTS,
        treasure_values=adapter.TREASURE_VALUES,
        treasure_ids=adapter.TREASURE_IDS,
        types=adapter.TYPES,
        **kw,  # type: ignore[arg-type]
    )


def holds(cond: str, s: Situation) -> bool:
    return bool(compile_condition(cond).fn(s))


# -- conditions ---------------------------------------------------------------------


def test_counts_by_card_and_type() -> None:
    s = sit(owned={"copper": 7, "silver": 4, "estate": 3, "smithy": 1, "festival": 2})
    assert holds("count(Copper) == 7 and count(Silver) == 4", s)
    assert holds("count(Treasure) == 11 and count(Action) == 3 and count(Victory) == 3", s)
    assert holds("count(Treasures) == 11", s)  # plural type names read too
    assert holds("count(Smithy) < count(Treasure) / 10", s)
    assert not holds("count(Smithy) < count(Treasure) / 11", s)
    assert holds("deck_size == 17", s)


def test_total_money_counts_treasures_and_fixed_plus_coins_of_actions() -> None:
    s = sit(owned={"copper": 7, "silver": 2, "gold": 1, "festival": 2, "smithy": 1})
    assert holds("total_money == 7 + 4 + 3 + 4", s)
    assert holds("money == total_money", s)


def test_piles_turn_coins_buys_and_vp() -> None:
    s = sit(
        6,
        {"copper": 7, "estate": 3, "province": 1},
        supply={"province": 3, "curse": 0, "village": 0},
        buys=2,
        turn=9,
        others=((12, 8),),
    )
    assert holds("left(Province) == 3 and left(Council Room) == 0", s)
    assert holds("empty_piles == 2", s)
    assert holds("turn == 9 and coins == 6 and buys == 2", s)
    assert holds("vp == 9 and vp_lead == -3 and vp_deficit == 3", s)
    assert holds("not (vp_lead > 0) and (turn > 100 or coins >= 6)", s)
    assert holds("1 < coins <= 6 and min(coins, 2) == 2 and max(coins, 7) == 7", s)
    assert holds("(coins + 2) * 2 - 1 == 15 and coins // 4 == 1 and coins % 4 == 2", s)
    assert holds("count(Estate) == 3 AND NOT count(Gold) > 0", s)


def test_gardens_count_in_vp() -> None:
    s = sit(owned={"copper": 17, "estate": 3, "gardens": 2})
    assert holds("vp == 3 + 2 * 2", s)


@pytest.mark.parametrize(
    ("cond", "needle"),
    [
        ("count(Dutchy) > 0", "unknown card or type 'Dutchy'"),
        ("cash > 3", "unknown name 'cash'"),
        ("count(Gold) >", "bad condition"),
        ("count(Gold) >", "it ends with '>': a value is missing after it"),
        ("coins => 6", "'=>' is not an operator here; did you mean '>='?"),
        ("coins = 6", "did you mean '=='?"),
        ("coins > 3 && actions > 0", "did you mean 'and'?"),
        ("coins > 3 || actions > 0", "did you mean 'or'?"),
        ("!coins", "did you mean 'not'?"),
        ("coins ≥ 6", "did you mean '>='?"),
        ("3 coins", "an operator is missing between '3' and 'coins'"),
        ("coins >= 6 and", "it ends with 'and'"),
        ("coins >> 3", "unsupported operator '>>'; did you mean '>'?"),
        ("coins > 3 and and actions > 1", "two operators in a row: 'and' then 'and'"),
        ("coins > < 3", "two operators in a row: '>' then '<'"),
        ("coins & actions", "unsupported operator '&'; did you mean 'and'?"),
        ("count(Gold).real", "unsupported expression 'count(Gold).real'"),
        ("open('x')", "unknown function"),
        ("count(Gold).real", "unsupported expression"),
        ("left(Treasure) > 1", "left() takes a card"),
        ("'a' < 'b'", "unexpected"),
    ],
)
def test_bad_conditions_name_the_problem(cond: str, needle: str) -> None:
    with pytest.raises(StrategyError, match=r"<text>:3:\d+: error:") as err:
        parse_strategy(f'name = "x"\nbuy = [\n  "Gold if {cond}",\n]\n')
    assert needle in str(err.value)
    assert "invalid syntax" not in str(err.value)


@pytest.mark.parametrize(
    ("entry", "needle"),
    [
        ("Gold if", "<text>:3:11: error: buy: bad condition '': the condition is empty"),
        ("Smithy iff coins > 3", "did you mean 'Smithy if coins > 3'?"),
        ("Smithy when coins > 3", "did you mean 'Smithy if coins > 3'?"),
    ],
)
def test_a_misspelt_if_is_named(entry: str, needle: str) -> None:
    with pytest.raises(StrategyError) as err:
        parse_strategy(f'name = "x"\nbuy = [\n  "{entry}",\n]\n')
    assert needle in str(err.value)


# -- buy semantics ------------------------------------------------------------------

RULES = """
buy = [
  "Province if total_money > 15",
  "Duchy if left(Province) <= 4",
  "Gold",
  { card = "Smithy", if = "count(Smithy) < 1" },
  "Silver",
]
"""


def test_top_down_first_affordable_whose_condition_holds() -> None:
    s = parse_strategy(RULES)
    assert s.choose(sit(8)) == "gold"  # money 7: no Province
    assert s.choose(sit(8, {"copper": 7, "gold": 3})) == "province"
    assert s.choose(sit(5, supply={"province": 4})) == "duchy"
    assert s.choose(sit(4)) == "smithy"
    assert s.choose(sit(4, {"copper": 7, "smithy": 1})) == "silver"
    assert s.choose(sit(2)) is None  # nothing qualifies: stop buying
    assert s.choose(sit(7, supply={"gold": 0})) == "smithy"  # empty piles are passed over


def test_a_buy_that_ends_the_game_while_behind_is_skipped() -> None:
    s = parse_strategy(RULES)
    rich = {"copper": 7, "gold": 3, "estate": 3}  # 3 VP
    last = {"province": 1}
    # behind by more than a Province: skip it, fall through (to the Duchy rule)
    assert s.choose(sit(8, rich, supply=last, others=((10, 10),), taken=10)) == "duchy"
    # the Province wins it: take it
    assert s.choose(sit(8, rich, supply=last, others=((8, 10),), taken=10)) == "province"
    # tied after the buy, having taken more turns: a loss on the tie-break, skip
    assert s.choose(sit(8, rich, supply=last, others=((9, 9),), taken=10)) == "duchy"
    # tied with the same number of turns: a shared win, take it
    assert s.choose(sit(8, rich, supply=last, others=((9, 10),), taken=10)) == "province"
    # third pile: the last Smithy ends the game too
    piles = {"smithy": 1, "curse": 0, "village": 0}
    assert s.choose(sit(4, supply=piles, others=((9, 10),), taken=10)) == "silver"
    assert s.choose(sit(4, supply=piles, others=((0, 10),), taken=10)) == "smithy"


def test_extra_buys_walk_the_list_again_in_a_real_turn() -> None:
    from kingdoms.dominion.state import DominionState

    bot = StrategyBot(parse_strategy('play = ["Festival"]\nbuy = ["Silver", "Copper"]'))
    hand = ["festival", "festival", "silver", "copper", "estate"]  # $7 and 3 buys
    state = DominionState.scenario(2, KINGDOM, turn=0, hands={0: hand})
    done = []
    rng = random.Random(0)
    while state.current_player == 0 and state.turn == 0:
        action = bot.act(state.view(0), state.legal_actions(), rng)
        done.append(state.action_to_str(action))
        state.apply_checked(action)
    assert [t for t in done if t.startswith("buy")] == ["buy Silver", "buy Silver", "buy Copper"]


# -- play priorities and overrides --------------------------------------------------


def _scenario(hands: dict[int, list[str]], kingdom: list[str]) -> object:
    from kingdoms.dominion.state import DominionState

    return DominionState.scenario(2, kingdom, turn=0, hands=hands)  # type: ignore[arg-type]


def _answer(bot: StrategyBot, state: object, seat: int) -> str:
    view = state.view(seat)  # type: ignore[attr-defined]
    action = bot.act(view, state.legal_actions(), random.Random(0))  # type: ignore[attr-defined]
    return str(state.action_to_str(action))  # type: ignore[attr-defined]


KINGDOM = ["militia", "village", "smithy", "chancellor", "cellar", "moat", "market", "mine"]
KINGDOM += ["festival", "bureaucrat"]


def test_play_priorities_order_the_actions() -> None:
    hand = ["smithy", "village", "festival", "copper", "copper"]
    first = StrategyBot(parse_strategy('play = ["Smithy", "Village"]\nbuy = ["Silver"]'))
    assert _answer(first, _scenario({0: hand}, KINGDOM), 0) == "play Smithy"
    other = StrategyBot(parse_strategy('play = ["Festival"]\nbuy = ["Silver"]'))
    assert _answer(other, _scenario({0: hand}, KINGDOM), 0) == "play Festival"


def test_overrides_by_purpose() -> None:
    st_ = _scenario(
        {0: ["militia", *["copper"] * 4], 1: ["silver", "copper", "estate", "gold", "gold"]},
        KINGDOM,
    )
    st_.apply_checked(st_.parse_action("play Militia"))  # type: ignore[attr-defined]
    assert decision_purpose(st_.view(1)) == "militia.discard"  # type: ignore[attr-defined]
    keep_copper = StrategyBot(
        parse_strategy('buy = ["Silver"]\n[decisions]\n"militia.discard" = ["Silver", "Gold"]')
    )
    assert _answer(keep_copper, st_, 1) == "discard Silver"
    default = make_bot("dominion", "big-money")
    assert _answer(default, st_, 1) == "discard Estate"  # type: ignore[arg-type]
    # a forced choice with nothing listed falls back to the default policy
    only_curses = StrategyBot(
        parse_strategy('buy = ["Silver"]\n[decisions]\n"militia.discard" = ["Curse"]')
    )
    assert _answer(only_curses, st_, 1) == "discard Estate"


def test_every_purpose_the_bots_derive_can_be_overridden() -> None:
    import re

    from kingdoms.bots.dominion.lang import PURPOSES
    from kingdoms.dominion.decisions import KINDS, purposes

    assert sorted(PURPOSES) == purposes()  # exactly the engine's purposes
    assert set(PURPOSES.values()) <= set(KINDS)
    doc = (Path(__file__).parents[2] / "docs" / "strategies.md").read_text()
    start = doc.index("## Decision purposes")
    section = doc[start : doc.index("## Checking a file", start)]
    listed = re.findall(r"`([a-z_]+\.[a-z_]+)`", section)
    assert sorted(listed) == purposes()


ALCHEMY = ["alchemist", "apothecary", "golem", "scrying_pool", "herbalist"]
SECOND = ["vassal", "sentry", "spy", "village", "smithy"]


def _decide(
    decisions: str, purpose: str, seat: int = 0, **zones: dict[int, list[str]]
) -> tuple[str, str | None, str]:
    """Play a set-up position with a bot overriding ``decisions`` until ``seat``
    faces ``purpose``; its answer there: (answer, card, kind of the decision)."""
    from kingdoms.dominion.state import DominionState

    st_ = DominionState.scenario(2, [*ALCHEMY, *SECOND], turn=0, **zones)  # type: ignore[arg-type]
    bot = StrategyBot(parse_strategy(f'buy = ["Silver"]\n[decisions]\n{decisions}'))
    rng = random.Random(0)
    for _ in range(100):
        p = st_.current_player
        view = st_.view(p)
        action = bot.act(view, st_.legal_actions(), rng)
        frame = view.get("decision")
        if p == seat and frame and frame["purpose"] == purpose:
            choice = next(c for c in frame["choices"] if c["action"] == action)
            return choice["answer"], choice["card"], frame["kind"]
        st_.apply_checked(action)
    raise AssertionError(f"{purpose} never asked")


FILLER = ["copper"] * 4
POSITIONS: dict[str, dict[str, dict[int, list[str]]]] = {
    "vassal.play": {"hands": {0: ["vassal", *FILLER]}, "decks": {0: ["smithy", *FILLER]}},
    "spy.discard": {
        "hands": {0: ["spy", *FILLER]},
        "decks": {0: ["silver", "estate"], 1: ["gold", *FILLER]},
    },
    "scrying_pool.discard": {
        "hands": {0: ["scrying_pool", *FILLER]},
        "decks": {0: ["estate", *FILLER], 1: ["gold", *FILLER]},
    },
    "alchemist.topdeck": {"hands": {0: ["alchemist", "potion", *FILLER[:3]]}},
    "cleanup.order": {"hands": {0: ["alchemist", "potion", *FILLER[:3]]}},
    "sentry.order": {
        "hands": {0: ["sentry", *FILLER]},
        "decks": {0: ["copper", "gold", "silver", *FILLER]},
    },
    "apothecary.order": {
        "hands": {0: ["apothecary", *FILLER]},
        "decks": {0: ["copper", "estate", "gold", "silver", "duchy", *FILLER]},
    },
    "golem.order": {
        "hands": {0: ["golem", *FILLER]},
        "decks": {0: ["village", "smithy", *FILLER]},
    },
}
KEEP_ALL = '"sentry.trash" = []\n"sentry.discard" = []\n'
CASES: list[tuple[str, str, tuple[str, str | None]]] = [
    ("vassal.play", "false", ("no", None)),
    ("vassal.play", "true", ("yes", None)),
    ("vassal.play", '"turn > 3"', ("no", None)),
    ("vassal.play", '"turn == 1 and count(Copper) >= 7"', ("yes", None)),
    ("spy.discard", "true", ("yes", None)),
    ("spy.discard", "false", ("no", None)),
    ("scrying_pool.discard", "true", ("yes", None)),
    ("scrying_pool.discard", '"left(Province) < 3"', ("no", None)),
    ("alchemist.topdeck", "true", ("yes", None)),
    ("alchemist.topdeck", "false", ("no", None)),
    ("cleanup.order", '["Potion"]', ("card", "potion")),
    ("cleanup.order", '["Action"]', ("card", "alchemist")),
    ("sentry.order", '["Silver", "Gold"]', ("card", "silver")),
    ("sentry.order", '["Gold"]', ("card", "gold")),
    ("apothecary.order", '["Estate", "Duchy"]', ("card", "estate")),
    ("apothecary.order", '["Victory"]', ("card", "estate")),
    ("apothecary.order", '["Duchy", "Estate"]', ("card", "duchy")),
    ("golem.order", '["Village"]', ("card", "village")),
    ("golem.order", '["Smithy", "Village"]', ("card", "smithy")),
]


@pytest.mark.parametrize(("purpose", "value", "expected"), CASES)
def test_the_new_purposes_are_overridden_in_real_positions(
    purpose: str, value: str, expected: tuple[str, str | None]
) -> None:
    from kingdoms.bots.dominion.lang import PURPOSES

    zones = POSITIONS[purpose]
    answer, card, kind = _decide(f'{KEEP_ALL}"{purpose}" = {value}', purpose, **zones)
    assert kind == PURPOSES[purpose]
    if kind == "yes_no":
        assert answer == expected[0]
    else:
        assert (answer, card) == expected


def test_yes_no_overrides_flip_the_default_answer() -> None:
    """Each yes/no override is obeyed both ways, whatever the default would do."""
    for purpose in ("vassal.play", "spy.discard", "scrying_pool.discard", "alchemist.topdeck"):
        zones = POSITIONS[purpose]
        got = {_decide(f'"{purpose}" = {v}', purpose, **zones)[0] for v in ("true", "false")}
        assert got == {"yes", "no"}, purpose


def test_override_forms_follow_the_decision_kind() -> None:
    with pytest.raises(StrategyError, match="true, false or a condition"):
        parse_strategy('buy = ["Silver"]\n[decisions]\n"vassal.play" = ["Smithy"]')
    with pytest.raises(StrategyError, match="must be a list"):
        parse_strategy('buy = ["Silver"]\n[decisions]\n"golem.order" = true')
    with pytest.raises(StrategyError, match=r":3:.*unknown name 'provinces'"):
        parse_strategy(
            'buy = ["Silver"]\n[decisions]\n"spy.discard" = "provinces > 2"',
            source="b.toml",
        )
    findings = check_text('buy = ["Silver"]\n[decisions]\n"vassal.play" = "empty_piles >= 0"')
    assert [(f.line, f.level) for f in findings] == [(3, "warning")]
    assert "always true" in findings[0].message


def test_chancellor_override_and_bundled_rule() -> None:
    st_ = _scenario({0: ["chancellor", *["copper"] * 4]}, KINGDOM)
    st_.apply_checked(st_.parse_action("play Chancellor"))  # type: ignore[attr-defined]
    assert decision_purpose(st_.view(0)) == "chancellor.discard_deck"  # type: ignore[attr-defined]
    keep = StrategyBot(
        parse_strategy('buy = ["Silver"]\n[decisions]\n"chancellor.discard_deck" = false')
    )
    assert _answer(keep, st_, 0) == "keep deck"
    bundled = make_bot("dominion", "chancellor")
    assert _answer(bundled, st_, 0) == "discard deck"  # type: ignore[arg-type]


def test_herbalist_puts_back_only_gold() -> None:
    from kingdoms.dominion.state import DominionState

    kingdom = ["herbalist", *KINGDOM[:9]]
    st_ = DominionState.scenario(
        2, kingdom, turn=0, hands={0: ["herbalist", "gold", "silver", "copper", "estate"]}
    )
    bot = make_bot("dominion", "herbalist")
    rng = random.Random(0)
    seen = []
    while st_.current_player == 0 and st_.turn == 0:
        view = st_.view(0)
        action = bot.act(view, st_.legal_actions(), rng)
        if decision_purpose(view) == "herbalist.topdeck":
            seen.append(st_.action_to_str(action))
        st_.apply_checked(action)
    assert seen[0] == "put Gold on deck"
    assert not any("Silver" in t or "Copper" in t for t in seen)


# -- bundled bots ---------------------------------------------------------------------

CLASSIC = [
    "smithy", "militia", "laboratory", "witch", "moat", "adventurer", "bureaucrat",
    "chancellor", "council-room", "festival", "herbalist", "familiar",
]  # fmt: skip


def test_the_classic_bots_are_bundled_and_clean() -> None:
    assert set(CLASSIC) <= set(bundled_names())
    for name in bundled_names():
        findings = check_text(bundled_text(name), name)
        assert [f for f in findings if f.level == "error"] == [], name


def test_classic_bot_rules_as_in_the_reference() -> None:
    from kingdoms.bots.dominion.bundled import bundled_strategy

    council = bundled_strategy("council-room")
    money26 = {"copper": 7, "silver": 4, "gold": 1, "council_room": 1, "estate": 3}  # 7+8+3=18
    assert council.choose(sit(5, money26, supply={"council_room": 10})) == "council_room"
    assert council.choose(sit(5, {**money26, "council_room": 2}, supply={"council_room": 10})) == (
        "silver"
    )
    herb = bundled_strategy("herbalist")
    assert herb.choose(sit(2, {"copper": 7, "silver": 8}, supply={"herbalist": 10})) == "herbalist"
    assert herb.choose(sit(2, {"copper": 7, "silver": 7}, supply={"herbalist": 10})) is None
    moat = bundled_strategy("moat")
    assert moat.choose(sit(2, {"copper": 7}, supply={"moat": 10})) == "moat"
    assert moat.choose(sit(4, {"copper": 10}, supply={"moat": 10})) == "moat"
    assert moat.choose(sit(4, {"copper": 9}, supply={"moat": 10})) == "silver"
    fam = bundled_strategy("familiar")
    assert fam.choose(sit(4, supply={"potion": 16, "familiar": 10})) == "potion"
    assert fam.choose(sit(3, potions=1, supply={"potion": 16, "familiar": 10})) == "familiar"


@pytest.mark.parametrize("name", [n for n in CLASSIC if n != "herbalist"])  # needs 8 Silvers
def test_each_classic_bot_buys_its_card_in_its_one_card_kingdom(name: str) -> None:
    from kingdoms.core import new_game
    from kingdoms.core.runner import play_out

    card = name.replace("-", "_")
    bots = [make_bot("dominion", name), make_bot("dominion", "big-money-ultimate")]
    owned = 0
    for seed in range(4):
        state = new_game("dominion", 2, seed, {"kingdom": card, "first_player": seed % 2})
        state.logging = False
        play_out(state, bots, checked=True)
        owned += state.view(0)["players"][0]["owned"].get(card, 0)
    assert owned > 0


# -- lint and the command line --------------------------------------------------------

LINTED = """name = "linted"
play = ["Village"]
buy = [
  "Province if left(Province) > 20",
  "Gold",
  "Gold if coins >= 6",
  "Silver",
  "Smithy",
  "Familiar",
]
"""


def test_check_reports_each_problem_with_its_line() -> None:
    msgs = [(f.line, f.level, f.message) for f in check_text(LINTED, kingdom=["smithy"])]
    lines = {line for line, _, _ in msgs}
    assert (4, "warning") in {(line, lvl) for line, lvl, _ in msgs}
    assert any(line == 4 and "can never hold" in m for line, _, m in msgs)
    assert any(line == 6 and "unreachable" in m and "line 5" in m for line, _, m in msgs)
    assert any(line == 8 and "unreachable" in m and "Silver" in m for line, _, m in msgs)
    assert any(line == 9 and "never affordable" in m for line, _, m in msgs)
    assert any(line == 9 and "not in this kingdom" in m for line, _, m in msgs)
    assert any(line == 2 and "never buys" in m for line, _, m in msgs)
    assert 7 not in lines  # Silver is fine


def test_repeated_entries_get_their_own_lines() -> None:
    text = 'buy = [\n  "Gold",\n  "Silver",\n  "Gold",\n]\n'
    (finding,) = check_text(text)
    assert finding.line == 4 and "line 2 always buys Gold first" in finding.message
    (finding,) = check_text('buy = ["Gold", "Gold"]\n')
    assert finding.line == 1 and "entry 2" in finding.message


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=200))
def test_any_text_gives_findings_never_a_traceback(text: str) -> None:
    for f in check_text(text):
        assert f.level in ("error", "warning")


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="count(Gold)<>=+-*/ andornt0123456789 left(Province)", max_size=60))
def test_any_condition_gives_findings_never_a_traceback(cond: str) -> None:
    text = (
        f'buy = [{{ card = "Gold", if = {cond!r} }}]'.replace("'", '"') if '"' not in cond else ""
    )
    for f in check_text(text):
        assert f.level in ("error", "warning")


def test_cli_check_and_sim_with_a_file(tmp_path: Path) -> None:
    runner = CliRunner()
    good = tmp_path / "my_bot.toml"
    good.write_text(bundled_text("smithy").replace('name = "smithy"', 'name = "my-smithy"'))
    res = runner.invoke(main, ["strategy", "check", str(good)])
    assert res.exit_code == 0 and "OK" in res.output, res.output
    bad = tmp_path / "bad.toml"
    bad.write_text('buy = [\n  "Gold",\n  "Dutchy if turn > 3",\n]\n')
    res = runner.invoke(main, ["strategy", "check", str(bad)])
    assert res.exit_code == 1 and f"{bad}:3:4: error: unknown card or type 'Dutchy'" in res.output
    assert "Traceback" not in res.output
    broken = tmp_path / "broken.toml"
    broken.write_text('buy = [\n  "Gold",\n  oops\n]\n')
    res = runner.invoke(main, ["strategy", "check", str(broken)])
    assert res.exit_code == 1 and ":3: error" in res.output
    res = runner.invoke(main, ["sim", "dominion", "--bots", f"{bad},big-money", "-n", "1"])
    assert res.exit_code != 0 and "unknown card or type 'Dutchy'" in res.output and res.exception
    assert isinstance(res.exception, SystemExit)
    res = runner.invoke(
        main, ["sim", "dominion", "--bots", f"{good},big-money-ultimate", "-n", "4", "--json"]
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["games"] == 4
    res = runner.invoke(main, ["strategy", "show", "militia"])
    assert "Militia if count(Militia) < 3" in res.output
    res = runner.invoke(main, ["strategy", "list"])
    assert "council-room" in res.output.split()


def test_the_documented_bot_file_is_clean_and_plays(tmp_path: Path) -> None:
    readme = (Path(__file__).parents[2] / "docs" / "strategy-files.md").read_text()
    block = readme.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "my_bot.toml"
    path.write_text(block)
    res = CliRunner().invoke(main, ["strategy", "check", str(path), "--kingdom", "First Game"])
    assert res.exit_code == 0 and "OK" in res.output, res.output
    args = ["sim", "dominion", "--bots", f"{path},big-money-ultimate", "--kingdom"]
    res = CliRunner().invoke(main, [*args, "First Game", "-n", "4", "--json"])
    assert res.exit_code == 0 and json.loads(res.output)["games"] == 4


def test_file_bots_only_where_files_are_allowed(tmp_path: Path) -> None:
    from kingdoms.core import InvalidConfig

    path = tmp_path / "secret.toml"
    path.write_text('buy = ["Gold"]\n')
    # specs from the network (the server) must never read files
    with pytest.raises(InvalidConfig, match="unknown dominion bot"):
        make_bot("dominion", str(path))
    assert make_bot("dominion", str(path), files=True).name == "secret"


def test_the_guard_acts_in_real_games_from_the_view_alone() -> None:
    import dataclasses

    from kingdoms.bots.dominion.bots import situation
    from kingdoms.bots.dominion.bundled import bundled_strategy
    from kingdoms.core import new_game

    guarded = bundled_strategy("big-money-ultimate")
    unguarded = dataclasses.replace(guarded, guard=False)
    bots = [StrategyBot(guarded), StrategyBot(guarded)]
    skipped = 0
    for seed in range(40):
        state = new_game("dominion", 2, seed, {"kingdom": "First Game"})
        state.logging = False
        rng = random.Random(seed)
        while state.current_player >= 0:
            p = state.current_player
            view = state.view(p)
            if view["decision"] is None and view["phase"] == "buy":
                s = situation(view)
                want, plain = guarded.choose(s), unguarded.choose(s)
                if want != plain:
                    skipped += 1
                    assert plain is not None and s.ends_game(plain)
                    me = state.vp_of(p) + {"province": 6, "duchy": 3, "estate": 1}.get(plain, 0)  # type: ignore[attr-defined]
                    assert me <= state.vp_of(1 - p)  # type: ignore[attr-defined]
            state.apply(bots[p].act(view, state.legal_actions(), rng))
    assert skipped > 0


# -- conditions made into one function: the same values as the node-by-node closures --

_ATOMS = [
    "0", "1", "2", "3", "11", "0.5", "18", "total_money", "money", "empty_piles", "turn",
    "coins", "potions", "buys", "vp", "vp_lead", "vp_deficit", "deck_size", "players",
    "count(Gold)", "count(Treasure)", "count(Victory)", "count(\"Council Room\")",
    "left(Province)", "left(Curse)", "true", "false",
]  # fmt: skip


def _expressions() -> st.SearchStrategy[str]:
    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binary = st.tuples(
            inner, st.sampled_from(["+", "-", "*", "/", "//", "%", "<", "<=", ">", ">=", "==",
                                    "!=", "and", "or"]), inner
        ).map(lambda t: f"({t[0]} {t[1]} {t[2]})")  # fmt: skip
        chain = st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} < {t[1]} <= {t[2]})")
        call = st.tuples(st.sampled_from(["min", "max"]), st.lists(inner, min_size=2, max_size=3))
        unary = st.tuples(st.sampled_from(["not ", "-", "+"]), inner)
        return st.one_of(
            binary,
            chain,
            call.map(lambda t: f"{t[0]}({', '.join(t[1])})"),
            unary.map(lambda t: f"({t[0]}{t[1]})"),
        )

    return st.recursive(st.sampled_from(_ATOMS), grow, max_leaves=6)


_SITUATIONS = [
    sit(0),
    sit(8, {"copper": 7, "gold": 2, "estate": 3, "province": 1}, turn=9, buys=2),
    sit(5, {"gardens": 3, "copper": 30, "smithy": 2}, supply={"province": 1, "curse": 0}),
    sit(3, {}, others=((12, 4),), seats=(), potions=1, turn=20, players=4),
]


@settings(max_examples=300, deadline=None)
@given(text=_expressions())
def test_a_condition_as_one_function_computes_what_its_closures_compute(text: str) -> None:
    import ast
    import math

    from kingdoms.bots.dominion.conditions import ExprError, _compile

    try:
        closures = _compile(ast.parse(text, mode="eval").body).fn
    except ExprError:  # refused (e.g. a division by a constant 0): refused both ways
        with pytest.raises(ExprError):
            compile_condition(text)
        return
    one = compile_condition(text).fn
    assert "lambda" in repr(one) and one.__code__.co_name == "<lambda>"
    for s in _SITUATIONS:
        want, got = closures(s), one(s)
        assert type(got) is type(want), (text, want, got)
        assert got == want or (math.isnan(want) and math.isnan(got)), (text, want, got)


def test_every_bundled_condition_is_made_one_function() -> None:
    for name in bundled_names():
        for _card, cond in parse_strategy(bundled_text(name), name).rules:
            assert cond is always or cond.__code__.co_filename == "<string>", name


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ('buy = ["Smithyy"]', "did you mean 'Smithy'?"),
        ('buy = ["Smithy if count(Smithie) < 2"]', "did you mean 'Smithy'"),
        ('buy = ["Smithy if cont(Smithy) < 2"]', "did you mean 'count'"),
        ('buy = ["Smithy if totl_money < 2"]', "did you mean 'total_money'"),
        ('bye = ["Smithy"]\nbuy = ["Gold"]', "did you mean 'buy'?"),
        ('buy = ["Gold"]\n[decisions]\n"chapel.trsh" = ["Copper"]', "did you mean 'chapel.trash'"),
    ],
)
def test_unknown_names_suggest_the_closest(text: str, hint: str) -> None:
    with pytest.raises(StrategyError, match=re.escape(hint)):
        parse_strategy(text)
    with pytest.raises(StrategyError) as err:
        parse_strategy('buy = ["Xyzzy"]')
    assert "did you mean" not in str(err.value)


def test_roles_name_cards_by_what_they_do() -> None:
    s = parse_strategy('buy = ["Village if count(Terminal) > count(Villages)", "Cycler"]')
    cond = s.buy[0].cond
    assert cond is not None
    owned = {"smithy": 2, "festival": 1}
    assert cond(Situation(coins=3, owned=owned, types=adapter.TYPES))
    assert not cond(Situation(coins=3, owned={**owned, "village": 1}, types=adapter.TYPES))
    assert s.buy[1].matches("laboratory") and not s.buy[1].matches("smithy")


def test_the_penultimate_province_rule_guards_every_province_entry() -> None:
    text = (
        "penultimate_province = true\n"
        'buy = ["Province if total_money > 15", "Duchy if left(Province) <= 4", "Estate", "Gold"]'
    )
    rule = parse_strategy(text).buy[0]
    assert rule.text.startswith("Province if (total_money > 15) and not (left(Province) == 2")
    assert rule.cond is not None

    def sit(left: int, vp: int, opp: int) -> Situation:
        owned = {"gold": 6, "estate": vp}
        supply = {"province": left, "duchy": 8, "estate": 8}
        return Situation(coins=8, owned=owned, supply=supply, others=((opp, 5),))

    assert rule.cond(sit(3, 10, 14))  # not the penultimate Province: buy
    assert not rule.cond(sit(2, 10, 12))  # behind; a Duchy puts it ahead: not the Province
    assert rule.cond(sit(2, 10, 20))  # far behind: a Duchy would not help either
    assert rule.cond(sit(2, 12, 10))  # ahead: buy (an Estate in the list changes nothing)
    plain = parse_strategy('buy = ["Province if total_money > 15", "Duchy"]').buy[0]
    assert plain.text == "Province if total_money > 15"
    with pytest.raises(StrategyError, match="penultimate_province must be true or false"):
        parse_strategy('penultimate_province = 1\nbuy = ["Gold"]')


def test_an_unknown_kingdom_card_comes_with_the_closest_ones() -> None:
    with pytest.raises(
        StrategyError, match=r"'Villge' is not a kingdom card; did you mean 'Village'\?"
    ):
        parse_strategy('name = "x"\nkingdom = ["Smithy", "Villge"]\nbuy = ["Silver"]\n')
