"""The bundled strategy files play exactly like the Python bots they replaced.

``data/python_bots_fingerprints.json`` holds the games the former Python bots
(``BigMoney``, ``BigMoneyUltimate``, ``SmithyBot``, ``WitchBot``) played, recorded
before they were removed.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from kingdoms.bots.base import make_bot
from kingdoms.bots.dominion.bots import StrategyBot
from kingdoms.bots.dominion.bundled import bundled_strategy
from tests.bots.fingerprint import all_fingerprints

DATA = Path(__file__).parent / "data" / "python_bots_fingerprints.json"


def _file_bot_without_guard(name: str) -> StrategyBot:
    # The Python bots had no end-of-game guard: compare with it off.
    return StrategyBot(dataclasses.replace(bundled_strategy(name), guard=False))


def test_files_play_the_same_games_as_the_python_bots() -> None:
    recorded = json.loads(DATA.read_text())
    got = all_fingerprints(_file_bot_without_guard)
    assert got == recorded


@pytest.mark.parametrize("name", ["big-money", "smithy", "militia", "council-room", "familiar"])
def test_bundled_names_are_bots(name: str) -> None:
    assert make_bot("dominion", name).name == name
