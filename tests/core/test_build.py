"""The compiled and the pure-Python builds: which one runs, and that they agree."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import kingdoms
from kingdoms._build import COMPILED, CYTHON, PURE_ENV, compiled_sources, pure_requested

EXPECT = os.environ.get("KINGDOMS_EXPECT_BUILD", "")


def test_the_expected_build_is_the_one_running() -> None:
    """``make test`` runs the suite once per build and says which one it expects."""
    if not EXPECT:
        pytest.skip("KINGDOMS_EXPECT_BUILD not set (make test sets it)")
    assert kingdoms.build_kind() == EXPECT


def test_modules_come_from_the_build_in_use() -> None:
    files = [str(importlib.import_module(m).__file__) for m in COMPILED]
    if pure_requested():
        assert kingdoms.build_kind() == "pure"
        assert all(f.endswith(".py") for f in files)
        for name in CYTHON:
            with pytest.raises(ImportError):
                importlib.import_module(name)
    elif kingdoms.build_kind() == "compiled":
        assert not any(f.endswith(".py") for f in files)


def test_the_compiled_build_is_not_older_than_its_sources() -> None:
    """A stale extension would run old code: ``make setup`` rebuilds on change."""
    if kingdoms.build_kind() != "compiled":
        pytest.skip("the pure-Python path is in use")
    built = [Path(str(importlib.import_module(m).__file__)) for m in (*COMPILED, *CYTHON)]
    newest_source = max(p.stat().st_mtime for p in compiled_sources())
    stale = [str(p) for p in built if p.stat().st_mtime < newest_source]
    assert not stale, f"rebuild with `make setup`: {stale}"


def test_make_setup_rebuilds_when_any_source_of_the_build_changes() -> None:
    """Every source the compiled build is made from is listed for ``make setup``: the
    mypyc modules, the Cython extensions and the declarations (``.pxd``) they cimport."""
    sources = set(compiled_sources())
    src = Path(kingdoms.__file__).parent.parent
    declared = set((src / "kingdoms").rglob("*.pxd"))
    assert declared, "no .pxd found: the C board's declarations are missing"
    assert declared <= sources
    assert all(p.exists() for p in sources)


GAMES = r"""
import json, random, sys
from kingdoms.bots.base import make_bot
from kingdoms.core import new_game
from kingdoms.core.runner import play_out
import kingdoms
out = {"kind": kingdoms.build_kind(), "games": []}
for players, variants in [(4, []), (3, ["middle-kingdom", "harmony"]), (2, ["dynasty"]),
                          (2, ["mighty-duel"])]:
    for seed in range(4):
        st = new_game("kingdomino", players=players, seed=seed, options={"variants": variants})
        st.random_playout(random.Random(seed))
        o = st.outcome()
        out["games"].append([st.history, st.fingerprint(), list(o.scores), dict(o.details)])
        st = new_game("kingdomino", players=players, seed=seed, options={"variants": variants})
        d = st.determinize(0, random.Random(seed))
        rng = random.Random(seed + 1)
        while not d.is_terminal():
            legal = d.legal_actions()
            d.apply_checked(legal[rng.randrange(len(legal))])
        out["games"].append([d.history, d.fingerprint(), d.log_for(None)])
st = new_game("kingdomino", players=4, seed=5)
bots = [make_bot("kingdomino", s) for s in
        ["mcts:iterations=30,seed=1", "mcts:iterations=20,algorithm=uct,playout=random,seed=2",
         "full-greedy", "greedy"]]
play_out(st, bots, checked=True)
out["games"].append([st.history, st.fingerprint()])
alchemy = ["possession", "golem", "scrying_pool", "apothecary", "alchemist", "herbalist",
           "university", "familiar", "transmute", "philosophers_stone"]
attacks = ["militia", "moat", "spy", "thief", "bureaucrat", "library", "chapel", "cellar",
           "throne_room", "witch"]
for kingdom, players in [("First Game", 2), (alchemy, 3), (attacks, 4), ("random", 2)]:
    for seed in range(3):
        st = new_game("dominion", players=players, seed=seed, options={"kingdom": kingdom})
        st.random_playout(random.Random(seed))
        c = st.clone()
        out["games"].append([st.history, st.fingerprint(), c.fingerprint(), st.log_for(0)])
        d = st.determinize(0, random.Random(seed))
        out["games"].append(d.fingerprint())
for kingdom, specs in [("First Game", ["big-money-ultimate", "smithy"]),
                       (attacks, ["witch", "militia", "bureaucrat"]),
                       (alchemy, ["familiar", "random", "smithy"])]:
    for seed in range(2):
        st = new_game("dominion", players=len(specs), seed=seed, options={"kingdom": kingdom})
        st.logging = seed == 0
        play_out(st, [make_bot("dominion", s) for s in specs], checked=True)
        o = st.outcome()
        out["games"].append([st.history, st.fingerprint(), list(o.scores), dict(o.details),
                             st.log_for(None)])
from kingdoms.sim.runner import play_one
for i, specs in enumerate([["witch", "big-money-ultimate"], ["smithy", "militia", "big-money"]]):
    for curves in (False, True):
        r = play_one("dominion", specs, i, 3, {"kingdom": attacks}, curves=curves)
        out["games"].append([list(r.winners), list(r.scores), r.first, dict(r.summary),
                             {k: [list(x) for x in v] for k, v in r.series.items()}])
for i in range(8):  # the turn cap: games stopped at it, and games that end before it
    for specs, cap in [(["big-money", "smithy"], 16), (["random", "smithy"], 10)]:
        r = play_one("dominion", specs, i, 5, {"kingdom": "First Game"}, max_turns=cap)
        out["games"].append([list(r.winners), list(r.scores), r.first, dict(r.summary)])
import os, tempfile  # play styles (Remodel, Mine "upgrade") and specs with start states
styled = os.path.join(tempfile.mkdtemp(), "styled.toml")
with open(styled, "w", encoding="utf-8") as f:
    f.write('name = "R"\nbuy = ["Province", "Gold", "Remodel if count(Remodel) < 1", '
            '"Mine if count(Mine) < 1", "Smithy", "Silver"]\n'
            '[styles]\nremodel = "upgrade"\nmine = "upgrade"\n')
for i in range(4):
    for specs in [[styled, "big-money-ultimate:start=5/2"],
                  ["smithy:start=Silver+Silver", "big-money"]]:
        r = play_one("dominion", specs, i, 7, {"kingdom": "First Game"})
        out["games"].append([list(r.winners), list(r.scores), r.first, dict(r.summary)])
vassal = os.path.join(tempfile.mkdtemp(), "vassal.toml")  # known_top(): the Python engine
with open(vassal, "w", encoding="utf-8") as f:
    f.write('name = "V"\nbuy = ["Province", "Gold", "Sentry if count(Sentry) < 1", '
            '"Vassal if count(Vassal) < 2", "Laboratory", "Silver"]\n'
            'play = ["Vassal if known_top(Action) > 0", "Sentry", "Laboratory", "Vassal"]\n')
skull = ["sentry", "harbinger", "vassal", "laboratory", "poacher", "militia", "throne_room",
         "smithy", "market", "village"]
for i in range(4):
    r = play_one("dominion", [vassal, "big-money-ultimate"], i, 7, {"kingdom": skull})
    out["games"].append([list(r.winners), list(r.scores), r.first, dict(r.summary)])
json.dump(out, sys.stdout)
"""


def _run(pure: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    if pure:
        env[PURE_ENV] = "1"
    done = subprocess.run(
        [sys.executable, "-c", GAMES], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_compiled_and_pure_builds_play_bit_identical_games() -> None:
    """Same seeds, same games: random playouts, checked play, MCTS and greedy bots;
    Dominion kingdoms with Alchemy (Possession), attacks and random ones, random and
    strategy bots, clones, determinizations and logs; simulator games with and
    without their per-turn curves, at the turn cap, with a play style and with start
    states."""
    compiled = _run(pure=False)
    if compiled["kind"] != "compiled":
        pytest.skip("the compiled build is not available here")
    pure = _run(pure=True)
    assert pure["kind"] == "pure"
    assert compiled["games"] == pure["games"]
