"""A strategy file's ``start``: the seat's start state, given to the seat the bot
sits in for every simulated game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
        ('start = ["Silvr"]', "unknown card 'Silvr' (did you mean 'Silver'?)"),
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


def _cards(state: Any, seat: int) -> list[str]:
    """Every card the seat owns, sorted by id."""
    zones = (state.hands[seat], state.decks[seat], state.discards[seat])
    return sorted(CARDS[c].id for zone in zones for c in zone)


LUCKY = HEAD + '[start]\nhand = ["Gold", "Gold", "Gold", "Gold", "Gold"]\n'


def test_play_in_the_terminal_gives_a_file_bot_its_start(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kingdoms.cli.dominion import dominion
    from kingdoms.core.record import load_record

    path = tmp_path / "lucky.toml"
    path.write_text(LUCKY, encoding="utf-8")
    saved = tmp_path / "game.json"
    args = ["play", "--bots", str(path), "--kingdom", "First Game", "--seed", "4"]
    result = CliRunner().invoke(dominion, args, input=f"save {saved}\nq\n")
    assert result.exit_code == 0, result.output
    record = load_record(saved)
    start = record.config.options["start"]
    assert start[0] is None  # the human seat starts as usual
    assert start[1]["hand"] == ["gold"] * 5
    state = record.replay()
    assert [CARDS[c].id for c in state.hands[1]] == ["gold"] * 5
    assert _cards(state, 0) == sorted(USUAL)


def test_play_in_the_terminal_refuses_a_start_the_kingdom_cannot_give(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kingdoms.cli.dominion import dominion

    path = tmp_path / "potion.toml"
    path.write_text(HEAD + 'start = ["Potion"]\n', encoding="utf-8")
    args = ["play", "--bots", str(path), "--kingdom", "First Game"]
    result = CliRunner().invoke(dominion, args, input="q\n")
    assert result.exit_code == 1
    assert "Potion" in result.output and "Traceback" not in result.output


def test_a_bot_spec_carries_a_start_state() -> None:
    from kingdoms.bots import make_bot
    from kingdoms.core.errors import InvalidConfig

    bot = make_bot("dominion", "big-money-ultimate:start=5/2")
    assert bot.strategy.start is not None and bot.strategy.start["split"] == "5/2"  # type: ignore[attr-defined]
    silver = make_bot("dominion", "big-money:start=Silver+silver")
    assert silver.strategy.start["deck"] == [*USUAL, "silver", "silver"]  # type: ignore[attr-defined]
    assert make_bot("dominion", "big-money").strategy.start is None  # type: ignore[attr-defined]
    for spec, message in [
        ("big-money:start=Slver", "unknown card 'Slver' (did you mean 'Silver'?)"),
        ("big-money:start=6/1", "an opening split is one of 5/2, 4/3"),
        ("big-money:start=Silver++Gold", "joined by '+'"),
    ]:
        with pytest.raises(InvalidConfig, match="start") as err:
            make_bot("dominion", spec)
        assert message in str(err.value)


def test_the_server_deals_a_bot_its_start_state_and_replays_it(tmp_path: Path) -> None:
    import asyncio

    from kingdoms.server.master import GameMaster, RequestError
    from kingdoms.server.storage import Storage

    url = f"sqlite:///{tmp_path}/k.sqlite"
    gm = GameMaster(Storage(url), bot_delay=0)
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "big-money:start=Gold+Gold+Gold"}]
    table, _ = gm.create_game("dominion", seats, {"kingdom": "First Game"}, seed=7)
    assert _cards(table.state, 1) == sorted([*USUAL, "gold", "gold", "gold"])
    assert _cards(table.state, 0) == sorted(USUAL)  # the human seat: the usual start
    fresh = GameMaster(Storage(url), bot_delay=0)
    loaded = fresh.get(table.id)
    assert loaded is not None and _cards(loaded.state, 1) == _cards(table.state, 1)
    assert list(loaded.state.hands[1]) == list(table.state.hands[1])  # the same deal
    # a start option that gives the bot's seat another start: refused, naming the seat
    clash = {"kingdom": "First Game", "start": [None, {"split": "4/3"}]}
    with pytest.raises(RequestError, match="seat 2: the game's start option"):
        gm.create_game("dominion", seats, clash, seed=7)
    # the start option still gives the human seat its own start
    human = {"kingdom": "First Game", "start": [{"split": "5/2"}, None]}
    table2, _ = gm.create_game("dominion", seats, human, seed=7)
    assert table2.state.config.options["start"][0]["split"] == "5/2"
    assert "gold" in _cards(table2.state, 1)

    async def stop() -> None:
        await gm.stop()
        await fresh.stop()

    asyncio.run(stop())
