"""A strategy file's ``start``: the seat's start state, given to the seat the bot
sits in for every simulated game."""

from __future__ import annotations

from pathlib import Path

import pytest

from kingdoms.bots.dominion.lang import StrategyError, parse_strategy
from kingdoms.dominion.data import CARDS
from kingdoms.sim.runner import native_reason, new_sim_game

HEAD = 'name = "S"\nbuy = ["Province", "Gold", "Silver"]\n'
USUAL = ["copper"] * 7 + ["estate"] * 3


def test_cards_added_to_the_usual_deck() -> None:
    s = parse_strategy(HEAD + 'start = ["Silver", "Silver"]\n')
    assert s.start == {"deck": [*USUAL, "silver", "silver"], "shuffle": True, "discard": []}


def test_an_opening_split_and_a_table() -> None:
    assert parse_strategy(HEAD + 'start = "5/2"\n').start == {
        "deck": USUAL,
        "shuffle": True,
        "discard": [],
        "split": "5/2",
    }
    table = HEAD + '[start]\nhand = ["Gold"]\ndeck = ["Copper"]\nshuffle = false\n'
    assert parse_strategy(table).start == {
        "deck": ["copper"],
        "shuffle": False,
        "hand": ["gold"],
        "discard": [],
    }
    assert parse_strategy(HEAD).start is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('start = "5-2"', "an opening split is one of 5/2, 4/3, not '5-2'"),
        ('start = ["Silvr"]', "unknown card 'Silvr' (did you mean 'silver'?)"),
        ("start = 3", "start must be a list of cards added to the usual deck"),
        ('[start]\nsplit = "5/2"\nhand = ["Gold"]', "needs a shuffled deck"),
    ],
)
def test_bad_start_entries_name_the_line(text: str, message: str) -> None:
    with pytest.raises(StrategyError) as err:
        parse_strategy(HEAD + text + "\n")
    assert message in str(err.value)
    assert ":3:" in str(err.value)


def test_each_bot_gets_its_start_in_its_own_seat(tmp_path: Path) -> None:
    path = tmp_path / "lucky.toml"
    path.write_text(
        HEAD + '[start]\nhand = ["Gold", "Gold", "Gold", "Gold", "Gold"]\n', encoding="utf-8"
    )
    specs = [str(path), "big-money"]
    opts = {"kingdom": "First Game"}
    for index in range(4):
        state = new_sim_game("dominion", specs, index, 5, opts)
        seat = index % 2  # the file's bot sits here in this game (seats rotate)
        assert [CARDS[c].id for c in state.hands[seat]] == ["gold"] * 5
        assert "gold" not in [CARDS[c].id for c in state.hands[1 - seat]]
    assert "start state" in (native_reason("dominion", specs, opts) or "")  # the engine deals


def test_check_warns_when_the_kingdom_lacks_a_start_card() -> None:
    from kingdoms.bots.dominion.lint import check_text

    text = HEAD + 'start = ["Potion", "Witch"]\n'
    found = check_text(text, "s", ["smithy", "village"])
    assert [(f.line, f.level) for f in found] == [(3, "warning")]
    assert "Potion, Witch not in this kingdom (no kingdom card costs a Potion)" in found[0].message
    assert check_text(text, "s", ["familiar", "witch"]) == []  # Familiar brings the Potion
    assert check_text(text, "s") == []  # no kingdom given: nothing to compare with
