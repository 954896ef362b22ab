"""One name per seat: the server's bot names equal the browser's, and numbered
when they repeat."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kingdoms.bots.base import bot_names, format_bot_spec, parse_bot_spec
from kingdoms.i18n import LANGUAGES, catalog
from kingdoms.server.botnames import (
    BOT_ABOUT,
    BOT_LABELS,
    DEFAULT_BOTS,
    bot_label,
    display_names,
    label_key,
)
from kingdoms.server.logtext import seat_names, with_names

BOTS_JS = Path(__file__).parents[2] / "src/kingdoms/web/static/js/bots.js"


def _table(name: str) -> dict[str, str]:
    text = BOTS_JS.read_text(encoding="utf-8")
    block = re.search(rf"const {name} = \{{(.*?)\n\}};", text, re.S)
    assert block, name
    return dict(re.findall(r'"([\w+:-]+)": \(\) => t\("([^"]+)"\)', block.group(1)))


def test_browser_tables_equal_the_servers() -> None:
    assert _table("LABELS") == BOT_LABELS
    assert _table("ABOUT") == BOT_ABOUT


def test_every_offered_bot_has_a_name_and_a_description_in_every_language() -> None:
    for game in ("dominion", "kingdomino"):
        for bot in bot_names(game):
            assert bot in BOT_LABELS and bot in BOT_ABOUT, bot
            for lang in LANGUAGES[1:]:
                assert BOT_LABELS[bot] in catalog(lang), (lang, BOT_LABELS[bot])
                assert BOT_ABOUT[bot] in catalog(lang), (lang, BOT_ABOUT[bot])
        assert DEFAULT_BOTS[game] in bot_names(game)


def test_repeated_names_are_numbered_and_the_log_uses_them() -> None:
    seats = [
        {"kind": "human", "name": "Player 1"},
        {"kind": "bot", "bot": "full-greedy", "name": "Player 2"},
        {"kind": "bot", "bot": "full-greedy:time=1", "name": "Player 3"},
        {"kind": "bot", "bot": "mcts", "name": "Ola"},
    ]
    assert display_names(seats, "en") == [
        "Player 1",
        "Greedy, looking ahead 1",
        "Greedy, looking ahead 2",
        "Ola",
    ]
    assert display_names(seats, "pl")[:3] == [
        "Gracz 1",
        "Zachłanny, patrzy naprzód 1",
        "Zachłanny, patrzy naprzód 2",
    ]
    names = seat_names(seats, "cs")
    assert (
        with_names("hráč 3 bere domino 4", names, "cs")
        == "Hladový, dívá se dopředu 2 bere domino 4"
    )
    twins = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ann"}]
    assert display_names(twins) == ["Ann 1", "Ann 2"]


def test_a_level_names_the_bot_however_the_spec_spells_it() -> None:
    """A level with its own name keeps it with options after it and spelled as
    ``level=``; other options never change a bot's name."""
    strong = BOT_LABELS["best:strong"]
    for spec in (
        "best:strong",
        "best:strong,many=on",
        "best:level=strong",
        "best:many=on,level=strong",
    ):
        assert label_key(spec) == "best:strong", spec
        assert bot_label(spec) == strong, spec
    for spec in ("best", "best:many=on", "best:default", "best:level=default,time=0.05"):
        assert bot_label(spec) == BOT_LABELS["best"], spec
    assert bot_label("mcts:time=1") == BOT_LABELS["mcts"]
    assert bot_label("bmu+laboratory:4+militia:1") == "Big Money Ultimate + laboratory"
    assert bot_label("best:strong", "pl") != strong  # translated


@pytest.mark.parametrize(
    "spec",
    [
        "best",
        "best:strong",
        "best:level=strong,many=on",
        "mcts:time=0.5,playout=greedy",
        "best:bank=off,seed=3",
        "mcts:iterations=50,time=2.0",
        "big-money",
    ],
)
def test_a_formatted_spec_reads_back_as_the_same_bot(spec: str) -> None:
    name, params = parse_bot_spec(spec)
    again = format_bot_spec(name, params)
    assert parse_bot_spec(again) == (name, params)
    assert format_bot_spec(*parse_bot_spec(again)) == again
