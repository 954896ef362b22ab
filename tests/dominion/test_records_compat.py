"""Saved games keep replaying: action logs recorded with the engine as it was before
the cards became declarations (tests/dominion/data/records_v1.json: config, seed and
action ints) replay move for move to the same zones, counts and turn state."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from kingdoms.core import new_game

RECORDS = json.loads((Path(__file__).parent / "data" / "records_v1.json").read_text())
FIELDS = (
    "supply", "trash", "hands", "decks", "discards", "in_play", "aside", "turn", "phase",
    "actions", "buys", "coins", "potions", "turns", "possessed_trash",
)  # fmt: skip


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"seed{r['seed']}")
def test_old_action_logs_replay_identically(record: dict[str, Any]) -> None:
    state = new_game(
        "dominion", players=record["players"], seed=record["seed"], options=record["options"]
    )
    for action in record["actions"]:
        state.apply_checked(action)  # every recorded action is still legal
    snap = state.snapshot()
    digest = hashlib.sha256(json.dumps([snap[f] for f in FIELDS]).encode()).hexdigest()[:16]
    assert digest == record["digest"]
