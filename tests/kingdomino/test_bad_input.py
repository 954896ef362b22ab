"""Bad input through Kingdomino's public API raises the project's own errors, with a
message naming what was wrong, and changes nothing."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from kingdoms.core import (
    IllegalAction,
    InvalidArgument,
    InvalidConfig,
    KingdomsError,
    get_game,
    new_game,
)
from kingdoms.kingdomino.state import DISCARD, PICK, KingdominoState
from tests.kingdomino.helpers import game


def _state() -> KingdominoState:
    return game(2, seed=1)


CASES: list[tuple[str, Callable[[KingdominoState], Any], type[KingdomsError], str]] = [
    ("square off every kingdom", lambda s: s.placement_action(9, 9, 0), IllegalAction, "(9, 9)"),
    ("other square off", lambda s: s.placement_action(6, 0, 0), IllegalAction, "(7, 0)"),
    ("other square off upwards", lambda s: s.placement_action(0, -6, 3), IllegalAction, "(0, -7)"),
    ("bad direction", lambda s: s.placement_action(0, 1, 7), IllegalAction, "direction"),
    ("text coordinate", lambda s: s.placement_action("a", 1, 0), IllegalAction, "x must be"),
    ("seat too high", lambda s: s.view(5), InvalidArgument, "no seat 5"),
    ("negative seat", lambda s: s.view(-1), InvalidArgument, "no seat -1"),
    ("text seat", lambda s: s.view("x"), InvalidArgument, "no seat 'x'"),
    ("determinize for no seat", lambda s: s.determinize(7, random.Random(1)), InvalidArgument, "7"),
    ("score of no seat", lambda s: s.score(9), InvalidArgument, "no seat 9"),
    ("breakdown of no seat", lambda s: s.breakdown(9), InvalidArgument, "no seat 9"),
    ("bonuses of no seat", lambda s: s.bonuses(2), InvalidArgument, "no seat 2"),
    ("action code too big", lambda s: s.action_to_str(99999), InvalidArgument, "99999"),
    ("negative action code", lambda s: s.action_to_str(-3), InvalidArgument, "-3"),
    ("no such domino", lambda s: s.action_info(PICK), InvalidArgument, "no domino 0"),
    ("placement while picking", lambda s: s.action_info(5), InvalidArgument, "placing"),
    ("discard while picking", lambda s: s.action_to_str(DISCARD), InvalidArgument, "placing"),
    ("action as text", lambda s: s.apply_checked("x"), IllegalAction, "'x'"),
]


@pytest.mark.parametrize(("what", "call", "error", "names"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_raises_a_clear_error_and_changes_nothing(
    what: str, call: Callable[[KingdominoState], Any], error: type[KingdomsError], names: str
) -> None:
    state = _state()
    before = state.fingerprint()
    with pytest.raises(error, match=None) as err:
        call(state)
    assert names in str(err.value), what
    assert state.fingerprint() == before


def test_every_placement_code_round_trips_through_placement_action() -> None:
    state = _state()
    while state.phase != 1:  # to a placement
        state.apply(state.legal_actions()[0])
    for code in state.legal_actions():
        info = state.action_info(code)
        assert state.placement_action(info["x"], info["y"], info["dir"]) == code


@pytest.mark.parametrize(
    ("view_change", "names"),
    [
        ({"players": None}, "players"),
        ({"game": "dominion"}, "not a Kingdomino view"),
        ({"kingdoms": [{"placed": [[99, 5]], "discarded": []}]}, "99"),
        ({"kingdoms": [{"placed": [[3, 5]], "discarded": []}] * 2}, "cannot lie"),
        ({"phase": "lunch"}, "lunch"),
    ],
)
def test_state_from_a_malformed_view_raises(view_change: dict[str, Any], names: str) -> None:
    view = {**_state().view(0), **view_change}
    with pytest.raises(InvalidArgument) as err:
        get_game("kingdomino").state_from_view(view, random.Random(1))
    assert names in str(err.value)


def test_options_must_be_a_mapping() -> None:
    with pytest.raises(InvalidConfig, match="mapping"):
        new_game("kingdomino", players=2, seed=1, options=["harmony"])  # type: ignore[arg-type]
