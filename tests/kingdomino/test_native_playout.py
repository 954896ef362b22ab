"""``random_playout`` on every build: the compiled loop (C, over the compiled boards)
plays the same games as the pure-Python reference.

* in one process: ``KingdominoState.random_playout`` against the core's step-by-step
  loop (``legal[int(rng.random() * len(legal))]`` through the public API), from
  mid-game states of every variant and player count — on the compiled build this
  runs the C loop, on the pure path the Python one;
* across builds: the same seeds played in a child process on the pure-Python path
  (``KINGDOMS_PURE=1``) give the same histories, snapshots and scores;
* a short soak: many seeded games, 0 differences (``KINGDOMS_SOAK_GAMES`` for more).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import kingdoms
from kingdoms import build_kind
from kingdoms.core import new_game
from kingdoms.kingdomino import state as kstate
from kingdoms.kingdomino.board import NATIVE_PLAYOUT
from kingdoms.kingdomino.state import KingdominoState

SETUPS: list[tuple[int, list[str]]] = [
    (2, []),
    (3, []),
    (4, []),
    (2, ["mighty-duel"]),
    (3, ["dynasty"]),
    (4, ["middle-kingdom", "harmony"]),
    (2, ["dynasty", "mighty-duel"]),
]


def _start(seed: int) -> KingdominoState:
    """A seeded game of one of :data:`SETUPS`, played ``seed % 60`` random steps in."""
    players, variants = SETUPS[seed % len(SETUPS)]
    state = new_game("kingdomino", players=players, seed=seed, options={"variants": variants})
    assert isinstance(state, KingdominoState)
    state.logging = False
    rng = random.Random(seed)
    for _ in range(seed % 60):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def _reference(state: KingdominoState, rng: random.Random) -> None:
    """The documented rule of ``random_playout``, step by step through the public API."""
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])


def _record(state: KingdominoState) -> list[Any]:
    out = state.outcome()
    assert out is not None
    record: list[Any] = json.loads(json.dumps([state.history, state.snapshot(), list(out.scores)]))
    return record


def _played(seeds: range) -> list[list[Any]]:
    records = []
    for seed in seeds:
        state = _start(seed)
        state.random_playout(random.Random(seed + 1))
        records.append(_record(state))
    return records


def test_the_compiled_loop_knows_the_states_codes() -> None:
    if NATIVE_PLAYOUT is None:
        pytest.skip("pure-Python path: no compiled loop")
    from kingdoms.kingdomino import _cboard  # type: ignore[attr-defined]

    assert {
        name: getattr(kstate, name)
        for name in ("DISCARD", "PICK", "FIRST_PICKS", "PLACE", "CHOOSE", "OVER")
    } == _cboard.CODES


def test_random_playout_plays_the_reference_games() -> None:
    games = int(os.environ.get("KINGDOMS_SOAK_GAMES", "300"))
    differences = []
    for seed in range(games):
        ours = _start(seed)
        ref = ours.clone()
        native = ours.clone()
        ours.random_playout(random.Random(seed + 1))
        _reference(ref, random.Random(seed + 1))
        if _record(ours) != _record(ref):
            differences.append(seed)
        if NATIVE_PLAYOUT is not None:  # the C loop itself
            NATIVE_PLAYOUT(native, random.Random(seed + 1))
            if _record(native) != _record(ref):
                differences.append(seed)
    assert differences == []


def test_random_playout_keeps_the_generator_where_the_reference_does() -> None:
    state = _start(5)
    ref = state.clone()
    rng, ref_rng = random.Random(9), random.Random(9)
    state.random_playout(rng)
    _reference(ref, ref_rng)
    assert rng.random() == ref_rng.random()
    assert state.rng.getstate() == ref.rng.getstate()


def test_random_playout_with_logging_on_logs_as_the_reference() -> None:
    state = _start(11)
    state.logging = True
    ref = state.clone()
    state.random_playout(random.Random(3))
    _reference(ref, random.Random(3))
    assert state.log == ref.log
    assert _record(state) == _record(ref)


PURE_GAMES = """
import json, sys
sys.path.insert(0, sys.argv[1])
from kingdoms import build_kind
import test_native_playout as t
print(json.dumps([build_kind(), t._played(range(int(sys.argv[2])))]))
"""


def test_the_pure_path_plays_the_same_games_in_another_process() -> None:
    if build_kind() != "compiled":
        pytest.skip("the compiled build is not in use: nothing to compare with")
    games = 60
    env = dict(os.environ, KINGDOMS_PURE="1")
    env["PYTHONPATH"] = str(Path(kingdoms.__file__).resolve().parent.parent)
    args = [sys.executable, "-c", PURE_GAMES, str(Path(__file__).parent), str(games)]
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
    kind, records = json.loads(done.stdout)
    assert kind == "pure"
    assert _played(range(games)) == records
