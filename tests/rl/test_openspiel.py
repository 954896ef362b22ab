"""Both games as OpenSpiel games: registered, OpenSpiel's own random-simulation test
and serialization round trip pass, tensors are the seat's observation, IS-MCTS runs."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from kingdoms.rl import openspiel as ks  # noqa: E402 - registers the games
from kingdoms.rl.dominion_obs import DominionEncoder  # noqa: E402


def test_registered_with_their_parameters() -> None:
    names = pyspiel.registered_names()
    assert ks.DOMINION in names and ks.KINGDOMINO in names
    game = pyspiel.load_game(ks.KINGDOMINO, {"players": 3, "variants": "harmony"})
    assert game.num_players() == 3 and game.num_distinct_actions() == 778
    assert game.observation_tensor_size() == 4282
    dominion = pyspiel.load_game(ks.DOMINION, {"kingdom": "First Game"})
    assert dominion.num_distinct_actions() == 468
    assert dominion.observation_tensor_size() == DominionEncoder(2).size
    with pytest.raises(Exception, match=r"unknown|kingdom"):
        pyspiel.load_game(ks.DOMINION, {"kingdom": "No Such Set"})


@pytest.mark.parametrize(
    ("name", "params", "sims"),
    [
        (ks.KINGDOMINO, {"players": 2}, 2),
        (ks.KINGDOMINO, {"players": 3, "variants": "middle-kingdom+harmony"}, 1),
        (ks.DOMINION, {"players": 2, "max_game_length": 250}, 1),
    ],
)
def test_openspiel_random_simulation_test(name: str, params: dict, sims: int) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


@pytest.mark.parametrize("name", [ks.KINGDOMINO, ks.DOMINION])
def test_serialization_round_trip_and_tensors(name: str) -> None:
    game = pyspiel.load_game(name, {"players": 2})
    state = game.new_initial_state()
    rng = random.Random(3)
    state.apply_action(1234)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history()
    assert again.engine.fingerprint() == state.engine.fingerprint()
    player = state.current_player()
    expected = game.make_py_observer().encoder.encode(state.engine, player)
    assert np.array_equal(np.asarray(state.observation_tensor(player)), expected)
    assert state.information_state_string(player).startswith(f"p{player} ")
    # what the seat may see is all it is given: a resampled state looks the same to it
    other = state.resample_from_infostate(player, rng.random)
    assert other.information_state_string(player) == state.information_state_string(player)
    assert other.observation_tensor(player) == state.observation_tensor(player)


def test_ismcts_plays_a_move() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(ks.KINGDOMINO, {"players": 2})
    state = game.new_initial_state()
    state.apply_action(7)
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 8, random_state=rs)
    bot.set_resampler(ks.resampler(0))
    for _ in range(3):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_the_documented_example_in_short(capsys: pytest.CaptureFixture[str]) -> None:
    """``examples/openspiel_ismcts_kingdomino.py`` (docs/rl.md's command) with one game
    and a few simulations a move: it plays to the end and reports the score."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "examples" / "openspiel_ismcts_kingdomino.py"
    spec = importlib.util.spec_from_file_location("openspiel_ismcts_kingdomino", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["openspiel_ismcts_kingdomino"] = module
    spec.loader.exec_module(module)
    wins = module.main(["--games", "2", "--simulations", "5"])
    assert 0 <= wins <= 2
    out = capsys.readouterr().out
    assert "game 2: IS-MCTS in seat 1" in out and "/2 (" in out
