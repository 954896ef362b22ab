"""The State contract, checked on every registered game."""

from __future__ import annotations

import json
import random

import pytest

from kingdoms.core import IllegalAction, ParseError, get_game, new_game
from kingdoms.core.testing import check_random_game
from kingdoms.i18n import LANGUAGES


def _walk(game_name: str, seed: int, steps: int):  # type: ignore[no-untyped-def]
    state = new_game(game_name, players=2, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        yield state
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def test_action_text_round_trip_in_every_language(game_name: str) -> None:
    """action_to_str and parse_action are inverse for every legal action."""
    for state in _walk(game_name, 3, 120):
        for lang in LANGUAGES:
            for action in state.legal_actions():
                text = state.action_to_str(action, lang)
                assert state.parse_action(text, lang) == action, (lang, text)


def test_parse_errors_name_the_problem(game_name: str) -> None:
    state = new_game(game_name, players=2, seed=1)
    with pytest.raises(ParseError, match="not a legal action"):
        state.parse_action("definitely not a move")
    with pytest.raises(ParseError, match="empty"):
        state.parse_action("   ")


def test_illegal_actions_raise_and_change_nothing(game_name: str) -> None:
    state = new_game(game_name, players=2, seed=5)
    before = state.fingerprint()
    space = get_game(game_name).num_distinct_actions(state.config)
    legal = set(state.legal_actions())
    for bad in [*[a for a in range(space) if a not in legal][:50], -1, space, "x", None]:
        with pytest.raises(IllegalAction):
            state.apply_checked(bad)  # type: ignore[arg-type]
    assert state.fingerprint() == before


def test_clone_is_independent(game_name: str) -> None:
    state = new_game(game_name, players=2, seed=9)
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert copy.fingerprint() != state.fingerprint()
    assert state.step == 0 and copy.step == 1


def test_views_and_logs_are_json(game_name: str) -> None:
    for state in _walk(game_name, 4, 60):
        for p in range(state.num_players):
            json.dumps(state.view(p))
            json.dumps(state.log_for(p))
            for event in state.log_for(p)[-3:]:
                for lang in LANGUAGES:
                    assert state.event_to_str(event, lang)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant(game_name: str, players: int) -> None:
    """The core invariant suite: clone, save/restore, views leak nothing, games end."""
    for seed in range(3):
        stats = check_random_game(game_name, players, seed)
        assert stats.ended


def test_legal_actions_mask_matches_the_list(game_name: str) -> None:
    """The mask holds 1 exactly at the legal actions, in every state of a random game
    (the end included: all 0s)."""
    space = get_game(game_name).num_distinct_actions(new_game(game_name, players=2).config)
    state = new_game(game_name, players=2, seed=11)
    rng = random.Random(11)
    while True:
        mask = state.legal_actions_mask(space)
        assert isinstance(mask, bytearray) and len(mask) == space
        assert [a for a in range(space) if mask[a]] == sorted(state.legal_actions())
        assert set(mask) <= {0, 1}
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def test_the_checker_catches_a_mask_that_disagrees_with_the_list() -> None:
    """``check_step`` compares each game's mask with its legal actions: a state
    whose mask misses an action fails it, naming the action."""
    from tests.games.nim import NimState

    from kingdoms.core.errors import InvariantViolation
    from kingdoms.core.state import GameConfig
    from kingdoms.core.testing import check_step

    class Broken(NimState):
        def legal_actions_mask(self, size: int) -> bytearray:
            mask = super().legal_actions_mask(size)
            mask[3] = 0
            return mask

    config = GameConfig("nim", 2, 1, {"heap": 10})
    assert check_step(NimState(config), 4) == [1, 2, 3]
    with pytest.raises(InvariantViolation, match=r"legal_actions_mask .* at actions \[3\]"):
        check_step(Broken(config), 4)
